/* probe.h: the value of an octad position from the tables, at its own
 * halfmove clock, and its moves ranked (for `octad probe` and the engine). */
#pragma once

#include "octad/octad.h"
#include "store.h"

/* A position's value for the side to move. */
typedef struct {
    int wdl;      /* REC_* at the position's halfmove clock */
    int wdl0;     /* REC_* with the clock at 0 (what the table stores) */
    int dtz, dtm; /* plies, as stored (tb_record.h) */
    int halfmove;
    int status;   /* OCTAD_CHECKMATE / OCTAD_STALEMATE / OCTAD_IN_CHECK flags */
} probe_value_t;

/* One legal move and the value it keeps for the side that plays it. */
typedef struct {
    octad_move_t move;
    int wdl;      /* for the mover, at the child's clock */
    int dtz, dtm; /* for the mover: plies to zeroing / mate through this move */
    probe_value_t after; /* the position after the move, for its side to move */
} probe_move_t;

/* Value of a legal position (the dtz of an e.p. position exact: ep_exact.h).
 * 0, or -1 if a table is missing or memory runs out (store_error says). */
int probe_position(store_t *store, const octad_pos_t *p, probe_value_t *out);

/* The value the legal move m of p keeps for the mover (and the position
 * after it). 0, or -1 if a table is missing (store_error says). */
int probe_move(store_t *store, const octad_pos_t *p, octad_move_t m, probe_move_t *out);

/* The rank probe_moves sorts by: larger is better for the mover. */
long probe_move_score(const probe_move_t *m);

/* Every legal move of p, best first (the mover's value; then the fastest
 * mate when winning, the slowest when losing); *nbest moves share the best
 * rank. Returns the number of moves, or -1 if a table is missing. */
int probe_moves(store_t *store, const octad_pos_t *p, probe_move_t *moves, int *nbest);
