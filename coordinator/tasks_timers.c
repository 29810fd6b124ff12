/* tasks_timers.c: the scheduled kinds' timers (tasks_timers, tasks.h): a job that no
 * connected worker can advance says what it waits for and ends after --stall-timeout;
 * the progress line. */
#include <stdio.h>
#include <string.h>

#include "lease.h"
#include "report.h"
#include "server_priv.h"
#include "tasks.h"

enum { LIST_MAX = 20, TTY_PROGRESS_MS = 250, LOG_PROGRESS_MS = 5000 };

/* Tasks held back, by kind. */
typedef struct {
    size_t disputed, single, refused;
    size_t first_disputed, first_single, first_refused; /* task indices */
} s_blocked_t;

/* Whether a connected worker may take queued task i (not refused by it, fitting it). */
static bool s_takeable(server_t *s, tasks_t *t, size_t i)
{
    for (size_t k = 0; k < peers_cap(s->peers); k++) {
        const peer_t *q = peers_at(s->peers, k);
        if (q->used && sched_allowed(t->sched, i, q->name_id) && t->ops->rank(s, t, i, q) >= 0)
            return true;
    }
    return false;
}

static s_blocked_t s_blocked(server_t *s, tasks_t *t)
{
    s_blocked_t b = {0};
    bool fits = t->ops->rank != NULL && peers_count(s->peers) > 0;
    for (size_t i = 0; i < t->task_nb; i++) {
        int votes, refusals;
        if (sched_done(t->sched, i))
            continue;
        sched_task_state(t->sched, i, &votes, &refusals);
        if (votes == 0 && refusals == 0 && fits && sched_queued(t->sched, i) && !s_takeable(s, t, i))
            refusals = 1; /* held back as a refused task is: no connected worker takes it */
        if (votes >= 2 && b.disputed++ == 0)
            b.first_disputed = i;
        else if (votes == 1 && b.single++ == 0)
            b.first_single = i;
        else if (votes == 0 && refusals > 0 && b.refused++ == 0)
            b.first_refused = i;
    }
    return b;
}

/* One line on what the job waits for. */
static void s_say(server_t *self, const tasks_t *t, const s_blocked_t *b, int64_t stalled_ms)
{
    size_t alive = peers_names_alive(self->peers);
    char wait[96] = "";
    if (self->opts->stall_ms > 0)
        snprintf(wait, sizeof wait, "; the job ends in %lld s",
                 (long long)((int64_t)self->opts->stall_ms - stalled_ms) / 1000);
    if (b->disputed > 0)
        server_error(self, "verify: %zu disputed task(s) (first: task %zu), waiting for a third worker of "
                     "another %s to settle them (%zu connected)%s", b->disputed, b->first_disputed + 1,
                     self->opts->curve_secret ? "key" : "name", alive, wait);
    if (b->single > 0)
        server_error(self, "verify: %zu task(s) (first: task %zu) have one result, waiting for a second worker "
                     "of another %s (%zu connected)%s", b->single, b->first_single + 1,
                     self->opts->curve_secret ? "key" : "name", alive, wait);
    if (b->refused > 0)
        server_error(self, "%zu task(s) (first: task %zu) that no connected worker takes (%zu connected; refused, "
                     "or --verify wants another worker than the maker; last refusal: %s); waiting for another "
                     "worker%s", b->refused, b->first_refused + 1, alive, t->refuse_reason[0] ? t->refuse_reason
                     : "none", wait);
    if (b->disputed + b->single + b->refused == 0)
        server_log(self, "waiting for workers: %zu tasks queued, none in progress, %zu workers connected",
                   sched_queued_nb(t->sched), peers_count(self->peers));
}

/* Ends the job: exit 3 listing the disputed tasks, else exit 1. */
static void s_end(server_t *self, const tasks_t *t, const s_blocked_t *b)
{
    if (b->disputed > 0) {
        size_t shown = 0;
        for (size_t i = 0; i < t->task_nb && shown < LIST_MAX; i++) {
            int votes, refusals;
            if (sched_done(t->sched, i))
                continue;
            sched_task_state(t->sched, i, &votes, &refusals);
            if (votes >= 2) {
                tasks_report_votes(self, t, i, "disputed, unsettled");
                shown++;
            }
        }
        server_fail(self, "verify: %zu disputed task(s) left unsettled after --stall-timeout %u ms; no total",
                    b->disputed, self->opts->stall_ms);
        self->end_code = SERVER_DISPUTED;
    } else if (b->single > 0) {
        server_fail(self, "verify: no second worker came for %u ms (--stall-timeout); no total", self->opts->stall_ms);
    } else {
        char task[400];
        t->ops->task_text(t, b->first_refused, task, sizeof task);
        server_fail(self, "no worker accepts task %zu (%s; last refusal: %s): waited --stall-timeout %u ms",
                    b->first_refused + 1, task, t->refuse_reason[0] ? t->refuse_reason : "none",
                    self->opts->stall_ms);
    }
}

/* When tasks are queued and none is in progress for a while, says why (disputed verify
 * tasks, tasks refused by every connected worker, a lone verify worker, or no worker at
 * all), again every 30 s; after --stall-timeout with tasks held back, ends the job
 * (server_run returns SERVER_DISPUTED when verify answers disagree, else 1). */
static void s_stall_check(server_t *self, tasks_t *t, int64_t now)
{
    bool stalled = sched_queued_nb(t->sched) > 0 && sched_inflight_nb(t->sched) == 0;
    if (!stalled) {
        self->stall_since = 0;
        return;
    }
    if (self->stall_since == 0) {
        self->stall_since = now;
        self->stall_said_ms = 0;
        return;
    }
    int64_t stalled_ms = now - self->stall_since;
    if (stalled_ms < LEASE_STALL_SAY_MS)
        return;
    bool say = self->stall_said_ms == 0 || now - self->stall_said_ms >= LEASE_STALL_REPEAT_MS;
    bool end = self->opts->stall_ms > 0 && stalled_ms >= (int64_t)self->opts->stall_ms;
    if (!say && !end)
        return;
    s_blocked_t b = s_blocked(self, t);
    if (end && b.disputed + b.single + b.refused > 0) {
        s_end(self, t, &b);
        return;
    }
    if (say) {
        s_say(self, t, &b, stalled_ms);
        self->stall_said_ms = now;
    }
}

static void s_progress(server_t *s, const tasks_t *t, int64_t now)
{
    if (s->opts->quiet || now < s->next_progress_ms)
        return;
    bool tty = report_is_tty();
    s->next_progress_ms = now + (tty ? TTY_PROGRESS_MS : LOG_PROGRESS_MS);
    report_progress_t pr = {.done = sched_done_nb(t->sched), .total = t->task_nb, .loaded = t->loaded,
                            .nodes = t->nodes_done, .noun = t->ops->amount_noun,
                            .seconds = (double)(now - s->start_ms) / 1000.0,
                            .workers = peers_count(s->peers), .tty = tty};
    report_progress(&pr);
}

void tasks_timers(server_t *s, void *job, int64_t now)
{
    s_stall_check(s, job, now);
    s_progress(s, job, now);
}
