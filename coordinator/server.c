/* server.c: the coordinator's socket, event loop, timers and dispatch (see server.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

#include "log_line.h"
#include "report.h"
#include "server_link.h"
#include "server_priv.h"
#include "server_stall.h"
#if OCTAD_HAVE_CURVE
#include "curve.h"
#endif

enum { POLL_MIN_MS = 20, POLL_MAX_MS = 250, TIMERS_EVERY_MS = 20, EXPIRE_EVERY_MS = 50, TTY_PROGRESS_MS = 250,
       LOG_PROGRESS_MS = 5000, HELLO_ONLY_MS = 2000 };

/* How long the loop may sleep without a message: a quarter of a heartbeat
 * (so heartbeats and liveness keep their schedule), within 20..250 ms. Every
 * wake-up costs CPU (a cold cache on a machine busy with perft). */
static int s_poll_ms(const server_t *self)
{
    int ms = (int)(self->opts->heartbeat_ms / 4);
    return ms < POLL_MIN_MS ? POLL_MIN_MS : ms > POLL_MAX_MS ? POLL_MAX_MS : ms;
}

int64_t server_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void s_vlog(const char *fmt, va_list ap)
{
    log_line("coordinator: ", fmt, ap);
}

void server_log(const server_t *self, const char *fmt, ...)
{
    if (self->opts->quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    report_clear_line();
    s_vlog(fmt, ap);
    va_end(ap);
}

void server_error(const server_t *self, const char *fmt, ...)
{
    (void)self;
    va_list ap;
    va_start(ap, fmt);
    report_clear_line();
    s_vlog(fmt, ap);
    va_end(ap);
}

void server_fail(server_t *self, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_clear_line();
    s_vlog(fmt, ap);
    va_end(ap);
    self->failed = true;
}

void server_drop(server_t *self, drop_kind_t kind, const char *why)
{
    static const char *const names[DROP_KIND_NB] = {"malformed", "version", "no session", "unexpected",
                                                    "other job", "not leased", "bad result", "credit",
                                                    "table full"};
    if (self->drops[kind]++ == 0)
        server_log(self, "dropped a message (%s): %s (further ones are only counted)", names[kind], why);
    self->sum.dropped++;
}

int server_send(server_t *self, const wire_peer_t *to, const msg_t *msg)
{
    char err[256];
    peer_t *p = peers_find(self->peers, to);
    /* An OCTP/1 type in an OCTP/2 session goes out as version 2 (PROTOCOL.md 11.1). */
    uint32_t version = p != NULL && msg->version < p->version ? p->version : msg->version;
    int rc = wire_send_to_as(self->router, to, msg, version, ZMQ_DONTWAIT, err, sizeof err);
    if (rc != MSG_OK)
        return -1;
    if (p != NULL)
        p->last_send = server_now_ms();
    return 0;
}

void server_forget(server_t *self, peer_t *peer, const char *why)
{
    size_t n = self->solve ? server_solve_forget(self, peer) : sched_drop_serial(self->sched, peer->serial);
    self->sum.requeued += n;
    if (peer->credited || n > 0) /* sessions that never asked for work come and go silently */
        server_log(self, "worker %s left (%s); %zu tasks back in the queue", peer->name, why, n);
    peers_remove(self->peers, peer);
}

static void s_task_msg(const server_t *self, size_t i, msg_t *m)
{
    if (self->analyse != NULL) {
        server_analyse_task(self, i, m);
        return;
    }
    msg_init(m, MSG_TASK);
    m->u.task.task_id = (uint64_t)i + 1;
    m->u.task.job_id = self->job->job_id;
    snprintf(m->u.task.variant, sizeof m->u.task.variant, "%s", game_variant_name(self->job->root.variant));
    job_task_text(self->job, i, m->u.task.position, sizeof m->u.task.position);
    m->u.task.depth = (uint8_t)job_task_depth(self->job, i);
    m->u.task.want_stats = self->job->stats;
    m->u.task.lease_ms = self->opts->lease_ms;
}

void server_dispatch(server_t *self, peer_t *p)
{
    if (self->solve != NULL) {
        server_solve_dispatch(self, p);
        return;
    }
    int64_t now = server_now_ms();
    msg_t m;
    while (p->credit > 0 && !self->failed) {
        long i = sched_next(self->sched, p->serial, p->name_id, now + self->opts->lease_ms);
        if (i < 0)
            return;
        s_task_msg(self, (size_t)i, &m);
        if (server_send(self, &p->id, &m) != 0) {
            sched_handback(self->sched, (size_t)i, p->serial);
            if (errno == EHOSTUNREACH)
                server_forget(self, p, "unreachable");
            return;
        }
        server_count_dispatch(self, p, now);
    }
}

void server_count_dispatch(server_t *self, peer_t *p, int64_t now)
{
    if (self->first_dispatch_ms == 0)
        self->first_dispatch_ms = now;
    peers_pin(self->peers, p->name_id);
    p->credit--;
    p->leased++;
    self->sum.dispatched++;
}

static void s_dispatch_all(server_t *self)
{
    for (size_t k = 0; k < peers_cap(self->peers) && (self->solve || sched_queued_nb(self->sched) > 0); k++) {
        peer_t *p = peers_at(self->peers, k);
        if (p->used && p->credit > 0)
            server_dispatch(self, p);
    }
}

/* Liveness and heartbeats of every worker. */
static void s_peer_timers(server_t *self, int64_t now)
{
    int64_t dead_after = (int64_t)self->opts->heartbeat_ms * self->opts->liveness;
    msg_t hb;
    msg_init(&hb, MSG_HEARTBEAT);
    for (size_t k = 0; k < peers_cap(self->peers); k++) {
        peer_t *p = peers_at(self->peers, k);
        if (!p->used)
            continue;
        if (now - p->last_recv > dead_after) {
            server_forget(self, p, "silent past its liveness");
            continue;
        }
        if (!p->credited && now - p->since > HELLO_ONLY_MS) {
            server_forget(self, p, "asked for no task after its HELLO");
            continue;
        }
        if (now - p->last_send >= self->opts->heartbeat_ms)
            server_send(self, &p->id, &hb);
    }
}

static void s_progress(server_t *self, int64_t now)
{
    if (self->opts->quiet || now < self->next_progress_ms)
        return;
    bool tty = report_is_tty();
    self->next_progress_ms = now + (tty ? TTY_PROGRESS_MS : LOG_PROGRESS_MS);
    report_progress_t pr = {.done = sched_done_nb(self->sched), .total = self->job->task_nb,
                            .loaded = self->sum.loaded, .nodes = self->nodes_done,
                            .seconds = (double)(now - self->start_ms) / 1000.0,
                            .workers = peers_count(self->peers), .tty = tty};
    report_progress(&pr);
}

/* Logs CURVE clients the ZAP handler refused, by key fingerprint (never the key). */
static void s_log_refused_keys(server_t *self)
{
#if OCTAD_HAVE_CURVE
    enum { SHOWN = 4, LOGGED_MAX = 50 };
    char fp[SHOWN][CURVE_FINGERPRINT_MAX];
    if (self->zap == NULL)
        return;
    size_t n = curve_auth_take_refused(self->zap, fp, SHOWN);
    for (size_t k = 0; k < n && k < SHOWN && self->refused_logged < LOGGED_MAX; k++, self->refused_logged++)
        server_error(self, "refused a CURVE client with key fingerprint %s: not in the --allow list%s", fp[k],
                     self->refused_logged + 1 == LOGGED_MAX ? " (further refusals are not logged)" : "");
#else
    (void)self;
#endif
}

static void s_timers(server_t *self, spawn_t *spawn, int64_t now)
{
    if (now < self->next_timers_ms)
        return; /* under load, messages wake the loop thousands of times a second */
    self->next_timers_ms = now + TIMERS_EVERY_MS;
    s_peer_timers(self, now);
    s_log_refused_keys(self);
    if (self->solve != NULL && now >= self->next_expire_ms) {
        server_solve_timers(self, now);
        self->next_expire_ms = now + EXPIRE_EVERY_MS;
    }
    if (self->solve == NULL && now >= self->next_expire_ms) {
        size_t n = sched_expire(self->sched, now);
        if (n > 0)
            server_log(self, "%zu leases expired; tasks back in the queue", n);
        self->sum.requeued += n;
        self->next_expire_ms = now + EXPIRE_EVERY_MS;
    }
    if (self->opts->verify && !self->verify_waiting_logged && peers_names_alive(self->peers) < 2 &&
        now - self->start_ms > 2000) {
        server_error(self, "verify: %zu worker(s) connected; waiting for a second one", peers_names_alive(self->peers));
        self->verify_waiting_logged = true;
    }
    if (spawn != NULL && self->opts->bind == NULL && spawn_reap(spawn) == 0 && peers_count(self->peers) == 0)
        server_fail(self, "every local worker has exited and no remote worker can join (no --bind)");
    if (self->solve == NULL) {
        server_stall_check(self, now);
        s_progress(self, now);
    }
}

int server_run(server_t *self, spawn_t *spawn, int stop_fd)
{
    self->start_ms = server_now_ms();
    while (!self->failed && (self->solve ? !ssolve_finished(self->solve)
                                         : sched_done_nb(self->sched) < self->job->task_nb)) {
        zmq_pollitem_t items[2] = {{.socket = self->router, .events = ZMQ_POLLIN},
                                   {.fd = stop_fd, .events = ZMQ_POLLIN}};
        if (zmq_poll(items, 2, s_poll_ms(self)) < 0 && errno != EINTR) {
            server_fail(self, "zmq_poll: %s", zmq_strerror(errno));
            break;
        }
        if (items[1].revents & ZMQ_POLLIN) {
            if (self->solve)
                server_fail(self, "interrupted; %d of %d pairs done (kept in %s)", self->solve->g.done,
                            self->solve->g.n, self->solve->dir);
            else
                server_fail(self, "interrupted; %zu of %zu tasks done%s", sched_done_nb(self->sched),
                            self->job->task_nb, self->journal ? " (journaled)" : "");
            break;
        }
        if (items[0].revents & ZMQ_POLLIN)
            server_read(self);
        s_timers(self, spawn, server_now_ms());
        s_dispatch_all(self);
    }
    if (!self->opts->quiet)
        report_clear_line();
    self->sum.seconds = (double)(server_now_ms() - self->start_ms) / 1000.0;
    if (self->first_dispatch_ms > 0 && self->last_result_ms >= self->first_dispatch_ms)
        self->sum.dispatch_seconds = (double)(self->last_result_ms - self->first_dispatch_ms) / 1000.0;
    return !self->failed ? 0 : self->end_code != 0 ? self->end_code : 1;
}

void server_summary(const server_t *self, server_summary_t *out)
{
    struct rusage ru;
    *out = self->sum;
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        out->cpu_seconds = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
                           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

/* Makes a wildcard bind (0.0.0.0, star, [::]) reachable from this machine: loopback. */
static void s_local_endpoint(const char *bound, char *out, size_t len)
{
    const char *wild[] = {"tcp://0.0.0.0:", "tcp://*:", "tcp://[::]:"};
    for (size_t k = 0; k < 3; k++)
        if (strncmp(bound, wild[k], strlen(wild[k])) == 0) {
            snprintf(out, len, "tcp://127.0.0.1:%s", bound + strlen(wild[k]));
            return;
        }
    snprintf(out, len, "%s", bound);
}

#if OCTAD_HAVE_CURVE
/* Reads the keys and allow-lists, starts the ZAP handler, makes the ROUTER a CURVE server. */
static int s_curve(server_t *self, char *err, size_t errlen)
{
    curve_keys_t keys;
    curve_allow_t allow = {0};
    int rc = -1;
    if (!curve_available()) {
        snprintf(err, errlen, "--curve-secret: this libzmq has no CURVE support");
        return -1;
    }
    if (curve_keys_read(self->opts->curve_secret, &keys, err, errlen) != 0)
        return -1;
    for (int k = 0; k < self->opts->allow_nb; k++)
        if (curve_allow_read(&allow, self->opts->allow[k], err, errlen) != 0)
            goto done;
    if (allow.nb == 0) {
        snprintf(err, errlen, "--allow %.200s%s: no key in the allow-list, so no worker could join",
                 self->opts->allow[0], self->opts->allow_nb > 1 ? " ..." : "");
        goto done;
    }
    self->zap = curve_auth_new(self->ctx, &allow, err, errlen);
    if (self->zap == NULL)
        goto done;
    if (curve_server_setup(self->router, &keys) != 0) {
        snprintf(err, errlen, "CURVE server setup: %s", zmq_strerror(errno));
        goto done;
    }
    rc = 0;
done:
    curve_allow_free(&allow);
    return rc;
}
#endif

static int s_open(server_t *self, char *err, size_t errlen, bool *usage)
{
    int one = 1, linger = 200, hwm = 100000;
    const char *ep = self->opts->bind ? self->opts->bind : "a local socket";
    char named[300];
    if (strncmp(ep, "tcp://localhost:", 16) == 0) { /* zmq_bind takes addresses and interfaces, not names */
        snprintf(named, sizeof named, "tcp://127.0.0.1:%s", ep + 16);
        ep = named;
    }
    self->router = zmq_socket(self->ctx, ZMQ_ROUTER);
    if (self->router == NULL) {
        snprintf(err, errlen, "zmq_socket: %s", zmq_strerror(errno));
        return -1;
    }
    zmq_setsockopt(self->router, ZMQ_ROUTER_MANDATORY, &one, sizeof one);
    zmq_setsockopt(self->router, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(self->router, ZMQ_SNDHWM, &hwm, sizeof hwm);
    zmq_setsockopt(self->router, ZMQ_RCVHWM, &hwm, sizeof hwm);
    if (self->opts->bind != NULL && strncmp(self->opts->bind, "tcp://[", 7) == 0)
        zmq_setsockopt(self->router, ZMQ_IPV6, &one, sizeof one);
    if (wire_limit_frames(self->router) != 0 || server_link_watch(self) != 0) {
        snprintf(err, errlen, "socket options: %s", zmq_strerror(errno));
        return -1;
    }
#if OCTAD_HAVE_CURVE
    if (self->opts->curve_secret != NULL && s_curve(self, err, errlen) != 0) {
        *usage = true;
        return -1;
    }
#endif
    if ((self->opts->bind ? zmq_bind(self->router, ep) : server_link_bind_local(self)) != 0) {
        snprintf(err, errlen, "--bind %.100s: %s", ep, zmq_strerror(errno));
        *usage = true;
        return -1;
    }
    char bound[256];
    size_t blen = sizeof bound;
    if (zmq_getsockopt(self->router, ZMQ_LAST_ENDPOINT, bound, &blen) != 0) {
        snprintf(err, errlen, "ZMQ_LAST_ENDPOINT: %s", zmq_strerror(errno));
        return -1;
    }
    s_local_endpoint(bound, self->endpoint, sizeof self->endpoint);
    return 0;
}

server_t *server_new(const opts_t *opts, const job_t *job, sched_t *sched, journal_t *journal, char *err,
                     size_t errlen, bool *usage)
{
    server_t *self = calloc(1, sizeof *self);
    *usage = false;
    if (self == NULL) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    self->opts = opts;
    self->job = job;
    self->sched = sched;
    self->journal = journal;
    self->peers = peers_new();
    self->ctx = zmq_ctx_new();
    if (self->peers == NULL || self->ctx == NULL) {
        snprintf(err, errlen, "out of memory");
        server_destroy(&self);
        return NULL;
    }
    if (s_open(self, err, errlen, usage) != 0) {
        server_destroy(&self);
        return NULL;
    }
    return self;
}

void server_set_solve(server_t *self, struct ssolve_s *solve)
{
    self->solve = solve;
}

void server_set_analyse(server_t *self, struct ajob_s *analyse)
{
    self->analyse = analyse;
}

const char *server_endpoint(const server_t *self)
{
    return self->endpoint;
}

void server_destroy(server_t **self_p)
{
    server_t *self = *self_p;
    if (self == NULL)
        return;
    if (self->router != NULL && self->peers != NULL) {
        msg_t bye;
        msg_init(&bye, MSG_BYE);
        snprintf(bye.u.bye.reason, sizeof bye.u.bye.reason, "%s", self->failed ? "job stopped" : "job done");
        for (size_t k = 0; k < peers_cap(self->peers); k++)
            if (peers_at(self->peers, k)->used)
                server_send(self, &peers_at(self->peers, k)->id, &bye);
    }
    server_link_close(self);
    if (self->router)
        zmq_close(self->router);
    server_link_unbind_local(self);
#if OCTAD_HAVE_CURVE
    curve_auth_destroy(&self->zap);
#endif
    if (self->ctx)
        zmq_ctx_term(self->ctx);
    peers_destroy(&self->peers);
    free(self->rx);
    free(self);
    *self_p = NULL;
}
