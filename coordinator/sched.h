/* sched.h: the task life cycle: queued -> leased -> done, leases, late and
 * duplicate results, refusals and verify mode (docs/cluster-design.md).
 *
 * Workers are named by a session serial (unique per WELCOME, never reused)
 * and a name id (the same for every session of one worker name), so verify
 * mode can insist on two *different* workers. Task indices are 0-based here;
 * on the wire the task id is index + 1.
 *
 * The scheduler knows no kind: a task's answer is a sched_answer_t that the kind
 * derives from the result it received and checked, equal for two results exactly
 * when the results are equal (what --verify compares): perft's is the count
 * itself (with its stats, compared too when kept); analyse's is the number
 * ajob_answer gives each distinct result of a task (the result itself stays in
 * the kind). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "types.h"

typedef struct sched_s sched_t;

/* A task's answer, as the kind derives it (above). */
typedef count_t sched_answer_t;

/* What a RESULT did. */
typedef enum {
    SCHED_ACCEPTED,     /* the task is now done with this answer (journal it, count it) */
    SCHED_PENDING,      /* verify: recorded, waiting for another worker's result */
    SCHED_DUPLICATE,    /* task already done; same answer (dropped) */
    SCHED_CONFLICT,     /* task already done with a different answer (reported) */
    SCHED_DISAGREE,     /* verify: two workers disagree; sent to a third */
    SCHED_NO_MAJORITY,  /* verify: three different answers: the job fails */
    SCHED_NOT_LEASED    /* this worker never held the task: dropped */
} sched_outcome_t;

/* One verify result kept for reports. */
typedef struct {
    uint16_t name_id;
    sched_answer_t answer;
} sched_vote_t;

/* New scheduler of task_nb tasks, all queued in index order. verify: each
 * task needs two agreeing results from workers of different names. Stats
 * are kept per task when with_stats. NULL when out of memory. */
sched_t *sched_new(size_t task_nb, bool verify, bool with_stats);

/* New scheduler of task_nb tasks of which none is queued: a task waits until the kind says
 * it is ready (sched_ready), e.g. a solve pair whose inputs are done. No verify votes (a
 * kind that checks its results adds a follow-up task), no stats. NULL when out of memory. */
sched_t *sched_new_held(size_t task_nb);

/* Frees *self_p; NULLs it. */
void sched_destroy(sched_t **self_p);

/* Task i (held, never queued or leased, not done) may now go to a worker: queued. */
void sched_ready(sched_t *self, size_t i);

/* Done task i is not done after all (its result was found wrong): queued again. */
void sched_reopen(sched_t *self, size_t i);

/* How a kind ranks queued task i for a worker (sched_next_best): < 0 when it does not fit
 * that worker, else higher goes first (ties: queue order). */
typedef long (*sched_rank_fn)(void *ctx, size_t i, uint16_t name_id);

/* As sched_next, over the queued tasks only, choosing the highest rank. */
long sched_next_best(sched_t *self, uint32_t serial, uint16_t name_id, int64_t deadline_ms, sched_rank_fn rank,
                     void *ctx);

/* Called with (ctx, task, serial) whenever a lease ends without an answer taken: expired,
 * its session ended, handed back, refused (not sched_withdraw, not when the task is done). */
typedef void (*sched_end_fn)(void *ctx, size_t i, uint32_t serial);
void sched_on_end(sched_t *self, sched_end_fn fn, void *ctx);

/* Marks task i done with a known answer (from the journal) before dispatching. */
void sched_preload(sched_t *self, size_t i, sched_answer_t answer, const perft_stats_t *stats);

/* Picks the next task for a worker and leases it until `deadline_ms`.
 * Returns the index, or -1 if no queued task may go to this worker. */
long sched_next(sched_t *self, uint32_t serial, uint16_t name_id, int64_t deadline_ms);

/* Stragglers (lease.h, rule 3): when no task is queued, leases to an idle worker a copy of the
 * running task leased longest ago that it may take and that has no spare copy yet, until
 * `deadline_ms`. Returns the index, or -1 if there is none. The caller calls it only for a
 * worker that holds no task. */
long sched_copy(sched_t *self, uint32_t serial, uint16_t name_id, int64_t deadline_ms);

/* Whether no task is queued and a running task may be copied (rule 3): idle workers have work.
 * Kept up to date by every change, so asking costs nothing. */
bool sched_copy_wanted(const sched_t *self);

/* Rule 3 on or off. Off in a new scheduler: the kinds whose tasks may run twice turn it on (perft
 * and analyse, unless coordinator --no-copies); solve's pairs are exclusive and fetched, not copied. */
void sched_set_copies(sched_t *self, bool on);

/* Pushes back a lease's deadline: called whenever the holder is heard from. */
void sched_renew(sched_t *self, uint32_t serial, int64_t deadline_ms);

/* Re-queues every task whose lease is past its deadline; returns how many. */
size_t sched_expire(sched_t *self, int64_t now_ms);

/* A worker session ended (dead, BYE): its leases go back to the queue. Returns how many. */
size_t sched_drop_serial(sched_t *self, uint32_t serial);

/* HANDBACK of task i by a worker: re-queued at once if it held it. Returns true if it did. */
bool sched_handback(sched_t *self, size_t i, uint32_t serial);

/* REFUSE of task i: not offered to that name again (lease.h, rule 2). Returns the
 * number of names the task remembers as refusing it, or 0 if the worker did not hold it. */
int sched_refuse(sched_t *self, size_t i, uint32_t serial, uint16_t name_id);

/* An answer of serial for task i that the kind must fetch or check before it is a result
 * (a solve pair's files): true when serial holds a lease on i, or held one that expired
 * (lease.h, rule 1: it then holds i again until deadline_ms); false: drop the answer. */
bool sched_take(sched_t *self, size_t i, uint32_t serial, uint16_t name_id, int64_t deadline_ms);

/* Ends serial's lease on task i without queueing it (another worker's answer to it is being
 * taken, or the task waits for something else). Returns true if serial held it. */
bool sched_withdraw(sched_t *self, size_t i, uint32_t serial);

/* Whether serial holds a lease on task i; whether any session does. */
bool sched_holds(const sched_t *self, size_t i, uint32_t serial);
bool sched_leased(const sched_t *self, size_t i);
/* Whether task i waits in the queue. */
bool sched_queued(const sched_t *self, size_t i);

/* Whether name_id may be offered task i (it did not refuse it: lease.h, rule 2). */
bool sched_allowed(const sched_t *self, size_t i, uint16_t name_id);

/* A RESULT for task i from a worker: taken under its lease, or late after its lease
 * expired (lease.h, rule 1). On SCHED_ACCEPTED the task is done. */
sched_outcome_t sched_result(sched_t *self, size_t i, uint32_t serial, uint16_t name_id, sched_answer_t answer,
                             const perft_stats_t *stats);

/* The verify results of task i (up to 3) into votes; returns how many. */
int sched_votes(const sched_t *self, size_t i, sched_vote_t votes[3]);

/* What holds a task back: its verify results so far (votes) and how many
 * names refused it (refusals). */
void sched_task_state(const sched_t *self, size_t i, int *votes, int *refusals);

/* How many leases task i was given in this scheduler's life (copies and a late answer's
 * renewed lease included), and how many of them ended without an answer taken (expired,
 * their session ended, handed back, refused): the times it went back. */
void sched_task_counts(const sched_t *self, size_t i, uint32_t *leases, uint32_t *ended);

/* Whether task i is done, and its count. */
bool sched_done(const sched_t *self, size_t i);

/* Per-task answers and stats (stats NULL unless with_stats); valid for done tasks. */
const sched_answer_t *sched_answers(const sched_t *self);
const perft_stats_t *sched_stats(const sched_t *self);

/* Tasks done, queued entries, and leased tasks. */
size_t sched_done_nb(const sched_t *self);
size_t sched_queued_nb(const sched_t *self);
size_t sched_inflight_nb(const sched_t *self);
/* Copies of running tasks given to idle workers so far (sched_copy). */
uint64_t sched_copies_nb(const sched_t *self);
