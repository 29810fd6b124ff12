/* compute.h: the worker's pool of compute threads (perft counts, and the
 * searches of OCTP/3 ANALYSE tasks: wanalyse.h), fed and drained by the I/O thread. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "game.h"

/* One task to count, already parsed by the I/O thread. */
typedef struct {
    uint64_t task_id;
    uint64_t job_id;
    uint32_t gen;       /* session generation the task belongs to */
    game_pos_t pos;
    int depth;          /* >= 0 */
    bool want_stats;
    bool analyse;           /* a search (wanalyse.h), not a count */
    engine_game_t *game;    /* analyse: the game up to pos, owned by the job (the pool frees it) */
    engine_move_t move;     /* analyse: the one root move searched */
    uint32_t hash_mb;       /* analyse: the search's table size */
    unsigned delay_ms;      /* analyse, testing only: the thread waits this long first */
} compute_job_t;

/* One finished task. */
typedef struct {
    uint64_t task_id;
    uint64_t job_id;
    uint32_t gen;
    count_t nodes;
    bool has_stats;
    perft_stats_t stats;
    uint64_t elapsed_ms;
    bool analyse;           /* a search: the fields below */
    bool failed;            /* its table could not be allocated */
    int score, seldepth;
    uint8_t bound;          /* MSG_BOUND_* */
    uint64_t search_nodes;  /* the search's nodes */
    uint32_t n_pv;
    char pv[ENGINE_MAX_PLY][MOVE_TEXT_MAX];
} compute_done_t;

typedef struct compute_s compute_t;

/* Starts `threads` compute threads. Octad tasks share one table of
 * hash_bytes where that stays exact (game_tt_shareable); other variants get
 * a table per thread of hash_bytes / threads; hash_bytes 0: no tables. A
 * finished task writes one byte to wake_fd (non-blocking) only when exactly
 * low_water tasks are left waiting (time to ask for more) or nothing is
 * queued or running any more; in between, finished tasks pile up so that the
 * I/O thread can send them in one batch (it also takes them on its own
 * timer). low_water 0: every finished task wakes it.
 * Returns NULL with a message in err if the table, threads or memory cannot
 * be had. */
compute_t *compute_new(int threads, size_t hash_bytes, int wake_fd, size_t low_water, char *err, size_t errlen);

/* Queues a task for the next free thread. Returns 0, or -1 out of memory. */
int compute_submit(compute_t *self, const compute_job_t *job);

/* Pops one finished task into *out; false if there is none. */
bool compute_take(compute_t *self, compute_done_t *out);

/* Removes every queued (not yet started) task and returns how many. */
size_t compute_drop_queued(compute_t *self);

/* Task ids of generation `gen` that are queued or running, up to cap; returns how many. */
size_t compute_ids(compute_t *self, uint32_t gen, uint64_t *ids, size_t cap);

/* Tasks queued, running, or finished and not yet taken, of any generation. */
size_t compute_busy(compute_t *self);

/* Stops the threads (after their current task) and frees everything; NULLs *self_p. */
void compute_destroy(compute_t **self_p);
