/* split.h: cutting a perft tree into independent tasks at a frontier ply.
 *
 * The tree below `root` is expanded breadth-first, one ply at a time, until
 * the frontier holds at least `min_tasks` positions (or the frontier reaches
 * depth - 1, or max_ply). Identical positions on the frontier (same key text:
 * placement, side, rights, e.p.) have identical subtrees, so they become one
 * task; each task remembers, per root move it descends from, how many paths
 * reach it (its multiplicity). Then
 *   perft(root, depth)      = sum over tasks of count(task) * sum of its multiplicities
 *   divide(root move r)     = sum over tasks of count(task) * multiplicity for r
 * which is exact because keys are exact (the key is the position text). */
#pragma once

#include "game.h"

/* One (root move, multiplicity) pair of a task. */
typedef struct {
    int root;      /* index into split_t.root_uoi, or -1 when ply == 0 */
    count_t paths; /* number of move sequences from that root move to the task */
} split_ref_t;

/* One independent subtree: perft(pos, depth) weighted by its refs. */
typedef struct {
    game_pos_t pos;
    char key[GAME_TEXT_MAX];
    int depth;          /* remaining depth, >= 1 */
    split_ref_t *refs;  /* owned by the split */
    int ref_nb;
} split_task_t;

typedef struct {
    int ply;                               /* frontier ply (0: the root itself) */
    int root_nb;                           /* legal root moves */
    char root_uoi[GAME_MOVES_MAX][MOVE_TEXT_MAX];
    split_task_t *tasks;                   /* owned */
    size_t task_nb;
    count_t paths_nb;                      /* frontier paths before merging */
} split_t;

/* Splits perft(root, depth) (depth >= 1) into tasks as described above, with
 * the frontier at most min(depth - 1, max_ply) plies deep. Returns 0, or -1
 * when out of memory (then *out holds nothing to free). */
int split_new(const game_pos_t *root, int depth, size_t min_tasks, int max_ply, split_t *out);

/* Frees what split_new allocated; safe to call twice. */
void split_free(split_t *split);

/* Sum of a task's multiplicities over all its root moves. */
count_t split_task_paths(const split_task_t *task);
