/* worker.c: the worker's I/O thread: session, heartbeats, reconnects, results (see worker.h; credit
 * and task intake: worker_tasks.c). */
#include "worker.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

#include "compute.h"
#include "exit_codes.h"
#include "exit_deadline.h"
#include "log_line.h"
#include "wire.h"
#include "whello.h"
#include "wkind.h"
#include "status_http.h"
#include "wstatus.h"
#include "worker_priv.h"
#if OCTAD_HAVE_CURVE
#include "curve.h"
#endif

enum {
    DEFAULT_HEARTBEAT_MS = 1000,
    DEFAULT_LIVENESS = 3,
    BACKOFF_MIN_MS = 250,
    /* An attempt sends its SYN at once and again 1 s later, and gives up after the liveness (3 s)
     * without WELCOME; with at most 1 s between attempts a link that heals is tried within 3 s,
     * inside the coordinator's lease (docs/bad-networks.md). It was 5 s: up to 7 s without a try. */
    BACKOFF_MAX_MS = 1000,
    HANDBACK_CAP = MSG_HANDBACK_MAX,
    FLUSH_MS = 50,           /* finished results wait at most about this long */
    EXIT_WAIT_MS = 3000      /* closing the session (hand-back included) gets at most this long */
};

/* The process's CPU time (user and system, every thread) in milliseconds. */
static uint64_t s_cpu_ms(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void s_send_hello(s_worker_t *w)
{
    msg_t m;
    whello_hello(&m, w->version, w->opts->name, (uint32_t)w->capacity, (uint32_t)w->opts->hash_mb);
    worker_send(w, &m);
}

/* Opens a fresh DEALER (new identity), connects it and says HELLO. */
static int s_connect(s_worker_t *w)
{
    int linger = 0, ivl = 100, ivl_max = 5000;
    w->sock = zmq_socket(w->ctx, ZMQ_DEALER);
    if (w->sock == NULL)
        return -1;
    zmq_setsockopt(w->sock, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(w->sock, ZMQ_RECONNECT_IVL, &ivl, sizeof ivl);
    zmq_setsockopt(w->sock, ZMQ_RECONNECT_IVL_MAX, &ivl_max, sizeof ivl_max);
    wire_limit_frames(w->sock); /* a frame beyond the protocol's 64 KiB drops the connection unread */
    wire_keepalive(w->sock);    /* a coordinator gone without a reset frees the connection (wire.h) */
    int ipv6 = strncmp(w->opts->endpoint, "tcp://[", 7) == 0;
    zmq_setsockopt(w->sock, ZMQ_IPV6, &ipv6, sizeof ipv6);
#if OCTAD_HAVE_CURVE
    if (w->curve && curve_client_setup(w->sock, &w->keys, w->server_pub) != 0) {
        worker_log(w, true, "cannot set the CURVE keys on the socket");
        return -1;
    }
#endif
    if (zmq_connect(w->sock, w->opts->endpoint) != 0) {
        worker_log(w, true, "cannot connect to %s: %s", w->opts->endpoint, zmq_strerror(errno));
        return -1;
    }
    w->gen++;
    w->state = S_HELLO;
    w->state_since = w->last_recv = worker_now();
    w->credit_out = 0;
    s_send_hello(w);
    return 0;
}

/* Forgets the session: queued tasks are dropped, running ones finish unreported. */
static void s_forget_session(s_worker_t *w)
{
    compute_drop_queued(w->compute);
    if (w->holding)
        free(w->held.arg);
    w->holding = false;
    for (int k = 0; k < WKIND_NB; k++)
        if (w->kind_state[k] && WKINDS[k]->reset)
            WKINDS[k]->reset(w->kind_state[k]);
    w->gen++;
    w->credit_out = 0;
}

/* Closes the socket and schedules a reconnect after the backoff. */
static void s_disconnect(s_worker_t *w, const char *why)
{
    worker_log(w, false, "%s; reconnecting in %lld ms", why, (long long)w->backoff_ms);
    if (w->state == S_ACTIVE)
        w->lost_at = worker_now();
    s_forget_session(w);
    if (w->sock)
        zmq_close(w->sock);
    w->sock = NULL;
    w->state = S_WAITING;
    w->reconnect_at = worker_now() + w->backoff_ms;
    w->backoff_ms = w->backoff_ms * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : w->backoff_ms * 2;
}

static void s_on_welcome(s_worker_t *w, const msg_welcome_t *m)
{
    w->hb_ms = m->heartbeat_ms;
    w->liveness = m->liveness;
    w->job_id = m->job_id;
    if (w->state == S_HELLO) {
        w->cpu_base_ms = s_cpu_ms();
        w->sessions++;
        w->state = S_ACTIVE;
        w->backoff_ms = BACKOFF_MIN_MS;
        worker_log(w, false, "welcomed (job %llu, heartbeat %u ms)", (unsigned long long)m->job_id, m->heartbeat_ms);
    }
}

static void s_on_error(s_worker_t *w, const msg_error_t *m)
{
    char text[MSG_TEXT_MAX];
    uint32_t lower = m->code == MSG_CODE_VERSION ? whello_fallback(w->version, w->state == S_HELLO) : 0;
    if (lower != 0) {
        /* An older coordinator (PROTOCOL.md 11.1, 12.1): say HELLO again one version lower. */
        worker_log(w, true, "the coordinator does not take OCTP/%u: trying OCTP/%u (%s)", w->version, lower,
              log_clean(m->text, text, sizeof text));
        w->version = lower;
        w->state_since = worker_now();
        s_send_hello(w);
        return;
    }
    worker_log(w, true, "coordinator says error %u: %s", m->code, log_clean(m->text, text, sizeof text));
    if (m->code == MSG_CODE_VERSION) {
        w->done = true;
        w->exit_code = EXIT_FAIL;
    } else if (m->code == MSG_CODE_NOT_WELCOME) {
        /* The coordinator forgot us (e.g. we were stopped past our liveness): start over. */
        if (w->state == S_ACTIVE)
            w->lost_at = worker_now();
        s_forget_session(w);
        w->state = S_HELLO;
        w->state_since = worker_now();
        s_send_hello(w);
    }
}

static void s_on_bye(s_worker_t *w, const msg_bye_t *m)
{
    char reason[MSG_TEXT_MAX];
    worker_log(w, false, "coordinator says bye: %s", log_clean(m->reason, reason, sizeof reason));
    if (w->opts->once) {
        w->done = true;
        return;
    }
    w->backoff_ms = BACKOFF_MIN_MS;
    s_disconnect(w, "session closed by the coordinator");
}

static void s_on_message(s_worker_t *w, const msg_t *m)
{
    if (w->state == S_ACTIVE && m->version != w->version) {
        w->unexpected_nb++; /* another version than the session's (PROTOCOL.md 11.1) */
        return;
    }
    bool task;
    const wkind_t *kind = wkind_find(m->type, &task);
    if (kind != NULL) {
        worker_on_kind_message(w, kind, task, m);
        return;
    }
    switch (m->type) {
    case MSG_WELCOME: s_on_welcome(w, &m->u.welcome); break;
    case MSG_HEARTBEAT: break;
    case MSG_BYE: s_on_bye(w, &m->u.bye); break;
    case MSG_ERROR: s_on_error(w, &m->u.error); break;
    default: w->unexpected_nb++; break;
    }
}

/* Tells the coordinator we do not speak its version, then stops. */
static void s_version_mismatch(s_worker_t *w, const char *err)
{
    msg_t m;
    whello_version_error(&m, w->version);
    worker_send(w, &m);
    worker_log(w, true, "coordinator speaks another protocol version (%s); exiting", err);
    w->done = true;
    w->exit_code = EXIT_FAIL;
}

static void s_read_socket(s_worker_t *w)
{
    char err[256];
    msg_t m;
    msg_bulk_t bulk = msg_bulk_of(w->rx_bulk); /* each message is handled before the next is read */
    while (w->sock != NULL && !w->done) {
        int rc = wire_recv(w->sock, &m, &bulk, ZMQ_DONTWAIT, err, sizeof err);
        if (rc == MSG_ETRANSPORT)
            break;
        w->last_recv = worker_now();
        if (rc == MSG_EVERSION) {
            s_version_mismatch(w, err);
        } else if (rc != MSG_OK) {
            if (w->bad_nb++ == 0)
                worker_log(w, true, "dropped a malformed message: %s", err);
        } else {
            s_on_message(w, &m);
        }
    }
}

/* Sends RESULTs of the current session (results of older sessions are
 * dropped): when a compute thread woke us (woken), else only once results
 * have been held FLUSH_MS, so the timer does not split a batch. */
static void s_read_results(s_worker_t *w, bool woken)
{
    char buf[64];
    int64_t now = worker_now();
    if (!woken && now - w->last_flush < FLUSH_MS)
        return;
    w->last_flush = now;
    while (read(w->wake_rd, buf, sizeof buf) > 0)
        ;
    compute_done_t d;
    bool usage_sent = false;
    while (compute_take(w->compute, &d)) {
        if (d.gen != w->gen || w->state != S_ACTIVE) {
            free(d.result);
            continue;
        }
        if (!usage_sent && w->version >= 4) { /* the CPU time so far, before the answers it covers */
            msg_t u;
            msg_init(&u, MSG_USAGE);
            u.u.usage.cpu_ms = s_cpu_ms() - w->cpu_base_ms;
            worker_send(w, &u);
            usage_sent = true;
        }
        msg_t m;
        char reason[MSG_TEXT_MAX];
        bool perturb = w->opts->inject_fault > 0 && ++w->result_nb % w->opts->inject_fault == 0;
        int code = d.kind->answer(w->kind_state[wkind_index(d.kind)], &d, perturb, &m, reason, sizeof reason);
        if (code != 0) {
            worker_refuse(w, d.task_id, d.job_id, (msg_code_t)code, reason);
        } else {
            worker_send(w, &m);
            wstatus_answered(w->status);
        }
        free(d.result); /* after the send: the answer's bulk fields may point into it */
    }
}

/* --http: the worker's figures, every 250 ms (final: at the end). */
static void s_publish_status(s_worker_t *w, bool final)
{
    static const char *const names[] = {[S_WAITING] = "connecting", [S_HELLO] = "hello", [S_ACTIVE] = "active"};
    wstatus_now_t now = {.state = names[w->state], .protocol = w->version, .sessions = w->sessions,
                         .busy = compute_busy(w->compute)};
    wstatus_publish(w->status, &now, final);
}

/* With CURVE, a coordinator that never answers HELLO has most likely refused
 * this worker's key: say so once, naming the key by its fingerprint. */
static void s_curve_hint(s_worker_t *w)
{
#if OCTAD_HAVE_CURVE
    if (!w->curve || w->curve_hinted)
        return;
    char fp[CURVE_FINGERPRINT_MAX];
    curve_fingerprint(w->keys.public_z85, fp);
    worker_log(w, true, "no WELCOME over CURVE: the coordinator probably refused this worker's key (fingerprint %s): "
          "is this worker's .pub in its --allow list, and is --server-key the coordinator's public key?", fp);
    w->curve_hinted = true;
#else
    (void)w;
#endif
}

/* --once: a session was lost and none welcomed since, for once_wait_s: the job most likely
 * ended while this worker could not hear its BYE (stopped past its liveness, cut off), and
 * the coordinator is gone; retrying forever would never end. True when it gives up. */
static bool s_once_gives_up(s_worker_t *w, int64_t now)
{
    if (!w->opts->once || w->sessions == 0 || w->state == S_ACTIVE ||
        now - w->lost_at < (int64_t)w->opts->once_wait_s * 1000)
        return false;
    worker_log(w, true,
               "--once: no session with the coordinator for %d s since the last one was lost; the job most "
               "likely ended without this worker hearing its BYE: giving up (exit %d)",
               w->opts->once_wait_s, EXIT_NO_COORDINATOR);
    w->done = true;
    w->exit_code = EXIT_NO_COORDINATOR;
    return true;
}

/* Heartbeats, the coordinator's liveness and the reconnect schedule. */
static void s_timers(s_worker_t *w)
{
    int64_t now = worker_now();
    int64_t dead_after = (int64_t)w->hb_ms * w->liveness;
    if (s_once_gives_up(w, now))
        return;
    if (w->state == S_WAITING) {
        if (now >= w->reconnect_at && s_connect(w) != 0) {
            w->done = true;
            w->exit_code = EXIT_FAIL;
        }
        return;
    }
    if (now - w->last_recv > dead_after) {
        if (w->state == S_HELLO)
            s_curve_hint(w);
        s_disconnect(w, w->state == S_HELLO ? "no WELCOME from the coordinator" : "coordinator silent");
        return;
    }
    if (w->state == S_ACTIVE && now - w->last_send >= w->hb_ms) {
        msg_t m;
        msg_init(&m, MSG_HEARTBEAT);
        worker_send(w, &m);
    }
}

static long s_poll_timeout(const s_worker_t *w)
{
    int64_t now = worker_now();
    int64_t next = w->state == S_WAITING ? w->reconnect_at
                                         : w->last_recv + (int64_t)w->hb_ms * w->liveness + 1;
    if (w->state == S_ACTIVE && w->last_send + w->hb_ms < next)
        next = w->last_send + w->hb_ms;
    if (w->state == S_ACTIVE && compute_busy(w->compute) > 0 && w->last_flush + FLUSH_MS < next)
        next = w->last_flush + FLUSH_MS; /* results held for a batch go out at least this often */
    if (w->opts->once && w->sessions > 0 && w->state != S_ACTIVE &&
        w->lost_at + (int64_t)w->opts->once_wait_s * 1000 < next)
        next = w->lost_at + (int64_t)w->opts->once_wait_s * 1000; /* --once gives up on time */
    return next <= now ? 0 : (long)(next - now);
}

/* SIGTERM/SIGINT: hand back every task of this session, say BYE. */
static void s_shutdown(s_worker_t *w)
{
    if (w->state != S_ACTIVE)
        return;
    uint64_t ids[HANDBACK_CAP];
    size_t n = compute_ids(w->compute, w->gen, ids, HANDBACK_CAP);
    if (w->holding && n < HANDBACK_CAP)
        ids[n++] = w->held.task_id;
    msg_t m;
    msg_init(&m, MSG_HANDBACK);
    m.u.handback.n_task_ids = (uint32_t)n;
    m.u.handback.task_ids = ids;
    compute_drop_queued(w->compute);
    worker_send(w, &m);
    msg_init(&m, MSG_BYE);
    snprintf(m.u.bye.reason, sizeof m.u.bye.reason, "worker shutting down");
    worker_send(w, &m);
    int linger = 1000;
    zmq_setsockopt(w->sock, ZMQ_LINGER, &linger, sizeof linger);
}

static void s_loop(s_worker_t *w, int stop_fd)
{
    while (!w->done) {
        zmq_pollitem_t items[3] = {
            {.fd = stop_fd, .events = ZMQ_POLLIN},
            {.fd = w->wake_rd, .events = ZMQ_POLLIN},
            {.socket = w->sock, .events = ZMQ_POLLIN},
        };
        int n = w->sock ? 3 : 2;
        if (zmq_poll(items, n, s_poll_timeout(w)) < 0 && errno != EINTR)
            break;
        if (items[0].revents & ZMQ_POLLIN) {
            worker_log(w, false, "stopping: handing back unfinished tasks");
            s_shutdown(w);
            break;
        }
        s_read_results(w, (items[1].revents & ZMQ_POLLIN) != 0); /* woken, or their FLUSH_MS is up */
        if (n == 3 && (items[2].revents & ZMQ_POLLIN))
            s_read_socket(w);
        if (!w->done)
            s_timers(w);
        if (!w->done)
            worker_top_up(w);
        s_publish_status(w, w->done);
    }
}

static void s_kind_send(void *ctx, const msg_t *m)
{
    worker_send(ctx, (msg_t *)m);
}

static void s_kind_log(void *ctx, bool always, const char *text)
{
    worker_log(ctx, always, "%s", text);
}

static int s_setup(s_worker_t *w, const worker_opts_t *opts, char *err, size_t errlen)
{
    int fds[2];
    w->opts = opts;
    w->hb_ms = DEFAULT_HEARTBEAT_MS;
    w->liveness = DEFAULT_LIVENESS;
    w->backoff_ms = BACKOFF_MIN_MS;
    w->capacity = opts->threads + opts->prefetch;
    w->wake_rd = w->wake_wr = -1;
    if ((w->rx_bulk = malloc(sizeof *w->rx_bulk)) == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    w->wake_rd = fds[0];
    w->wake_wr = fds[1];
    /* Results go back in batches, the next one asked for when a quarter of
     * the prefetch is left (PROTOCOL.md section 6): fewer wake-ups on both
     * sides, and the refill arrives before a thread runs dry. */
    size_t low_water = (size_t)(opts->prefetch + 3) / 4;
    w->compute = compute_new(WKINDS, WKIND_NB, opts->threads, opts->hash_mb << 20, w->wake_wr, low_water, err, errlen);
    if (w->compute == NULL)
        return -1;
    w->version = (uint32_t)opts->protocol;
    wkind_io_t io = {.opts = opts, .send = s_kind_send, .log = s_kind_log, .ctx = w};
    for (int k = 0; k < WKIND_NB; k++) { /* a session never rises above opts->protocol */
        const wkind_t *kind = WKINDS[k];
        if (kind->open && kind->version <= w->version && kind->open(&io, &w->kind_state[k], err, errlen) != 0)
            return -1;
    }
    wstatus_opts_t wo = {.http = opts->http, .name = opts->name, .endpoint = opts->endpoint,
                         .threads = opts->threads, .prefetch = opts->prefetch};
    if (opts->http != NULL && (w->status = wstatus_new(&wo)) == NULL) {
        snprintf(err, errlen, "--http: out of memory");
        return -1;
    }
    if (w->status != NULL) { /* served before it is announced: /status always has every field */
        s_publish_status(w, true);
        log_say(LOG_INFO, opts->name, "status on http://%s:%d/ (a page; /status, /metrics)", opts->http_text,
                status_http_port(opts->http));
    }
    w->ctx = zmq_ctx_new();
    if (w->ctx == NULL) {
        snprintf(err, errlen, "zmq_ctx_new: %s", zmq_strerror(errno));
        return -1;
    }
    return 0;
}

int worker_run(const worker_opts_t *opts, int stop_fd)
{
    s_worker_t w = {0};
    char err[256];
    if (s_setup(&w, opts, err, sizeof err) != 0) {
        worker_log(&w, true, "cannot start: %s", err);
        w.exit_code = EXIT_FAIL;
        goto done;
    }
#if OCTAD_HAVE_CURVE
    if (opts->server_key_file != NULL) {
        w.curve = true;
        if (curve_public_read(opts->server_key_file, w.server_pub, err, sizeof err) != 0 ||
            curve_keys_read(opts->secret_file, &w.keys, err, sizeof err) != 0) {
            worker_log(&w, true, "%s", err);
            w.exit_code = EXIT_USAGE;
            goto done;
        }
    }
#else
    (void)err;
#endif
    if (s_connect(&w) != 0) {
        w.exit_code = EXIT_FAIL;
        goto done;
    }
    s_loop(&w, stop_fd);
    exit_deadline_arm(w.exit_code, opts->name, EXIT_WAIT_MS);
    if (w.bad_nb || w.unexpected_nb)
        worker_log(&w, false, "dropped %llu malformed and %llu unexpected messages",
              (unsigned long long)w.bad_nb, (unsigned long long)w.unexpected_nb);
done:
    if (w.sock)
        zmq_close(w.sock);
    if (w.ctx)
        zmq_ctx_term(w.ctx);
    /* Running perfts cannot be interrupted: joining would wait for them, so a
     * stop leaves the threads to exit with the process. */
    if (w.compute && compute_busy(w.compute) == 0)
        compute_destroy(&w.compute);
    if (w.holding)
        free(w.held.arg);
    for (int k = 0; k < WKIND_NB; k++)
        if (WKINDS[k]->close)
            WKINDS[k]->close(&w.kind_state[k], w.compute != NULL); /* a task may still run */
    wstatus_destroy(&w.status);
    free(w.rx_bulk);
    if (w.wake_rd >= 0)
        close(w.wake_rd);
    return w.exit_code;
}
