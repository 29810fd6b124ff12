/* tasks.c: the task life cycle of the scheduled kinds, perft and analyse (see tasks.h). */
#include "tasks.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "log_line.h"
#include "server_priv.h"

enum { REFUSALS_LOGGED = 20, IMPOSSIBLE_LOGGED = 10, COPIES_LOGGED = 10 };

void tasks_close(tasks_t *t)
{
    tasks_book_free(t);
    credit_destroy(&t->credit);
    journal_destroy(&t->journal);
    sched_destroy(&t->sched);
}

uint64_t tasks_job_id(const void *job)
{
    return ((const tasks_t *)job)->job_id;
}

variant_t tasks_variant(const void *job)
{
    return ((const tasks_t *)job)->variant;
}

bool tasks_finished(const void *job)
{
    const tasks_t *t = job;
    return sched_done_nb(t->sched) >= t->task_nb;
}

bool tasks_has_work(const void *job)
{
    const sched_t *sched = ((const tasks_t *)job)->sched;
    return sched_queued_nb(sched) > 0 || sched_copy_wanted(sched);
}

void tasks_status(const void *job, char *buf, size_t len)
{
    const tasks_t *t = job;
    snprintf(buf, len, "%zu of %zu tasks done%s", sched_done_nb(t->sched), t->task_nb,
             t->journal ? " (journaled)" : "");
}

void tasks_progress(const tasks_t *t, job_progress_t *out)
{
    out->unit = "tasks";
    out->done = sched_done_nb(t->sched);
    out->total = t->task_nb;
    out->loaded = t->loaded;
    out->queued = sched_queued_nb(t->sched);
    out->running = sched_inflight_nb(t->sched);
    out->amount_noun = "nodes";
    out->amount = t->nodes_done;
    out->resumed = t->journal != NULL && journal_resumed(t->journal);
    out->job_started_at = t->journal != NULL ? journal_started_at(t->journal) : 0;
}

/* sched_next_best's rank: the kind's, for the worker being served. */
typedef struct {
    server_t *s;
    tasks_t *t;
    const peer_t *p;
} s_rank_ctx_t;

static long s_rank(void *ctx, size_t i, uint16_t name_id)
{
    const s_rank_ctx_t *c = ctx;
    (void)name_id;
    return c->t->ops->rank(c->s, c->t, i, c->p);
}

void tasks_dispatch(server_t *s, void *job, peer_t *p)
{
    tasks_t *t = job;
    int64_t now = server_now_ms();
    s_rank_ctx_t rc = {s, t, p};
    msg_t m;
    while (p->credit > 0 && !s->failed && !(t->ops->exclusive && p->leased > 0)) {
        int64_t until = now + s->opts->lease_ms;
        long i = t->ops->rank ? sched_next_best(t->sched, p->serial, p->name_id, until, s_rank, &rc)
                              : sched_next(t->sched, p->serial, p->name_id, until);
        bool copy = false;
        if (i < 0 && p->leased == 0) { /* an idle worker and an empty queue: a straggler's task (lease.h, rule 3) */
            i = sched_copy(t->sched, p->serial, p->name_id, until);
            copy = i >= 0;
        }
        if (i < 0)
            return;
        if (t->ops->task_msg(s, t, (size_t)i, p, &m) != 0 || server_send(s, &p->id, &m) != 0) {
            sched_handback(t->sched, (size_t)i, p->serial);
            if (!s->failed && errno == EHOSTUNREACH)
                server_forget(s, p, "unreachable");
            return;
        }
        server_count_dispatch(s, p, now);
        if (copy && s->sum.copies++ < COPIES_LOGGED)
            server_log(s, "task %zu copied to idle worker %s: the queue is empty and it still runs elsewhere%s", (size_t)i + 1,
                       p->name, s->sum.copies == COPIES_LOGGED ? " (further copies are only counted)" : "");
    }
}

size_t tasks_forget(server_t *s, void *job, peer_t *p)
{
    (void)s;
    return sched_drop_serial(((tasks_t *)job)->sched, p->serial);
}

void tasks_renew(server_t *s, void *job, const peer_t *p, int64_t now)
{
    const tasks_t *t = job;
    if (p->leased > 0 || t->ops->exclusive)
        sched_renew(t->sched, p->serial, now + s->opts->lease_ms);
}

void tasks_expire(server_t *s, void *job, int64_t now)
{
    size_t n = sched_expire(((tasks_t *)job)->sched, now);
    if (n > 0)
        server_log(s, "%zu leases expired; tasks back in the queue", n);
    s->sum.requeued += n;
}

void tasks_report_votes(server_t *s, const tasks_t *t, size_t i, const char *what)
{
    sched_vote_t v[3];
    char line[1400], c[400];
    int n = sched_votes(t->sched, i, v);
    t->ops->task_text(t, i, c, sizeof c);
    int len = snprintf(line, sizeof line, "verify: task %zu (%s) %s:", i + 1, c, what);
    for (int k = 0; k < n && len > 0 && (size_t)len < sizeof line; k++) {
        t->ops->answer_text(t, i, v[k].answer, c, sizeof c);
        len += snprintf(line + len, sizeof line - (size_t)len, " %s=%s", peers_name_of(s->peers, v[k].name_id), c);
    }
    server_error(s, "%s", line);
}

/* Verify: every connected session of the workers that voted on task i took part in a
 * disagreement (the sessions' counts in --http's /status). */
static void s_count_disagreement(server_t *s, const tasks_t *t, size_t i)
{
    sched_vote_t v[3];
    int n = sched_votes(t->sched, i, v);
    for (size_t k = 0; k < peers_cap(s->peers); k++) {
        peer_t *p = peers_at(s->peers, k);
        for (int j = 0; p->used && j < n; j++)
            if (p->name_id == v[j].name_id) {
                p->disagreements++;
                break;
            }
    }
}

/* What an answer did to the scheduler: committed, reported or counted. */
static void s_outcome(server_t *s, tasks_t *t, size_t i, sched_outcome_t o, sched_answer_t v, peer_t *p)
{
    char late[400], taken[400];
    switch (o) {
    case SCHED_ACCEPTED:
        if (t->ops->commit(s, t, i, sched_answers(t->sched)[i])) {
            s->sum.results++;
            s->last_result_ms = server_now_ms();
            sched_vote_t votes[3];
            if (s->opts->verify && sched_votes(t->sched, i, votes) == 3)
                tasks_report_votes(s, t, i, "resolved by majority");
        }
        break;
    case SCHED_PENDING: break;
    case SCHED_DUPLICATE: s->sum.duplicates++; break;
    case SCHED_CONFLICT:
        s->sum.duplicates++;
        s->sum.disagreements++;
        p->disagreements++;
        t->ops->answer_text(t, i, v, late, sizeof late);
        t->ops->answer_text(t, i, sched_answers(t->sched)[i], taken, sizeof taken);
        server_error(s, "task %zu: late result %s from %s differs from the one taken, %s", i + 1, late, p->name,
                     taken);
        break;
    case SCHED_DISAGREE:
        s->sum.disagreements++;
        s_count_disagreement(s, t, i);
        tasks_report_votes(s, t, i, "workers disagree; sent to a third");
        break;
    case SCHED_NO_MAJORITY:
        s->sum.disagreements++;
        s_count_disagreement(s, t, i);
        tasks_report_votes(s, t, i, "three different results");
        server_fail(s, "verify: no two workers agree on task %zu", i + 1);
        break;
    case SCHED_NOT_LEASED:
        server_drop(s, DROP_NOT_LEASED, "an answer for a task not leased to that worker");
        break;
    }
}

void tasks_by(tasks_t *t, const peer_t *p, size_t i, uint64_t wall_ms)
{
    /* The CPU it reported since its last credited task goes with this one, if taken. */
    int64_t cpu = p->cpu_known ? (int64_t)(p->cpu_ms - p->cpu_credited_ms) : -1;
    t->by = (journal_credit_t){.task_id = (uint64_t)i + 1, .cpu_ms = cpu, .wall_ms = wall_ms};
    snprintf(t->by.worker, sizeof t->by.worker, "%s", p->name);
    t->by_recorded = false;
}

void tasks_answer(server_t *s, tasks_t *t, peer_t *p, size_t i, sched_answer_t v, const perft_stats_t *stats,
                  uint64_t wall_ms)
{
    if (p->leased > 0)
        p->leased--;
    p->results++;
    tasks_by(t, p, i, wall_ms);
    t->by_peer = p;
    s_outcome(s, t, i, sched_result(t->sched, i, p->serial, p->name_id, v, stats), v, p);
    t->by_peer = NULL;
    if (t->by_recorded)
        p->cpu_credited_ms = p->cpu_ms;
}

void tasks_accept(server_t *s, tasks_t *t, peer_t *p, size_t i, sched_answer_t v)
{
    p->results++;
    s_outcome(s, t, i, sched_result(t->sched, i, p->serial, p->name_id, v, NULL), v, p);
}

void tasks_refuse_answer(server_t *s, tasks_t *t, peer_t *p, size_t i, const char *why)
{
    if (sched_refuse(t->sched, i, p->serial, p->name_id) == 0)
        return;
    t->refusals++;
    s->sum.requeued++;
    snprintf(t->refuse_reason, sizeof t->refuse_reason, "%s", why);
}

credit_t *tasks_credit(tasks_t *t)
{
    if (t->credit != NULL || (t->credit = credit_new()) == NULL)
        return t->credit;
    for (size_t k = 0; t->journal != NULL && k < journal_credit_nb(t->journal); k++)
        if (credit_add(t->credit, journal_credit_at(t->journal, k)) != 0) {
            credit_destroy(&t->credit);
            break;
        }
    return t->credit;
}

bool tasks_credit_by(server_t *s, tasks_t *t, size_t i)
{
    credit_t *credit = tasks_credit(t);
    if (credit != NULL && t->by.worker[0] != '\0')
        credit_add(credit, &t->by);
    return tasks_book_note(s, t, i);
}

bool tasks_record(server_t *s, tasks_t *t, size_t i, const char *key, count_t nodes, const perft_stats_t *stats,
                  count_t amount)
{
    tasks_credit(t); /* before the append: the journal's credits, then this one */
    t->by.amount = amount;
    if (t->journal != NULL && journal_append_credited(t->journal, (uint64_t)i + 1, key, nodes, stats,
                                                      t->by.worker[0] != '\0' ? &t->by : NULL) != 0) {
        server_fail(s, "journal: cannot record task %zu: %s", i + 1, strerror(errno));
        return false;
    }
    if (!tasks_credit_by(s, t, i))
        return false;
    if (t->by_peer != NULL) /* the session's nodes: those of the tasks credited to it, as the total counts */
        t->by_peer->amount += amount;
    t->by_recorded = true;
    t->nodes_done += amount;
    return true;
}

void tasks_retry(server_t *s, tasks_t *t, peer_t *p, size_t i)
{
    if (p->leased > 0)
        p->leased--;
    if (sched_handback(t->sched, i, p->serial))
        s->sum.requeued++;
}

void tasks_bad_answer(server_t *s, tasks_t *t, peer_t *p, size_t i, const char *why)
{
    char task[400], left[80];
    if (p->leased > 0)
        p->leased--;
    s->sum.dropped++;
    s->sum.impossible++;
    t->ops->task_text(t, i, task, sizeof task);
    if (s->sum.impossible <= IMPOSSIBLE_LOGGED)
        server_error(s, "worker %s sent an impossible %s for task %zu (%s): %s; result dropped, worker "
                     "disconnected%s", p->name, t->ops->answer_noun, i + 1, task, why,
                     s->sum.impossible == IMPOSSIBLE_LOGGED ? " (further ones are only counted)" : "");
    if (sched_handback(t->sched, i, p->serial))
        s->sum.requeued++;
    snprintf(left, sizeof left, "sent an impossible %s", t->ops->answer_noun);
    server_forget(s, p, left);
}

static void s_on_refuse(server_t *s, tasks_t *t, peer_t *p, const msg_refuse_t *r)
{
    if (r->job_id != t->job_id || r->task_id < 1 || r->task_id > t->task_nb) {
        server_drop(s, DROP_OTHER_JOB, "REFUSE of another job or an unknown task");
        return;
    }
    size_t i = (size_t)(r->task_id - 1);
    p->refusals++;
    int n = sched_refuse(t->sched, i, p->serial, p->name_id);
    if (n == 0) {
        server_drop(s, DROP_NOT_LEASED, "REFUSE for a task not leased to that worker");
        return;
    }
    if (p->leased > 0)
        p->leased--;
    s->sum.requeued++;
    t->refusals++;
    char reason[MSG_TEXT_MAX], task[400];
    log_clean(r->reason, reason, sizeof reason);
    snprintf(t->refuse_reason, sizeof t->refuse_reason, "worker %.63s: %s", p->name, reason);
    t->ops->task_text(t, i, task, sizeof task);
    bool all = (size_t)n >= peers_names_alive(s->peers);
    /* Without --bind no other worker can come: every refusal in, the job cannot finish. */
    if (all && s->opts->bind == NULL) {
        server_fail(s, "no worker accepts task %zu (%s): %s", i + 1, task, t->refuse_reason);
        return;
    }
    if (t->refusals_logged++ < REFUSALS_LOGGED)
        server_error(s, "worker %s refused task %zu (%s) (code %u): %s%s%s", p->name, i + 1, task, r->code, reason,
                     all ? "; no connected worker takes it: waiting for another worker (--stall-timeout)" : "",
                     t->refusals_logged == REFUSALS_LOGGED ? " (further refusals are only counted)" : "");
}

static void s_on_handback(server_t *s, tasks_t *t, peer_t *p, const msg_handback_t *h)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < h->n_task_ids; k++)
        if (h->task_ids[k] <= t->task_nb && sched_handback(t->sched, (size_t)(h->task_ids[k] - 1), p->serial))
            n++;
    p->leased = p->leased > n ? p->leased - n : 0;
    s->sum.requeued += n;
    if (n > 0)
        server_log(s, "worker %s handed back %u tasks", p->name, n);
}

bool tasks_message(server_t *s, void *job, peer_t *p, const msg_t *m)
{
    switch (m->type) {
    case MSG_REFUSE: s_on_refuse(s, job, p, &m->u.refuse); return true;
    case MSG_HANDBACK: s_on_handback(s, job, p, &m->u.handback); return true;
    default: return false;
    }
}
