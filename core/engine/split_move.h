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

/* The game of an analysis: the start position `start` (OFEN or FEN of
 * variant v), then n moves played from it, the k-th at moves + k * stride
 * (NUL-terminated long-algebraic texts). 0, or -1 with the field and the
 * problem in err. */
int engine_split_game(engine_game_t *g, variant_t v, const char *start, const char *moves, size_t stride, int n,
                      char *err, size_t errlen);

/* Puts the n lines of a split (lines[i]: the i-th legal move's) into *r
 * best first (engine_split_order), and sets r->best and r->ponder from the
 * best line; the other fields of *r are left as they are. */
void engine_split_collect(engine_result_t *r, const engine_line_t *lines, int n);

/* Fills order[0..n) with 0..n-1 sorted by score, best (highest) first;
 * equal scores keep their index order. */
void engine_split_order(const int *scores, int n, int *order);
