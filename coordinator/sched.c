/* sched.c: task states, the queue, leases and verify votes (see sched.h). */
#include "sched.h"

#include <stdlib.h>
#include <string.h>

#include "lease.h"
#include "sched_priv.h"

static void s_changed(sched_t *self);

static void s_push(sched_t *self, size_t i, bool front)
{
    if (self->ring_nb == self->ring_cap)
        return; /* cannot happen: each task is queued at most LEASE_MAX times */
    if (front) {
        self->ring_head = (self->ring_head + self->ring_cap - 1) % self->ring_cap;
        self->ring[self->ring_head] = (uint32_t)i;
    } else {
        self->ring[(self->ring_head + self->ring_nb) % self->ring_cap] = (uint32_t)i;
    }
    self->ring_nb++;
    self->tasks[i].queued_nb++;
}

/* Removes the queue entry at offset k from the front (order of the rest may change). */
static void s_remove_at(sched_t *self, size_t k)
{
    size_t at = (self->ring_head + k) % self->ring_cap;
    self->tasks[self->ring[at]].queued_nb--;
    self->ring[at] = self->ring[self->ring_head];
    self->ring_head = (self->ring_head + 1) % self->ring_cap;
    self->ring_nb--;
}

static void s_unqueue_one(sched_t *self, size_t i)
{
    for (size_t k = 0; k < self->ring_nb; k++)
        if (self->ring[(self->ring_head + k) % self->ring_cap] == i) {
            s_remove_at(self, k);
            return;
        }
}

static void s_unqueue_all(sched_t *self, size_t i)
{
    for (size_t k = 0; k < self->ring_nb && self->tasks[i].queued_nb > 0;) {
        if (self->ring[(self->ring_head + k) % self->ring_cap] == i)
            s_remove_at(self, k);
        else
            k++;
    }
}

static void s_inflight_add(sched_t *self, size_t i)
{
    if (self->tasks[i].inflight_pos != NO_POS)
        return;
    self->tasks[i].inflight_pos = (uint32_t)self->inflight_nb;
    self->inflight[self->inflight_nb++] = (uint32_t)i;
}

static void s_inflight_del(sched_t *self, size_t i)
{
    uint32_t pos = self->tasks[i].inflight_pos;
    if (pos == NO_POS)
        return;
    uint32_t last = self->inflight[--self->inflight_nb];
    self->inflight[pos] = last;
    self->tasks[last].inflight_pos = pos;
    self->tasks[i].inflight_pos = NO_POS;
}

/* held: no task queued (sched_ready queues them); else all queued in index order. */
static sched_t *s_new(size_t task_nb, bool verify, bool with_stats, bool held)
{
    sched_t *self = calloc(1, sizeof *self);
    if (self == NULL)
        return NULL;
    size_t n = task_nb ? task_nb : 1;
    self->task_nb = task_nb;
    self->verify = verify;
    self->with_stats = with_stats;
    self->tasks = calloc(n, sizeof *self->tasks);
    self->answers = calloc(n, sizeof *self->answers);
    self->ring_cap = n * LEASE_MAX + 16;
    self->ring = calloc(self->ring_cap, sizeof *self->ring);
    self->inflight = calloc(n, sizeof *self->inflight);
    if (with_stats)
        self->stats = calloc(n, sizeof *self->stats);
    if (verify)
        self->votes = calloc(n, sizeof *self->votes);
    if (verify && with_stats)
        self->vote_stats = calloc(n, sizeof *self->vote_stats);
    bool ranged = !verify && !held;
    if (ranged)
        self->ranges = calloc(RANGES_MAX, sizeof *self->ranges);
    if (!self->tasks || !self->answers || !self->ring || !self->inflight || (with_stats && !self->stats) ||
        (verify && !self->votes) || (verify && with_stats && !self->vote_stats) || (ranged && !self->ranges)) {
        sched_destroy(&self);
        return NULL;
    }
    for (size_t i = 0; i < task_nb; i++) {
        self->tasks[i].want = verify ? 2 : 1;
        self->tasks[i].inflight_pos = NO_POS;
        for (int c = 0; verify && c < self->tasks[i].want; c++)
            s_push(self, i, false);
    }
    self->copies = false; /* rule 3 is for the kinds that ask for it (sched_set_copies) */
    if (ranged) { /* all fresh tasks start as one orphan range: the first worker takes it whole */
        self->ranges[0] = (s_range_t){.serial = UINT32_MAX, .orphan = true, .next = 0, .end = task_nb};
        self->range_nb = 1;
        self->fresh_nb = task_nb;
    }
    return self;
}

sched_t *sched_new(size_t task_nb, bool verify, bool with_stats)
{
    return s_new(task_nb, verify, with_stats, false);
}

sched_t *sched_new_held(size_t task_nb)
{
    return s_new(task_nb, false, false, true);
}

void sched_on_end(sched_t *self, sched_end_fn fn, void *ctx)
{
    self->on_end = fn;
    self->on_end_ctx = ctx;
}

void sched_destroy(sched_t **self_p)
{
    sched_t *self = *self_p;
    if (self == NULL)
        return;
    free(self->tasks);
    free(self->answers);
    free(self->stats);
    free(self->votes);
    free(self->vote_stats);
    free(self->ring);
    free(self->inflight);
    free(self->ranges);
    free(self);
    *self_p = NULL;
}

static void s_mark_done(sched_t *self, size_t i, sched_answer_t answer, const perft_stats_t *stats)
{
    s_task_t *t = &self->tasks[i];
    t->done = true;
    t->lease_nb = 0;
    lease_done(&t->mem);
    s_inflight_del(self, i);
    s_unqueue_all(self, i);
    self->answers[i] = answer;
    if (self->with_stats && stats != NULL)
        self->stats[i] = *stats;
    self->done_nb++;
}

void sched_preload(sched_t *self, size_t i, sched_answer_t answer, const perft_stats_t *stats)
{
    if (i < self->task_nb && !self->tasks[i].done) {
        s_mark_done(self, i, answer, stats);
        if (self->ranges != NULL)
            self->fresh_nb--; /* still inside a range: skipped when reached */
        s_changed(self);
    }
}

/* May the worker `name_id` take task i? Not if it refused it, holds it, or voted on it. */
static bool s_eligible(const sched_t *self, size_t i, uint16_t name_id)
{
    const s_task_t *t = &self->tasks[i];
    if (!lease_allowed(&t->mem, name_id))
        return false;
    if (!self->verify)
        return true;
    for (int k = 0; k < t->lease_nb; k++)
        if (t->lease[k].name_id == name_id)
            return false;
    for (int k = 0; k < t->vote_nb; k++)
        if (self->votes[i][k].name_id == name_id)
            return false;
    return true;
}

static void s_lease(sched_t *self, size_t i, uint32_t serial, uint16_t name_id, int64_t deadline_ms)
{
    s_task_t *t = &self->tasks[i];
    if (t->lease_nb == 0)
        t->leased_at = ++self->lease_seq;
    t->lease[t->lease_nb++] = (s_lease_t){serial, name_id, deadline_ms};
    t->leases_given++;
    s_inflight_add(self, i);
}

long sched_next(sched_t *self, uint32_t serial, uint16_t name_id, int64_t deadline_ms)
{
    /* Re-queued tasks first (they are late), then fresh ones. */
    for (size_t k = 0; k < self->ring_nb; k++) {
        size_t i = self->ring[(self->ring_head + k) % self->ring_cap];
        s_task_t *t = &self->tasks[i];
        if (!s_eligible(self, i, name_id) || t->lease_nb == LEASE_MAX)
            continue;
        s_remove_at(self, k);
        s_lease(self, i, serial, name_id, deadline_ms);
        s_changed(self);
        return (long)i;
    }
    long i = self->ranges != NULL ? sched_range_next_fresh(self, serial) : -1;
    if (i >= 0) {
        s_lease(self, (size_t)i, serial, name_id, deadline_ms);
        s_changed(self);
    }
    return i;
}

void sched_ready(sched_t *self, size_t i)
{
    const s_task_t *t = &self->tasks[i];
    if (!t->done && t->queued_nb == 0 && t->lease_nb == 0)
        s_push(self, i, false);
}

void sched_reopen(sched_t *self, size_t i)
{
    s_task_t *t = &self->tasks[i];
    if (!t->done)
        return;
    t->done = false;
    self->done_nb--;
    s_push(self, i, false);
}

long sched_next_best(sched_t *self, uint32_t serial, uint16_t name_id, int64_t deadline_ms, sched_rank_fn rank,
                     void *ctx)
{
    long best = -1, best_rank = -1;
    size_t best_k = 0;
    for (size_t k = 0; k < self->ring_nb; k++) {
        size_t i = self->ring[(self->ring_head + k) % self->ring_cap];
        if (!s_eligible(self, i, name_id) || self->tasks[i].lease_nb == LEASE_MAX)
            continue;
        long r = rank(ctx, i, name_id);
        if (r > best_rank) {
            best = (long)i, best_rank = r, best_k = k;
        }
    }
    if (best >= 0) {
        s_remove_at(self, best_k);
        s_lease(self, (size_t)best, serial, name_id, deadline_ms);
    }
    return best;
}

void sched_renew(sched_t *self, uint32_t serial, int64_t deadline_ms)
{
    for (size_t k = 0; k < self->inflight_nb; k++) {
        s_task_t *t = &self->tasks[self->inflight[k]];
        for (int l = 0; l < t->lease_nb; l++)
            if (t->lease[l].serial == serial && t->lease[l].deadline < deadline_ms)
                t->lease[l].deadline = deadline_ms;
    }
}

/* Ends lease l of task i; expired: a late result of that worker is still taken (lease.h, rule 1).
 * The task goes back to the queue unless its other copies still cover it (rule 3). */
static void s_end_lease(sched_t *self, size_t i, int l, bool expired, bool front)
{
    s_task_t *t = &self->tasks[i];
    uint32_t serial = t->lease[l].serial;
    if (expired)
        lease_expired(&t->mem, serial, 0);
    t->lease[l] = t->lease[--t->lease_nb];
    t->leases_ended++;
    if (t->lease_nb == 0)
        s_inflight_del(self, i);
    if (t->lease_nb + t->vote_nb + t->queued_nb < t->want)
        s_push(self, i, front);
    if (self->on_end != NULL)
        self->on_end(self->on_end_ctx, i, serial);
}

/* Whether `serial` or principal `name_id` holds a lease of task t. */
static bool s_holds(const s_task_t *t, uint32_t serial, uint16_t name_id)
{
    for (int l = 0; l < t->lease_nb; l++)
        if (t->lease[l].serial == serial || t->lease[l].name_id == name_id)
            return true;
    return false;
}

/* Whether running task i may get one more copy (lease.h, rule 3). */
static bool s_copy_wanted(const sched_t *self, size_t i)
{
    const s_task_t *t = &self->tasks[i];
    return t->lease_nb < LEASE_MAX && lease_copy_wanted(t->lease_nb, t->vote_nb, t->queued_nb, t->want);
}

long sched_copy(sched_t *self, uint32_t serial, uint16_t name_id, int64_t deadline_ms)
{
    if (!self->copies || self->ring_nb + self->fresh_nb > 0)
        return -1; /* tasks wait in the queue: they go first */
    long best = -1;
    for (size_t k = 0; k < self->inflight_nb; k++) {
        size_t i = self->inflight[k];
        const s_task_t *t = &self->tasks[i];
        if (!s_copy_wanted(self, i) || s_holds(t, serial, name_id) || !s_eligible(self, i, name_id))
            continue;
        if (best < 0 || t->leased_at < self->tasks[best].leased_at)
            best = (long)i;
    }
    if (best >= 0) {
        s_lease(self, (size_t)best, serial, name_id, deadline_ms);
        self->copies_nb++;
        s_changed(self);
    }
    return best;
}

/* After every change of a task's state: whether a copy is wanted now. The scan runs only once the
 * queue is empty (the job's tail, at most one task per worker in flight), so that asking
 * (sched_copy_wanted, for every worker on every turn of the server's loop) costs nothing. */
static void s_changed(sched_t *self)
{
    self->copy_wanted = false;
    if (!self->copies || self->ring_nb + self->fresh_nb > 0)
        return;
    for (size_t k = 0; k < self->inflight_nb && !self->copy_wanted; k++)
        self->copy_wanted = s_copy_wanted(self, self->inflight[k]);
}

bool sched_copy_wanted(const sched_t *self)
{
    return self->copy_wanted;
}

void sched_set_copies(sched_t *self, bool on)
{
    self->copies = on;
    s_changed(self);
}

size_t sched_expire(sched_t *self, int64_t now_ms)
{
    size_t n = 0;
    for (size_t k = 0; k < self->inflight_nb;) {
        size_t i = self->inflight[k];
        s_task_t *t = &self->tasks[i];
        bool ended = false;
        for (int l = 0; l < t->lease_nb; l++) {
            if (t->lease[l].deadline <= now_ms) {
                s_end_lease(self, i, l, true, true);
                n++;
                ended = true;
                break;
            }
        }
        if (!ended)
            k++;
    }
    if (n > 0)
        s_changed(self);
    return n;
}

/* Index of the lease of `serial` on task i, or -1. */
static int s_find_lease(const s_task_t *t, uint32_t serial)
{
    for (int l = 0; l < t->lease_nb; l++)
        if (t->lease[l].serial == serial)
            return l;
    return -1;
}

size_t sched_drop_serial(sched_t *self, uint32_t serial)
{
    size_t n = 0;
    s_range_t *r = self->ranges != NULL ? sched_range_of(self, serial) : NULL;
    if (r != NULL)
        r->orphan = true;
    for (size_t k = 0; k < self->inflight_nb;) {
        size_t i = self->inflight[k];
        int l = s_find_lease(&self->tasks[i], serial);
        if (l >= 0) {
            s_end_lease(self, i, l, false, true);
            n++;
        } else {
            k++;
        }
    }
    if (n > 0)
        s_changed(self);
    return n;
}

bool sched_handback(sched_t *self, size_t i, uint32_t serial)
{
    if (i >= self->task_nb || self->tasks[i].done)
        return false;
    int l = s_find_lease(&self->tasks[i], serial);
    if (l < 0)
        return false;
    s_end_lease(self, i, l, false, true);
    s_changed(self);
    return true;
}

int sched_refuse(sched_t *self, size_t i, uint32_t serial, uint16_t name_id)
{
    if (i >= self->task_nb || self->tasks[i].done)
        return 0;
    s_task_t *t = &self->tasks[i];
    int l = s_find_lease(t, serial);
    if (l < 0)
        return 0;
    int n = lease_refused(&t->mem, name_id);
    s_end_lease(self, i, l, false, false);
    s_changed(self);
    return n;
}

bool sched_take(sched_t *self, size_t i, uint32_t serial, uint16_t name_id, int64_t deadline_ms)
{
    s_task_t *t = &self->tasks[i];
    if (t->done)
        return false;
    if (s_find_lease(t, serial) >= 0)
        return true;
    if (t->lease_nb == LEASE_MAX || !lease_take_late(&t->mem, serial, 0))
        return false;
    if (t->queued_nb > 0)
        s_unqueue_one(self, i);
    s_lease(self, i, serial, name_id, deadline_ms);
    return true;
}

bool sched_withdraw(sched_t *self, size_t i, uint32_t serial)
{
    s_task_t *t = &self->tasks[i];
    int l = s_find_lease(t, serial);
    if (l < 0)
        return false;
    t->lease[l] = t->lease[--t->lease_nb];
    if (t->lease_nb == 0)
        s_inflight_del(self, i);
    return true;
}

bool sched_holds(const sched_t *self, size_t i, uint32_t serial)
{
    return s_find_lease(&self->tasks[i], serial) >= 0;
}

bool sched_leased(const sched_t *self, size_t i)
{
    return self->tasks[i].lease_nb > 0;
}

bool sched_queued(const sched_t *self, size_t i)
{
    return self->tasks[i].queued_nb > 0;
}

bool sched_allowed(const sched_t *self, size_t i, uint16_t name_id)
{
    return lease_allowed(&self->tasks[i].mem, name_id);
}

static bool s_stats_equal(const perft_stats_t *a, const perft_stats_t *b)
{
    return a == NULL || b == NULL || memcmp(a, b, sizeof *a) == 0;
}

/* Verify: records a vote and decides. */
static sched_outcome_t s_vote(sched_t *self, size_t i, uint16_t name_id, sched_answer_t answer,
                              const perft_stats_t *stats)
{
    s_task_t *t = &self->tasks[i];
    for (int k = 0; k < t->vote_nb; k++)
        if (self->votes[i][k].name_id == name_id)
            return SCHED_DUPLICATE;
    int v = t->vote_nb++;
    self->votes[i][v] = (sched_vote_t){name_id, answer};
    if (self->vote_stats && stats)
        self->vote_stats[i][v] = *stats;
    while (t->queued_nb > 0 && t->queued_nb + t->lease_nb + t->vote_nb > t->want)
        s_unqueue_one(self, i); /* a late result made a queued copy unneeded */
    for (int a = 0; a < t->vote_nb; a++)
        for (int b = a + 1; b < t->vote_nb; b++) {
            const perft_stats_t *sa = self->vote_stats ? &self->vote_stats[i][a] : NULL;
            const perft_stats_t *sb = self->vote_stats ? &self->vote_stats[i][b] : NULL;
            if (self->votes[i][a].answer == self->votes[i][b].answer && s_stats_equal(sa, sb)) {
                s_mark_done(self, i, self->votes[i][a].answer, sa);
                return SCHED_ACCEPTED;
            }
        }
    if (t->vote_nb < 2)
        return SCHED_PENDING;
    if (t->vote_nb >= VOTE_MAX)
        return SCHED_NO_MAJORITY;
    t->want = 3;
    if (t->queued_nb + t->lease_nb == 0)
        s_push(self, i, true);
    return SCHED_DISAGREE;
}

/* sched_result's decision, before s_changed. */
static sched_outcome_t s_result(sched_t *self, size_t i, uint32_t serial, uint16_t name_id, sched_answer_t answer,
                                const perft_stats_t *stats)
{
    s_task_t *t = &self->tasks[i];
    if (t->done) {
        bool same = self->answers[i] == answer && (!self->with_stats || s_stats_equal(&self->stats[i], stats));
        return same ? SCHED_DUPLICATE : SCHED_CONFLICT;
    }
    int l = s_find_lease(t, serial);
    if (l >= 0) {
        t->lease[l] = t->lease[--t->lease_nb];
        if (t->lease_nb == 0)
            s_inflight_del(self, i);
    } else if (!lease_take_late(&t->mem, serial, 0)) {
        return SCHED_NOT_LEASED;
    }
    if (!self->verify) {
        s_mark_done(self, i, answer, stats);
        return SCHED_ACCEPTED;
    }
    return s_vote(self, i, name_id, answer, stats);
}

sched_outcome_t sched_result(sched_t *self, size_t i, uint32_t serial, uint16_t name_id, sched_answer_t answer,
                             const perft_stats_t *stats)
{
    sched_outcome_t o = s_result(self, i, serial, name_id, answer, stats);
    s_changed(self);
    return o;
}

int sched_votes(const sched_t *self, size_t i, sched_vote_t votes[3])
{
    if (!self->verify)
        return 0;
    const s_task_t *t = &self->tasks[i];
    memcpy(votes, self->votes[i], sizeof(sched_vote_t) * t->vote_nb);
    return t->vote_nb;
}

void sched_task_state(const sched_t *self, size_t i, int *votes, int *refusals)
{
    *votes = self->tasks[i].vote_nb;
    *refusals = self->tasks[i].mem.refusers_nb;
}

bool sched_done(const sched_t *self, size_t i) { return self->tasks[i].done; }
void sched_task_counts(const sched_t *self, size_t i, uint32_t *leases, uint32_t *ended)
{
    *leases = self->tasks[i].leases_given;
    *ended = self->tasks[i].leases_ended;
}
const sched_answer_t *sched_answers(const sched_t *self) { return self->answers; }
const perft_stats_t *sched_stats(const sched_t *self) { return self->stats; }
size_t sched_done_nb(const sched_t *self) { return self->done_nb; }
size_t sched_queued_nb(const sched_t *self) { return self->ring_nb + self->fresh_nb; }
size_t sched_inflight_nb(const sched_t *self) { return self->inflight_nb; }
uint64_t sched_copies_nb(const sched_t *self) { return self->copies_nb; }
