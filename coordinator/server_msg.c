/* server_msg.c: the coordinator's handling of each OCTP message from workers (PROTOCOL.md 5-8). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "game.h"
#include "log_line.h"
#include "server_priv.h"

enum { READ_BATCH = 4096, RX_BATCH = 32 };

/* "a" or "an" before a kind's name. */
static const char *s_article(const char *name)
{
    return strchr("aeiou", name[0]) != NULL ? "an" : "a";
}

static bool s_speaks_variant(const msg_hello_t *h, variant_t v)
{
    for (uint32_t i = 0; i < h->n_variants; i++)
        if (strcmp(h->variants[i], game_variant_name(v)) == 0)
            return true;
    return false;
}

/* A session for a newcomer; when the table (or its key's share) is full, the
 * oldest session that was never given work makes room. NULL if none can. */
static peer_t *s_admit(server_t *self, const wire_peer_t *id, const wire_meta_t *meta, const char *name,
                       uint32_t threads)
{
    for (int tries = 0; tries < 2; tries++) {
        peer_t *p = peers_add(self->peers, id, meta, name, threads, server_now_ms());
        if (p != NULL)
            return p;
        peer_t *victim = peers_victim(self->peers, meta);
        if (victim == NULL)
            return NULL;
        server_forget(self, victim, "made room for a newcomer: it had no work");
    }
    return NULL;
}

static void s_on_hello(server_t *self, const wire_peer_t *id, const wire_meta_t *meta, peer_t *old,
                       const msg_hello_t *h, uint32_t version)
{
    char text[MSG_TEXT_MAX], name[MSG_NAME_MAX];
    log_clean(h->name, name, sizeof name);
    if (old != NULL)
        server_forget(self, old, "said HELLO again");
    const job_ops_t *kind = self->kind;
    if (version < kind->min_version) {
        snprintf(text, sizeof text, "this coordinator runs %s %s job, which needs OCTP/%u; this worker speaks OCTP/%u",
                 s_article(kind->name), kind->name, kind->min_version, version);
        server_reply_error(self, id, MSG_CODE_VERSION, text);
        server_log(self, "worker %s refused: it speaks OCTP/%u, and %s %s job needs OCTP/%u", name, version,
                   s_article(kind->name), kind->name, kind->min_version);
        return;
    }
    variant_t v = kind->variant(self->job);
    if (!s_speaks_variant(h, v)) {
        snprintf(text, sizeof text, "this job needs variant %s", game_variant_name(v));
        server_reply_error(self, id, MSG_CODE_NOT_WELCOME, text);
        server_log(self, "worker %s refused: it does not compute %s", name, game_variant_name(v));
        return;
    }
    peer_t *p = s_admit(self, id, meta, name, h->threads);
    if (p == NULL) {
        server_drop(self, DROP_FULL, "HELLO while every worker slot holds a worker with work");
        server_reply_error(self, id, MSG_CODE_INTERNAL, "too many workers");
        return;
    }
    self->sum.workers++;
    p->version = version;
    msg_t m;
    msg_init(&m, MSG_WELCOME);
    m.u.welcome.heartbeat_ms = self->opts->heartbeat_ms;
    m.u.welcome.liveness = self->opts->liveness;
    m.u.welcome.job_id = kind->job_id(self->job);
    server_send(self, id, &m);
    p->hash_mb = h->hash_mb; /* logged as joined at its first CREDIT: a HELLO flood writes no log */
}

static void s_on_credit(server_t *self, peer_t *p, uint32_t n)
{
    /* A CREDIT may overtake the RESULT that freed its slot, so only the
     * credit itself is capped (at the HELLO's threads), not credit + leased. */
    uint64_t want = (uint64_t)p->credit + n;
    if (!p->credited)
        server_log(self, "worker %s joined (%u task slots: threads + prefetch; %u MB hash)",
                   peers_name_of(self->peers, p->name_id), p->threads, p->hash_mb);
    p->credited = true;
    if (want > p->threads) {
        server_drop(self, DROP_CREDIT, "credit beyond the worker's threads (capped)");
        want = p->threads;
    }
    p->credit = (uint32_t)want;
    self->kind->dispatch(self, self->job, p);
}

/* USAGE (OCTP/4): the session's CPU time so far, which never goes back. */
static void s_on_usage(server_t *self, peer_t *p, uint64_t cpu_ms)
{
    if (p->cpu_known && cpu_ms < p->cpu_ms) {
        p->bad_nb++;
        server_drop(self, DROP_UNEXPECTED, "USAGE with less CPU time than the session's last one");
        return;
    }
    p->cpu_known = true;
    p->cpu_ms = cpu_ms;
}

static void s_on_message(server_t *self, const wire_peer_t *id, const wire_meta_t *meta, peer_t *p, const msg_t *m)
{
    char text[MSG_TEXT_MAX];
    if (m->type == MSG_HELLO) {
        s_on_hello(self, id, meta, p, &m->u.hello, m->version);
        return;
    }
    if (p == NULL) {
        server_drop(self, DROP_STRANGER, "message from a connection without a session (no HELLO on it)");
        if (!peers_stranger_seen(self->peers, id))
            server_reply_error_as(self, id, m->version, MSG_CODE_NOT_WELCOME, "no session: say HELLO first");
        return;
    }
    if (m->version != p->version) {
        server_drop(self, DROP_UNEXPECTED, "message in another protocol version than its session's");
        return;
    }
    if (self->kind->message(self, self->job, p, m))
        return;
    switch (m->type) {
    case MSG_CREDIT: s_on_credit(self, p, m->u.credit.n); break;
    case MSG_HEARTBEAT: break;
    case MSG_USAGE: s_on_usage(self, p, m->u.usage.cpu_ms); break;
    case MSG_BYE: server_forget(self, p, "said BYE"); break;
    case MSG_ERROR:
        server_error(self, "worker %s reports error %u: %s", p->name, m->u.error.code,
                     log_clean(m->u.error.text, text, sizeof text));
        if (m->u.error.code == MSG_CODE_VERSION)
            server_forget(self, p, "speaks another protocol version");
        break;
    default: server_drop(self, DROP_UNEXPECTED, "message type a worker may not send"); break;
    }
}

/* One received message (or receive error), held until its batch is handled. */
struct server_rx_s {
    int rc;
    wire_peer_t id;
    wire_meta_t meta;
    msg_t m;
    char err[256];
    msg_bulk_store_t bulk; /* m's bulk fields: each message of a batch keeps its own until handled */
};

/* Handles one received message (or receive error). */
static void s_handle_one(server_t *self, server_rx_t *rx)
{
    peer_t *p = rx->id.len > 0 ? peers_find(self->peers, &rx->id) : NULL;
    if (p != NULL && !peers_same_link(p, &rx->meta))
        p = NULL; /* the identity of a session, claimed by another connection or key */
    int64_t now = server_now_ms();
    if (p != NULL) {
        p->last_recv = now;
        self->kind->renew(self, self->job, p, now);
    }
    if (rx->rc == MSG_EVERSION) {
        server_drop(self, DROP_VERSION, rx->err);
        if (rx->id.len > 0) {
            char text[MSG_TEXT_MAX];
            snprintf(text, sizeof text, "protocol version not supported; this coordinator speaks OCTP/%d to OCTP/%d",
                     MSG_VERSION_MIN, MSG_VERSION_MAX);
            server_reply_error(self, &rx->id, MSG_CODE_VERSION, text);
        }
        if (p != NULL)
            server_forget(self, p, "speaks another protocol version");
    } else if (rx->rc != MSG_OK) {
        if (p != NULL)
            p->bad_nb++;
        server_drop(self, DROP_MALFORMED, rx->err);
    } else {
        s_on_message(self, &rx->id, &rx->meta, p, &rx->m);
    }
}

/* Reads up to RX_BATCH messages; returns how many, and whether one of them can
 * create a session or count a result (then connection events must be seen first). */
static size_t s_read_batch(server_t *self, bool *placing)
{
    size_t k = 0;
    *placing = false;
    while (k < RX_BATCH) {
        server_rx_t *rx = &self->rx[k];
        msg_bulk_t bulk = msg_bulk_of(&rx->bulk);
        rx->rc = wire_recv_from_meta(self->router, &rx->id, &rx->meta, &rx->m, &bulk, ZMQ_DONTWAIT, rx->err,
                                     sizeof rx->err);
        if (rx->rc == MSG_ETRANSPORT)
            break;
        *placing |= rx->rc != MSG_OK || rx->m.type == MSG_HELLO || rx->m.type == MSG_RESULT ||
                    rx->m.type == MSG_REFUSE || rx->m.type >= MSG_SOLVE;
        k++;
    }
    return k;
}

void server_read(server_t *self)
{
    if (self->rx == NULL && (self->rx = malloc(RX_BATCH * sizeof *self->rx)) == NULL) {
        server_fail(self, "out of memory");
        return;
    }
    for (size_t n = 0; n < READ_BATCH && !self->failed;) {
        bool placing;
        size_t k = s_read_batch(self, &placing);
        if (k == 0)
            break;
        /* Every message of the batch was queued before this point, so every
         * connection event that preceded one of them is seen here: a vanished
         * connection's session ends before a newcomer holding its routing id
         * and fd is heard. (Batches of CREDIT and HEARTBEAT only, which cannot
         * change a total, skip it: each look costs a system call.) */
        if (placing)
            server_watch_links(self);
        for (size_t j = 0; j < k && !self->failed; j++)
            s_handle_one(self, &self->rx[j]);
        n += k;
    }
}
