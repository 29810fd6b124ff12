/* aserver.c: the coordinator server's side of an --analyse job (PROTOCOL.md
 * section 12): ANALYSE out, ANALYSED checked and given to the scheduler,
 * which leases, re-queues and verifies them as it does perft tasks. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "server_priv.h"

enum { BAD_LOGGED = 10 };

void server_analyse_task(const server_t *self, size_t i, msg_t *m)
{
    ajob_task_msg(self->analyse, i, (uint64_t)i + 1, self->opts->lease_ms, m);
}

void server_analyse_task_text(const server_t *self, size_t i, char *buf, size_t len)
{
    snprintf(buf, len, "move %s, depth %d", self->analyse->root[i], self->analyse->depth);
}

void server_analyse_result_text(const server_t *self, size_t i, count_t id, char *buf, size_t len)
{
    const ajob_result_t *r = ajob_seen(self->analyse, i, id);
    if (r == NULL)
        snprintf(buf, len, "result %llu, not kept", (unsigned long long)id);
    else
        ajob_result_text(self->analyse, i, r, buf, len);
}

bool server_analyse_commit(server_t *self, size_t i)
{
    static char key[AJOB_KEY_MAX + 64];
    const ajob_result_t *r = ajob_seen(self->analyse, i, sched_counts(self->sched)[i]);
    if (r == NULL) { /* never: an accepted result is one of the first AJOB_SEEN_MAX */
        server_fail(self, "task %zu: the accepted result was not kept", i + 1);
        return false;
    }
    if (self->journal != NULL) {
        ajob_record(self->analyse, i, r, key, sizeof key);
        if (journal_append(self->journal, (uint64_t)i + 1, key, r->nodes, NULL) != 0) {
            server_fail(self, "journal: cannot record task %zu: %s", i + 1, strerror(errno));
            return false;
        }
    }
    self->nodes_done += r->nodes;
    self->sum.results++;
    self->last_result_ms = server_now_ms();
    return true;
}

/* An answer that cannot be the task's: dropped, the task goes to another
 * worker, and the worker's session ends (as an impossible perft count). */
static void s_bad(server_t *self, peer_t *p, size_t i, const char *why)
{
    self->sum.dropped++;
    self->sum.impossible++;
    if (self->sum.impossible <= BAD_LOGGED)
        server_error(self, "worker %s sent an impossible analysis for task %zu (move %s): %s; result dropped, "
                     "worker disconnected", p->name, i + 1, self->analyse->root[i], why);
    if (sched_handback(self->sched, i, p->serial))
        self->sum.requeued++;
    server_forget(self, p, "sent an impossible analysis");
}

static void s_on_analysed(server_t *self, peer_t *p, const msg_analysed_t *a)
{
    static ajob_result_t r;
    char why[300];
    if (a->job_id != self->job->job_id) {
        server_drop(self, DROP_OTHER_JOB, "ANALYSED of another job");
        return;
    }
    if (a->task_id < 1 || a->task_id > self->analyse->task_nb) {
        server_drop(self, DROP_BAD_RESULT, "ANALYSED for an unknown task id");
        return;
    }
    size_t i = (size_t)(a->task_id - 1);
    if (p->leased > 0)
        p->leased--;
    if (!ajob_check(self->analyse, i, a, &r, why, sizeof why)) {
        s_bad(self, p, i, why);
        return;
    }
    p->results++;
    self->sum.worker_seconds += (double)a->elapsed_ms / 1000.0;
    count_t id = ajob_intern(self->analyse, i, &r);
    server_outcome(self, i, sched_result(self->sched, i, p->serial, p->name_id, id, NULL), id, p);
}

bool server_analyse_message(server_t *self, peer_t *p, const msg_t *m)
{
    if (m->type == MSG_ANALYSED) {
        s_on_analysed(self, p, &m->u.analysed);
        return true;
    }
    if (m->type == MSG_RESULT) {
        server_drop(self, DROP_UNEXPECTED, "RESULT in an analyse job (it sends ANALYSE tasks only)");
        return true;
    }
    return false;
}
