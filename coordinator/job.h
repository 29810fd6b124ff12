/* job.h: one perft job cut into tasks: the split, the job key, and adding up the counts. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "split.h"

typedef struct {
    game_pos_t root;
    int depth;
    bool stats;
    size_t min_tasks;         /* split parameters, part of the job key */
    int max_ply;
    split_t split;            /* empty in a dispatch benchmark */
    size_t task_nb;
    bool verify;                   /* every task computed twice: part of the job key */
    bool bench;               /* depth-0 tasks of the root, each worth 1 */
    char job_key[512];
    uint64_t job_id;          /* FNV-1a of job_key, never 0 */
} job_t;

/* Final numbers of a job. */
typedef struct {
    count_t nodes;
    perft_stats_t stats;
    int root_nb;
    char root_uoi[GAME_MOVES_MAX][MOVE_TEXT_MAX];
    count_t root_nodes[GAME_MOVES_MAX];
} job_total_t;

/* How many tasks an automatic split wants: 32 per local thread, and at least
 * 256 unless only local threads sharing one table compute (shared_table).
 * Deeper frontiers balance remote workers of unknown number and merge more
 * transpositions into one task, which saves work only where workers do not
 * share a table; each task costs the coordinator messages and wake-ups
 * (docs/cluster-design.md). */
size_t job_auto_tasks(int local_threads, bool shared_table);

/* Splits perft(root, depth) deterministically from the command line only:
 * frontier ply split_depth exactly (split_depth >= 0, < depth), or auto: at
 * least auto_tasks tasks (job_auto_tasks), frontier at most 6 plies.
 * Returns 0, or -1 with a message (out of memory). */
int job_new(job_t *self, const game_pos_t *root, int depth, bool stats, int split_depth,
            size_t auto_tasks, char *err, size_t errlen);

/* Marks the job as verified (--verify) and remakes its key, so a journal
 * written without verification is not resumed as if it had been. */
void job_set_verify(job_t *self);

/* A dispatch benchmark: n tasks of depth 0 of the root, each counting 1. */
int job_new_bench(job_t *self, const game_pos_t *root, uint64_t n);

/* Frees the split; safe twice. */
void job_free(job_t *self);

/* Position text of task i (index, 0-based) into buf (GAME_TEXT_MAX). */
void job_task_text(const job_t *self, size_t i, char *buf, size_t len);

/* Remaining depth of task i. */
int job_task_depth(const job_t *self, size_t i);

/* The key recorded in the journal for task i: its position key and depth. */
void job_task_key(const job_t *self, size_t i, char *buf, size_t len);

/* How many root-to-leaf paths one count of task i stands for. */
count_t job_task_weight(const job_t *self, size_t i);

/* Whether a count (and stats, may be NULL) can be task i's, checked cheaply
 * (a perft of depth <= 2 of the task's position): depth 0 counts 1; depth 1
 * and 2 exactly perft(pos, depth); deeper at most perft(pos, 2) x
 * GAME_MOVES_MAX^(depth - 2) (no position has more legal moves than that), so
 * zero below a mate; every count by kind at most nodes, en passant at most
 * captures, mates at most checks. False with the reason in why. It catches
 * absurd lies, not a count that is wrong by a little at depth 3 or more:
 * that takes --verify. */
bool job_task_plausible(const job_t *self, size_t i, count_t nodes, const perft_stats_t *stats, char *why,
                        size_t len);

/* Adds up the tasks' counts (and stats, when the job has them) into *out. */
void job_total(const job_t *self, const count_t *counts, const perft_stats_t *stats, job_total_t *out);
