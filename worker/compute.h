/* compute.h: the worker's pool of compute threads, fed and drained by the I/O thread; it
 * runs every kind of task (wkind.h: perft counts, analysis searches, solved pairs) through the
 * kind's row.
 *
 * The exclusive rule (a row's `exclusive`, e.g. a solve pair, which runs threads of its own):
 * an exclusive task waits in the queue until no thread is running a task, then runs alone;
 * while it is queued or running no other task starts and compute_submit takes no other task. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wkind.h"

typedef struct compute_s compute_t;

/* Starts `threads` compute threads for the kind_nb kinds of `kinds` (each row's
 * shared_new gets hash_bytes; a thread may make tables of hash_bytes / threads
 * for itself: wkind_env_t). A
 * finished task writes one byte to wake_fd (non-blocking) only when exactly
 * low_water tasks are left waiting (time to ask for more) or nothing is
 * queued or running any more; in between, finished tasks pile up so that the
 * I/O thread can send them in one batch (it also takes them on its own
 * timer). low_water 0: every finished task wakes it.
 * Returns NULL with a message in err if the table, threads or memory cannot
 * be had. */
compute_t *compute_new(const wkind_t *const *kinds, int kind_nb, int threads, size_t hash_bytes, int wake_fd,
                       size_t low_water, char *err, size_t errlen);

/* Queues a task (of one of the pool's kinds) for the next free thread; the pool owns
 * job->arg from then on. Returns 0, -1 out of memory, or -2 while an exclusive task is
 * queued or running (job->arg is still the caller's on both errors). */
int compute_submit(compute_t *self, const compute_job_t *job);

/* Pops one finished task into *out (out->result is the caller's to free); false if there is none. */
bool compute_take(compute_t *self, compute_done_t *out);

/* Removes every queued (not yet started) task and returns how many. */
size_t compute_drop_queued(compute_t *self);

/* Task ids of generation `gen` that are queued or running, up to cap; returns how many. */
size_t compute_ids(compute_t *self, uint32_t gen, uint64_t *ids, size_t cap);

/* Whether an exclusive task is queued or running (the pool takes no other task). */
bool compute_exclusive(compute_t *self);

/* Tasks queued, running, or finished and not yet taken, of any generation. */
size_t compute_busy(compute_t *self);

/* Stops the threads (after their current task) and frees everything; NULLs *self_p. */
void compute_destroy(compute_t **self_p);
