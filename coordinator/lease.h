/* lease.h: the rules of the task life cycle that every job kind follows, written once
 * (docs/cluster-design.md, "Task life cycle"): which late answers count, how refusals
 * are remembered, and when a stalled job speaks. sched.c keeps one lease_memory_t per task
 * (every kind: perft, analyse and solve) and asks it.
 *
 * Rule 1, late answers: when a lease expires (its worker was silent past the lease), the
 * task goes back to the queue and the lease is remembered; the answer that worker sends
 * later is still taken while the task is not done, even if the task was leased again
 * meanwhile (the work is done; answers are checked whatever their timing). The last
 * LEASE_LATE_MAX expired leases of a task are remembered; a lease that ended otherwise
 * (the session died or said BYE, handed the task back, refused it) is not: its answers
 * are dropped.
 *
 * Rule 2, refusals: a principal (a CURVE key, or a worker name) that refused a task is
 * not offered it again. A task remembers up to LEASE_REFUSERS_MAX principals; one more
 * refusal forgets the oldest, which may then be offered the task again (a job with many
 * refusing workers keeps asking rather than starving).
 *
 * Rule 3, stragglers: the end of a job must not wait for its slowest worker. When no task
 * waits in the queue and a worker is idle (it holds no task), it is handed a copy of the
 * running task leased longest ago that it may take (rule 2; not one it holds or answered),
 * if that task has no spare copy yet: lease_copy_wanted. The first answer that passes the
 * checks counts (under --verify the usual agreement of two workers decides); the other
 * copy's answer is then a duplicate, dropped (or reported if it differs). An expired or
 * ended lease of a task whose other copies still cover it sends nothing back to the queue. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

enum {
    LEASE_LATE_MAX = 2,          /* expired leases remembered per task */
    LEASE_REFUSERS_MAX = 8,      /* refusing principals remembered per task */
    LEASE_STALL_SAY_MS = 2000,   /* a job stalled this long says what it waits for ... */
    LEASE_STALL_REPEAT_MS = 30000 /* ... and again after this long */
};

/* One expired lease: its session and its task id (0 when the task id is the task's own). */
typedef struct {
    uint32_t serial;
    uint64_t task_id;
} lease_late_t;

/* What a task remembers of its past leases; zero-initialised: nothing. */
typedef struct {
    lease_late_t late[LEASE_LATE_MAX];
    uint16_t refusers[LEASE_REFUSERS_MAX];
    uint8_t late_nb, refusers_nb;
} lease_memory_t;

/* Rule 1: the lease (serial, task_id) expired; its late answer will be taken. */
void lease_expired(lease_memory_t *m, uint32_t serial, uint64_t task_id);

/* Rule 1: whether an answer from serial under task_id is a late answer to take; if so it
 * is forgotten (taken once). */
bool lease_take_late(lease_memory_t *m, uint32_t serial, uint64_t task_id);

/* Whether (serial, task_id) is a remembered expired lease (not forgotten). */
bool lease_is_late(const lease_memory_t *m, uint32_t serial, uint64_t task_id);

/* The task is done: no late answer is taken any more. */
void lease_done(lease_memory_t *m);

/* Rule 2: principal who refused the task. Returns how many principals the task remembers. */
int lease_refused(lease_memory_t *m, uint16_t who);

/* Rule 2: whether principal who may be offered the task. */
bool lease_allowed(const lease_memory_t *m, uint16_t who);

/* Rule 3: whether a running task (leases > 0 live leases, answers kept, `want` answers needed:
 * 1, or 2 and more under --verify), none of it queued, may be copied to an idle worker: its
 * copies out and answers in do not exceed what it needs, so one spare copy at most. */
bool lease_copy_wanted(int leases, int answers, int queued, int want);
