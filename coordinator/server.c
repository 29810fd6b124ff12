/* server.c: the coordinator's socket, event loop and timers (see server.h); the job's
 * tasks through its kind's row (kind.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

#include "report.h"
#include "server_link.h"
#include "server_priv.h"
#if OCTAD_HAVE_CURVE
#include "curve.h"
#endif

enum { POLL_MIN_MS = 20, POLL_MAX_MS = 250, TIMERS_EVERY_MS = 20, EXPIRE_EVERY_MS = 50, HELLO_ONLY_MS = 2000 };

/* How long the loop may sleep without a message: a quarter of a heartbeat
 * (so heartbeats and liveness keep their schedule), within 20..250 ms. Every
 * wake-up costs CPU (a cold cache on a machine busy with perft). */
static int s_poll_ms(const server_t *self)
{
    int ms = (int)(self->opts->heartbeat_ms / 4);
    return ms < POLL_MIN_MS ? POLL_MIN_MS : ms > POLL_MAX_MS ? POLL_MAX_MS : ms;
}

static void s_dispatch_all(server_t *self)
{
    for (size_t k = 0; k < peers_cap(self->peers) && self->kind->has_work(self->job) && !self->failed; k++) {
        peer_t *p = peers_at(self->peers, k);
        if (p->used && p->credit > 0)
            self->kind->dispatch(self, self->job, p);
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

static void s_observe(server_t *self, int64_t now, bool final)
{
    if (self->observe != NULL)
        self->observe(self, now, final);
}

static void s_timers(server_t *self, spawn_t *spawn, int64_t now)
{
    if (now < self->next_timers_ms)
        return; /* under load, messages wake the loop thousands of times a second */
    self->next_timers_ms = now + TIMERS_EVERY_MS;
    s_peer_timers(self, now);
    s_log_refused_keys(self);
    s_observe(self, now, false);
    if (now >= self->next_expire_ms) {
        self->kind->expire(self, self->job, now);
        self->next_expire_ms = now + EXPIRE_EVERY_MS;
    }
    if (self->opts->verify && !self->verify_waiting_logged && peers_names_alive(self->peers) < 2 &&
        now - self->start_ms > 2000) {
        server_error(self, "verify: %zu worker(s) connected; waiting for a second one", peers_names_alive(self->peers));
        self->verify_waiting_logged = true;
    }
    if (spawn != NULL && self->opts->bind == NULL && spawn_reap(spawn) == 0 && peers_count(self->peers) == 0)
        server_fail(self, "every local worker has exited and no remote worker can join (no --bind)");
    self->kind->timers(self, self->job, now);
}

int server_run(server_t *self, spawn_t *spawn, int stop_fd)
{
    self->start_ms = server_now_ms();
    self->start_wall = (int64_t)time(NULL);
    self->sum.started_at = self->start_wall;
    s_observe(self, self->start_ms, true);
    while (!self->failed && !self->kind->finished(self->job)) {
        zmq_pollitem_t items[3] = {{.socket = self->router, .events = ZMQ_POLLIN},
                                   {.fd = stop_fd, .events = ZMQ_POLLIN},
                                   {.socket = self->monitor, .events = ZMQ_POLLIN}};
        if (zmq_poll(items, self->monitor != NULL ? 3 : 2, s_poll_ms(self)) < 0 && errno != EINTR) {
            server_fail(self, "zmq_poll: %s", zmq_strerror(errno));
            break;
        }
        if (items[1].revents & ZMQ_POLLIN) {
            char status[400];
            self->kind->status(self->job, status, sizeof status);
            server_fail(self, "interrupted; %s", status);
            break;
        }
        if (items[2].revents & ZMQ_POLLIN)
            server_watch_links(self);
        if (items[0].revents & ZMQ_POLLIN)
            server_read(self);
        s_timers(self, spawn, server_now_ms());
        s_dispatch_all(self);
    }
    if (!self->opts->quiet)
        report_clear_line();
    self->sum.seconds = (double)(server_now_ms() - self->start_ms) / 1000.0;
    self->sum.finished_at = (int64_t)time(NULL);
    if (self->first_dispatch_ms > 0 && self->last_result_ms >= self->first_dispatch_ms)
        self->sum.dispatch_seconds = (double)(self->last_result_ms - self->first_dispatch_ms) / 1000.0;
    s_observe(self, server_now_ms(), true);
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
    /* Every worker slot may be connecting at once (a cluster restarting, docs/swarm.md): libzmq's
     * listen backlog of 100 left the rest to the kernel's SYN retransmits, 1 s and 3 s later. */
    int backlog = PEERS_MAX;
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
    zmq_setsockopt(self->router, ZMQ_BACKLOG, &backlog, sizeof backlog);
    if (self->opts->bind != NULL && strncmp(self->opts->bind, "tcp://[", 7) == 0)
        zmq_setsockopt(self->router, ZMQ_IPV6, &one, sizeof one);
    if (wire_limit_frames(self->router) != 0 || wire_keepalive(self->router) != 0 || server_link_watch(self) != 0) {
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

server_t *server_new(const opts_t *opts, const job_ops_t *kind, void *job, char *err, size_t errlen, bool *usage)
{
    server_t *self = calloc(1, sizeof *self);
    *usage = false;
    if (self == NULL) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    self->opts = opts;
    self->kind = kind;
    self->job = job;
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
    free(self->snap);
    free(self);
    *self_p = NULL;
}
