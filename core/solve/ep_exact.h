/* ep_exact.h: the exact dtz of a cursed win or blessed loss that has a legal
 * e.p. capture.
 *
 * Such a position is not stored: store_value gives its value by one ply of
 * look-ahead over its children. Its dtz without the 25-move rule needs the
 * children's dtz without the rule, but a child that is `win`/`loss` stores
 * its dtz under the rule, which can be larger; the look-ahead's dtz is then
 * an upper bound. Every child reached by a move that keeps the clock running
 * has the position's pawns and castling rights, so those children lie in
 * one unit of one pair (layout.h). This module solves that unit again in
 * memory (gen_unit_ginf: the generator's own passes, one thread) and takes
 * the children's dtz from it. The last unit solved is kept with the store,
 * so the children of one position, and the positions of one line, cost one
 * solve. Thread-safe (one solve at a time). */
#pragma once

#include <stddef.h>

#include "octad/position.h"
#include "store.h"
#include "tb_record.h"

/* *rec is store_value's record of p (clock 0). If p has a legal e.p.
 * capture and *rec is a cursed win or blessed loss, its dtz is replaced by
 * the exact one; otherwise *rec is left as it is. 0, or -1 with a message in
 * err (a table missing, out of memory). */
int ep_exact_dtz(store_t *store, const octad_pos_t *p, rec_t *rec, char *err, size_t errlen);

/* The dtz without the 25-move rule of any legal position (e.p. square
 * included, clock ignored) that is won or lost without the rule: for
 * `win`/`loss` too, whose records hold the dtz under the rule. 0 for draws
 * and when checkmated. 0 with *dtz set, or -1 with a message. */
int ep_exact_dtz_inf(store_t *store, const octad_pos_t *p, int *dtz, char *err, size_t errlen);
