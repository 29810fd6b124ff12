/* server_msg.c: the coordinator's handling of each OCTP message from workers (PROTOCOL.md 5-8). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "count.h"
#include "log_line.h"
#include "server_priv.h"

enum { READ_BATCH = 4096, RX_BATCH = 32, REFUSALS_LOGGED = 20, IMPOSSIBLE_LOGGED = 10 };

void server_reply_error(server_t *self, const wire_peer_t *to, msg_code_t code, const char *text)
{
    msg_t m;
    msg_init(&m, MSG_ERROR);
    m.u.error.code = code;
    snprintf(m.u.error.text, sizeof m.u.error.text, "%s", text);
    server_send(self, to, &m);
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
    if (self->analyse != NULL && version < 3) {
        snprintf(text, sizeof text, "this coordinator runs an analyse job, which needs OCTP/3; this worker speaks "
                 "OCTP/%u", version);
        server_reply_error(self, id, MSG_CODE_VERSION, text);
        server_log(self, "worker %s refused: it speaks OCTP/%u, and an analyse job needs OCTP/3", name, version);
        return;
    }
    if (self->solve != NULL && version < 2) {
        server_reply_error(self, id, MSG_CODE_VERSION, "this coordinator runs a solve job, which needs OCTP/2; this "
                      "worker speaks OCTP/1 (perft only)");
        server_log(self, "worker %s refused: it speaks OCTP/1 only, and a solve job needs OCTP/2", name);
        return;
    }
    if (!s_speaks_variant(h, self->job->root.variant)) {
        snprintf(text, sizeof text, "this job needs variant %s", game_variant_name(self->job->root.variant));
        server_reply_error(self, id, MSG_CODE_NOT_WELCOME, text);
        server_log(self, "worker %s refused: it does not compute %s", name, game_variant_name(self->job->root.variant));
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
    m.u.welcome.job_id = self->job->job_id;
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
    server_dispatch(self, p);
}

/* Counts an accepted task: journal first, then the totals. Returns false on a journal error. */
static bool s_commit(server_t *self, size_t i, count_t nodes)
{
    char key[GAME_TEXT_MAX + 32];
    if (self->analyse != NULL)
        return server_analyse_commit(self, i);
    if (self->journal != NULL) {
        const perft_stats_t *st = self->job->stats ? &sched_stats(self->sched)[i] : NULL;
        job_task_key(self->job, i, key, sizeof key);
        if (journal_append(self->journal, (uint64_t)i + 1, key, nodes, st) != 0) {
            server_fail(self, "journal: cannot record task %zu: %s", i + 1, strerror(errno));
            return false;
        }
    }
    self->nodes_done += nodes * job_task_weight(self->job, i);
    self->sum.results++;
    self->last_result_ms = server_now_ms();
    return true;
}

/* Verify: names the workers and counts of a task whose results differed. */
void server_report_votes(server_t *self, size_t i, const char *what)
{
    sched_vote_t v[3];
    char pos[GAME_TEXT_MAX], line[1400], c[400];
    int n = sched_votes(self->sched, i, v), len;
    if (self->analyse != NULL) {
        server_analyse_task_text(self, i, c, sizeof c);
        len = snprintf(line, sizeof line, "verify: task %zu (%s) %s:", i + 1, c, what);
    } else {
        job_task_text(self->job, i, pos, sizeof pos);
        len = snprintf(line, sizeof line, "verify: task %zu (%s, depth %d) %s:", i + 1, pos,
                       job_task_depth(self->job, i), what);
    }
    for (int k = 0; k < n && len > 0 && (size_t)len < sizeof line; k++) {
        if (self->analyse != NULL)
            server_analyse_result_text(self, i, v[k].nodes, c, sizeof c);
        else
            count_format(v[k].nodes, c);
        len += snprintf(line + len, sizeof line - (size_t)len, " %s=%s%s%s", peers_name_of(self->peers, v[k].name_id),
                        self->analyse ? "[" : "", c, self->analyse ? "]" : "");
    }
    server_error(self, "%s", line);
}

void server_outcome(server_t *self, size_t i, sched_outcome_t o, count_t nodes, const peer_t *p)
{
    char c[COUNT_TEXT_MAX], d[COUNT_TEXT_MAX];
    switch (o) {
    case SCHED_ACCEPTED:
        if (s_commit(self, i, sched_counts(self->sched)[i]) && self->opts->verify) {
            sched_vote_t v[3];
            if (sched_votes(self->sched, i, v) == 3)
                server_report_votes(self, i, "resolved by majority");
        }
        break;
    case SCHED_PENDING: break;
    case SCHED_DUPLICATE: self->sum.duplicates++; break;
    case SCHED_CONFLICT:
        self->sum.duplicates++;
        self->sum.disagreements++;
        if (self->analyse != NULL) {
            char late[400], taken[400];
            server_analyse_result_text(self, i, nodes, late, sizeof late);
            server_analyse_result_text(self, i, sched_counts(self->sched)[i], taken, sizeof taken);
            server_error(self, "task %zu: late result [%s] from %s differs from the one taken [%s]", i + 1, late,
                         p->name, taken);
        } else
            server_error(self, "task %zu: late result %s from %s differs from the counted %s", i + 1,
                         count_format(nodes, c), p->name, count_format(sched_counts(self->sched)[i], d));
        break;
    case SCHED_DISAGREE:
        self->sum.disagreements++;
        server_report_votes(self, i, "workers disagree; sent to a third");
        break;
    case SCHED_NO_MAJORITY:
        self->sum.disagreements++;
        server_report_votes(self, i, "three different results");
        server_fail(self, "verify: no two workers agree on task %zu", i + 1);
        break;
    case SCHED_NOT_LEASED:
        server_drop(self, DROP_NOT_LEASED, "RESULT for a task not leased to that worker");
        break;
    }
}

/* Checks a RESULT's ids and stats; returns the task index or -1 (dropped). */
static long s_check_result(server_t *self, const msg_result_t *r)
{
    if (r->job_id != self->job->job_id) {
        server_drop(self, DROP_OTHER_JOB, "RESULT of another job");
        return -1;
    }
    if (r->task_id < 1 || r->task_id > self->job->task_nb) {
        server_drop(self, DROP_BAD_RESULT, "RESULT for an unknown task id");
        return -1;
    }
    if (self->job->stats && (!r->has_stats || r->stats.nodes != r->nodes)) {
        server_drop(self, DROP_BAD_RESULT, "RESULT without stats, or stats that do not match its nodes");
        return -2 - (long)(r->task_id - 1);
    }
    return (long)(r->task_id - 1);
}

/* A count that cannot be the task's: the worker lies or is broken. Its result
 * is dropped, the task goes to another worker, and its session ends (its
 * other leases go back to the queue). Returns true if so. */
static bool s_impossible(server_t *self, peer_t *p, size_t i, const msg_result_t *r)
{
    char why[200];
    if (job_task_plausible(self->job, i, r->nodes, self->job->stats ? &r->stats : NULL, why, sizeof why))
        return false;
    self->sum.dropped++;
    self->sum.impossible++;
    if (self->sum.impossible <= IMPOSSIBLE_LOGGED)
        server_error(self, "worker %s sent an impossible count for task %zu: %s; result dropped, worker "
                     "disconnected%s", p->name, i + 1, why,
                     self->sum.impossible == IMPOSSIBLE_LOGGED ? " (further ones are only counted)" : "");
    if (sched_handback(self->sched, i, p->serial))
        self->sum.requeued++;
    server_forget(self, p, "sent an impossible count");
    return true;
}

static void s_on_result(server_t *self, peer_t *p, const msg_result_t *r)
{
    long i = s_check_result(self, r);
    if (i == -1)
        return;
    if (p->leased > 0)
        p->leased--;
    if (i < -1) { /* a bad answer for a real task: give the task to someone else */
        if (sched_handback(self->sched, (size_t)(-2 - i), p->serial))
            self->sum.requeued++;
        return;
    }
    if (s_impossible(self, p, (size_t)i, r))
        return;
    p->results++;
    self->sum.worker_seconds += (double)r->elapsed_ms / 1000.0;
    sched_outcome_t o = sched_result(self->sched, (size_t)i, p->serial, p->name_id, r->nodes,
                                     self->job->stats ? &r->stats : NULL);
    server_outcome(self, (size_t)i, o, r->nodes, p);
}

static void s_on_refuse(server_t *self, peer_t *p, const msg_refuse_t *r)
{
    if (r->job_id != self->job->job_id || r->task_id < 1 || r->task_id > self->job->task_nb) {
        server_drop(self, DROP_OTHER_JOB, "REFUSE of another job or an unknown task");
        return;
    }
    size_t i = (size_t)(r->task_id - 1);
    int n = sched_refuse(self->sched, i, p->serial, p->name_id);
    if (n == 0) {
        server_drop(self, DROP_NOT_LEASED, "REFUSE for a task not leased to that worker");
        return;
    }
    if (p->leased > 0)
        p->leased--;
    self->sum.requeued++;
    log_clean(r->reason, self->refuse_reason, sizeof self->refuse_reason);
    bool all = (size_t)n >= peers_names_alive(self->peers);
    /* Without --bind no other worker can come: every refusal in, the job cannot finish. */
    if (all && self->opts->bind == NULL) {
        server_fail(self, "no worker accepts task %zu: %s", i + 1, self->refuse_reason);
        return;
    }
    if (self->refusals_logged++ < REFUSALS_LOGGED)
        server_error(self, "worker %s refused task %zu (code %u): %s%s%s", p->name, i + 1, r->code,
                     self->refuse_reason,
                     all ? "; no connected worker takes it: waiting for another worker (--stall-timeout)" : "",
                     self->refusals_logged == REFUSALS_LOGGED ? " (further refusals are only counted)" : "");
}

static void s_on_handback(server_t *self, peer_t *p, const msg_handback_t *h)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < h->n_task_ids; k++)
        if (h->task_ids[k] <= self->job->task_nb && sched_handback(self->sched, (size_t)(h->task_ids[k] - 1), p->serial))
            n++;
    p->leased = p->leased > n ? p->leased - n : 0;
    self->sum.requeued += n;
    if (n > 0)
        server_log(self, "worker %s handed back %u tasks", p->name, n);
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
            server_reply_error(self, id, MSG_CODE_NOT_WELCOME, "no session: say HELLO first");
        return;
    }
    if (m->version != p->version) {
        server_drop(self, DROP_UNEXPECTED, "message in another protocol version than its session's");
        return;
    }
    if (self->solve != NULL && server_solve_message(self, p, m))
        return;
    if (self->analyse != NULL && server_analyse_message(self, p, m))
        return;
    switch (m->type) {
    case MSG_CREDIT: s_on_credit(self, p, m->u.credit.n); break;
    case MSG_RESULT: s_on_result(self, p, &m->u.result); break;
    case MSG_REFUSE: s_on_refuse(self, p, &m->u.refuse); break;
    case MSG_HANDBACK: s_on_handback(self, p, &m->u.handback); break;
    case MSG_HEARTBEAT: break;
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
        if (self->solve != NULL)
            server_solve_renew(self, p, now);
        else if (p->leased > 0)
            sched_renew(self->sched, p->serial, now + self->opts->lease_ms);
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
        rx->rc = wire_recv_from_meta(self->router, &rx->id, &rx->meta, &rx->m, ZMQ_DONTWAIT, rx->err, sizeof rx->err);
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
