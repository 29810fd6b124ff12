/* session.c: one simulated worker session of the swarm (see session.h). */
#include "session.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zmq.h>

#include "log_line.h"
#include "whello.h"
#include "wire.h"
#include "wkind.h"
#include "wperft.h"

enum { DEFAULT_HEARTBEAT_MS = 1000 };

int64_t session_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void s_log(const session_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void s_log(const session_t *s, const char *fmt, ...)
{
    char prefix[MSG_NAME_MAX + 16];
    snprintf(prefix, sizeof prefix, "swarm %s: ", s->name);
    va_list ap;
    va_start(ap, fmt);
    log_line(prefix, fmt, ap);
    va_end(ap);
}

static void s_send(session_t *s, msg_t *m)
{
    char err[256];
    whello_stamp(m, s->version);
    if (wire_send(s->sock, m, ZMQ_DONTWAIT, err, sizeof err) != MSG_OK) {
        s_log(s, "cannot send %s: %s", msg_type_name(m->type), err);
        return;
    }
    s->last_send = session_now();
}

static void s_hello(session_t *s)
{
    msg_t m;
    whello_hello(&m, s->version, s->name, 1, 0);
    s_send(s, &m);
}

/* One task at a time: the next is asked for once the last is answered. */
static void s_credit(session_t *s)
{
    if (s->state != SESSION_ACTIVE || s->credit_out)
        return;
    msg_t m;
    msg_init(&m, MSG_CREDIT);
    m.u.credit.n = 1;
    s_send(s, &m);
    s->credit_out = true;
}

static void s_refuse(session_t *s, uint64_t task_id, uint64_t job_id, int code, const char *reason)
{
    msg_t m;
    msg_init(&m, MSG_REFUSE);
    m.u.refuse.task_id = task_id;
    m.u.refuse.job_id = job_id;
    m.u.refuse.code = (msg_code_t)code;
    snprintf(m.u.refuse.reason, sizeof m.u.refuse.reason, "%s", reason);
    s->refused++;
    s_send(s, &m);
}

/* A TASK: checked and counted by the worker's perft row, here and now, then answered. */
static void s_on_task(session_t *s, msg_t *m)
{
    char reason[MSG_TEXT_MAX];
    compute_job_t job = {.kind = &WPERFT_KIND};
    if (s->state != SESSION_ACTIVE) {
        s->dropped++;
        return;
    }
    int code = WPERFT_KIND.prepare(NULL, m, 0, &job, reason, sizeof reason);
    if (code == 0 && !s->credit_out) {
        code = MSG_CODE_NO_CREDIT;
        snprintf(reason, sizeof reason, "task beyond the credit given");
    }
    s->credit_out = false;
    if (code != 0) {
        free(job.arg);
        s_refuse(s, job.task_id, job.job_id, code, reason);
        return;
    }
    int64_t t0 = session_now();
    wkind_env_t env = {.shared = NULL, .hash_each = 0, .thread = &s->thread_state};
    compute_done_t d = {.kind = &WPERFT_KIND, .task_id = job.task_id, .job_id = job.job_id};
    d.result = WPERFT_KIND.run(&job, &env);
    d.elapsed_ms = (uint64_t)(session_now() - t0);
    free(job.arg);
    code = WPERFT_KIND.answer(NULL, &d, false, m, reason, sizeof reason); /* m is done with: reused for the answer */
    free(d.result);
    if (code != 0) {
        s_refuse(s, d.task_id, d.job_id, code, reason);
        return;
    }
    s_send(s, m);
    s->answered++;
}

static void s_on_error(session_t *s, const msg_error_t *e)
{
    char text[MSG_TEXT_MAX];
    uint32_t lower = e->code == MSG_CODE_VERSION ? whello_fallback(s->version, s->state == SESSION_HELLO) : 0;
    if (lower != 0) {
        s->version = lower; /* an older coordinator (PROTOCOL.md 12.1) */
        s_hello(s);
        return;
    }
    if (e->code == MSG_CODE_NOT_WELCOME && s->state == SESSION_ACTIVE) {
        s->state = SESSION_HELLO; /* the coordinator forgot this session: start over */
        s->credit_out = false;
        s_hello(s);
        return;
    }
    s_log(s, "coordinator says error %u: %s; this session ends", e->code, log_clean(e->text, text, sizeof text));
    s->state = SESSION_ENDED;
    s->lost = true;
}

static void s_on_message(session_t *s, msg_t *m)
{
    switch (m->type) {
    case MSG_WELCOME:
        s->hb_ms = m->u.welcome.heartbeat_ms > 0 ? m->u.welcome.heartbeat_ms : DEFAULT_HEARTBEAT_MS;
        s->liveness = m->u.welcome.liveness;
        if (s->state == SESSION_HELLO)
            s->state = SESSION_ACTIVE;
        s->welcomed = true;
        break;
    case MSG_TASK: s_on_task(s, m); break;
    case MSG_HEARTBEAT: break;
    case MSG_BYE: s->state = SESSION_ENDED; break;
    case MSG_ERROR: s_on_error(s, &m->u.error); break;
    default: s->dropped++; break; /* the swarm takes perft jobs only */
    }
}

void session_read(session_t *s)
{
    char err[256];
    msg_t m;
    while (s->state == SESSION_HELLO || s->state == SESSION_ACTIVE) {
        int rc = wire_recv(s->sock, &m, NULL, ZMQ_DONTWAIT, err, sizeof err); /* perft has no bulk fields */
        if (rc == MSG_ETRANSPORT)
            break;
        if (rc != MSG_OK) {
            if (s->dropped++ == 0)
                s_log(s, "dropped a message: %s", err);
            continue;
        }
        s->last_recv = session_now();
        s_on_message(s, &m);
    }
    s_credit(s);
}

/* Ends s as lost, saying why. */
static void s_lose(session_t *s, const char *why)
{
    s_log(s, "%s; this session ends", why);
    s->state = SESSION_ENDED;
    s->lost = true;
}

int64_t session_tick(session_t *s, int64_t now)
{
    int64_t silent = 2 * (int64_t)s->hb_ms * s->liveness;
    silent = silent > SESSION_SILENT_MIN_MS ? silent : SESSION_SILENT_MIN_MS;
    if (s->state == SESSION_HELLO && now - s->opened > SESSION_HELLO_WAIT_MS)
        s_lose(s, "no WELCOME from the coordinator");
    else if (s->state == SESSION_ACTIVE && now - s->last_recv > silent)
        s_lose(s, "the coordinator is silent");
    if (s->state == SESSION_HELLO)
        return s->opened + SESSION_HELLO_WAIT_MS + 1 - now;
    if (s->state != SESSION_ACTIVE)
        return INT64_MAX;
    if (now - s->last_send >= s->hb_ms) {
        msg_t m;
        msg_init(&m, MSG_HEARTBEAT);
        s_send(s, &m);
    }
    int64_t next = s->last_send + s->hb_ms - now;
    return next > 0 ? next : 0;
}

int session_open(session_t *s, void *ctx, const char *endpoint, const char *name, char *err, size_t errlen)
{
    int linger = 0;
    *s = (session_t){.state = SESSION_HELLO, .version = MSG_VERSION_MAX, .hb_ms = DEFAULT_HEARTBEAT_MS, .liveness = 3};
    s->opened = s->last_recv = session_now();
    snprintf(s->name, sizeof s->name, "%s", name);
    s->sock = zmq_socket(ctx, ZMQ_DEALER);
    if (s->sock == NULL) {
        snprintf(err, errlen, "session %s: zmq_socket: %s", s->name, zmq_strerror(errno));
        return -1;
    }
    zmq_setsockopt(s->sock, ZMQ_LINGER, &linger, sizeof linger);
    if (wire_limit_frames(s->sock) != 0 || zmq_connect(s->sock, endpoint) != 0) {
        snprintf(err, errlen, "session %s: cannot connect to %s: %s", s->name, endpoint, zmq_strerror(errno));
        return -1;
    }
    s_hello(s);
    return 0;
}

void session_vanish(session_t *s)
{
    if (s->state == SESSION_HELLO || s->state == SESSION_ACTIVE)
        s->state = SESSION_VANISHED;
}

void session_close(session_t *s)
{
    if (s->sock != NULL)
        zmq_close(s->sock);
    s->sock = NULL;
    if (WPERFT_KIND.thread_free != NULL)
        WPERFT_KIND.thread_free(&s->thread_state);
}
