/* vt_forward.h: a plain forward solver, a different algorithm from both the
 * generator's retrograde passes and the one-ply check: the game graph
 * reachable from some root positions is built explicitly (both colours, no
 * symmetry, no index), values without the 25-move rule come from sweeping
 * the whole graph to a fixpoint (what never resolves is drawn: it can repeat
 * forever), and values with the rule come from an exact minimax over
 * (position, halfmove clock) pairs, which form an acyclic graph (the clock
 * grows on every move that does not zero it, and zeroing moves are
 * irreversible). Meant for small material: it holds every reachable
 * position in memory. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "octad/octad.h"

typedef struct vt_fwd vt_fwd_t;

/* Result codes for a position (those of the tables, docs/solver.md). */
typedef struct {
    int code;  /* VT_LOSS .. VT_WIN, with the clock at 0 */
    int dtm;   /* G-inf plies to mate; 0 for draws */
    int dtz;   /* G-50 dtz for win/loss, G-inf dtz for cursed/blessed, 0 for draws */
} vt_fwd_value_t;

/* An empty graph. NULL if out of memory. */
vt_fwd_t *vt_fwd_new(void);

/* Frees; NULLs *self_p; safe on NULL. */
void vt_fwd_destroy(vt_fwd_t **self_p);

/* Adds a legal position as a root (clocks ignored). 0, or -1 out of memory
 * (or past 2^25 positions, where vt_fwd_solve fails too). */
int vt_fwd_add(vt_fwd_t *self, const octad_pos_t *p);

/* Builds everything reachable from the roots and solves G-inf (dtm and the
 * zeroing-metric dtz). 0, or -1 out of memory or too large. */
int vt_fwd_solve(vt_fwd_t *self);

/* Number of positions in the graph. */
uint32_t vt_fwd_size(const vt_fwd_t *self);

/* The i-th position (0 <= i < size). */
const octad_pos_t *vt_fwd_position(const vt_fwd_t *self, uint32_t i);

/* Index of p in the graph, or -1. */
int64_t vt_fwd_find(const vt_fwd_t *self, const octad_pos_t *p);

/* Value of G-50 with halfmove clock h (0-49) for the side to move of node i:
 * VT_WIN, VT_DRAW or VT_LOSS. Needs vt_fwd_solve; memoised. */
int vt_fwd_at_clock(vt_fwd_t *self, uint32_t i, int h);

/* The zeroing-metric dtz without the 25-move rule of node i when it is won
 * or lost without the rule (at any clock), else -1. Needs vt_fwd_solve. */
int vt_fwd_dtz_inf(const vt_fwd_t *self, uint32_t i);

/* The table-style value of node i: G-50 from the clocks at which it is won or
 * lost, G-inf from the sweeps. Needs vt_fwd_solve. */
vt_fwd_value_t vt_fwd_value(vt_fwd_t *self, uint32_t i);
