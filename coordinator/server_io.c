/* server_io.c: the coordinator server's services to its message handlers and to the job
 * kinds: the clock, log lines, sending, dropped input, ending a session (server_priv.h). */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <zmq.h>

#include "log_line.h"
#include "report.h"
#include "server_priv.h"

int64_t server_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void s_vlog(log_level_t level, const char *fmt, va_list ap)
{
    log_vwrite(level, NULL, NULL, 0, fmt, ap);
}

void server_log(const server_t *self, const char *fmt, ...)
{
    if (self->opts->quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    report_clear_line();
    s_vlog(LOG_INFO, fmt, ap);
    va_end(ap);
}

void server_error(const server_t *self, const char *fmt, ...)
{
    (void)self;
    va_list ap;
    va_start(ap, fmt);
    report_clear_line();
    s_vlog(LOG_ERROR, fmt, ap);
    va_end(ap);
}

void server_fail(server_t *self, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_clear_line();
    s_vlog(LOG_ERROR, fmt, ap);
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
    size_t n = self->kind->forget(self, self->job, peer);
    self->sum.requeued += n;
    if (peer->credited || n > 0) /* sessions that never asked for work come and go silently */
        server_log(self, "worker %s left (%s); %zu tasks back in the queue", peer->name, why, n);
    peers_remove(self->peers, peer);
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

void server_reply_error(server_t *self, const wire_peer_t *to, msg_code_t code, const char *text)
{
    server_reply_error_as(self, to, 0, code, text);
}

void server_reply_error_as(server_t *self, const wire_peer_t *to, uint32_t version, msg_code_t code, const char *text)
{
    msg_t m;
    msg_init(&m, MSG_ERROR);
    if (version > m.version)
        m.version = version;
    m.u.error.code = code;
    snprintf(m.u.error.text, sizeof m.u.error.text, "%s", text);
    server_send(self, to, &m);
}
