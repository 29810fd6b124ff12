/* zobrist.h: two independent sets of 64-bit Zobrist keys, together a 128-bit position hash. */
#pragma once

#include <stdint.h>

#include "bitboard.h"
#include "position.h"

/* Keys of key set k (0 or 1). */
extern uint64_t zob_piece[2][CHESS_COLOR_NB][CHESS_PIECE_NB][CHESS_SQ_NB];
extern uint64_t zob_castle[2][CHESS_SQ_NB]; /* one per castling rook square */
extern uint64_t zob_ep[2][8];               /* one per e.p. file */
extern uint64_t zob_side[2];                /* black to move */
extern uint64_t zob_depth[2][64];           /* perft depth mixed into table keys */

/* Fills the keys from two differently seeded SplitMix64 streams. Idempotent. */
void zob_init(void);

/* True if pos's e.p. square is hashed: some pawn of the side to move attacks it.
 * make only ever sets such squares; a parsed useless one is kept but not hashed. */
static inline int zob_ep_hashed(const chess_pos_t *pos)
{
    if (pos->ep == CHESS_SQ_NONE)
        return 0;
    return (bb64_pawn_attacks[pos->side ^ 1][pos->ep] & pos->pieces[CHESS_PAWN] & pos->colors[pos->side]) != 0;
}

/* Computes both keys of pos from scratch into pos->key. */
void zob_compute(chess_pos_t *pos);
