/* split_move.h: the per-move analysis unit of `octad search --split` and of the
 * cluster's ANALYSE tasks (proto/PROTOCOL.md section 12): one root move
 * searched alone, from a cleared engine, so that its score, PV and node
 * count depend on nothing but the position, the history, the move, the
 * depth and the table size; and the order "best first, equal scores in the
 * order of the legal moves" in which both print the moves. */
#pragma once

#include "engine.h"

/* Searches root with its root restricted to the legal move m, to `depth`
 * (1..ENGINE_DEPTH_MAX), on one thread, after engine_clear(eng). *out is
 * the search's result: out->lines[0] is m's line (pv[0] == m). history may
 * be NULL. Returns 0, or -1 if m is not legal at root. */
int engine_split_move(engine_t *eng, const game_pos_t *root, const engine_history_t *history, engine_move_t m,
                      int depth, engine_result_t *out);

/* Fills order[0..n) with 0..n-1 sorted by score, best (highest) first;
 * equal scores keep their index order. */
void engine_split_order(const int *scores, int n, int *order);
