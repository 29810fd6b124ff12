/* position.h: the octad position, a plain struct for copy-make, and the 4x4 square numbering. */
#pragma once

#include <stdint.h>

#include "move.h"

/* Square numbering (the only place it is defined): sq = rank * 4 + file,
 * file a-d = 0-3, rank 1-4 = 0-3. Bit sq of a bitboard is that square.
 *
 *     4 | 12 13 14 15
 *     3 |  8  9 10 11
 *     2 |  4  5  6  7
 *     1 |  0  1  2  3
 *         a  b  c  d
 */
enum {
    OCTAD_SQ_NB = 16,
    OCTAD_SQ_NONE = 16 /* "no square", e.g. no en-passant target */
};

/* Colours: White moves up (rank 1 is its home rank), Black moves down. */
enum { OCTAD_WHITE, OCTAD_BLACK, OCTAD_COLOR_NB };

/* Piece types, indexing octad_pos_t.type[]. */
enum {
    OCTAD_PAWN,
    OCTAD_KNIGHT,
    OCTAD_BISHOP,
    OCTAD_ROOK,
    OCTAD_QUEEN,
    OCTAD_KING,
    OCTAD_PIECE_TYPE_NB
};

/* A position: 32 bytes (a power of two, so arrays of children never straddle
 * cache lines), copied whole by octad_make.
 * castle holds one bit per partner square that still has a castling right
 * (White's partners on rank 1, bits 0-3; Black's on rank 4, bits 12-15):
 * rights belong to pieces, tracked by the square the partner stands on. */
/* The largest halfmove clock and fullmove number OFEN takes; moves saturate
 * there, so every position a move leads to can be written and read back. */
enum { OCTAD_COUNTER_MAX = 1000000000 };

typedef struct {
    uint16_t color[OCTAD_COLOR_NB];     /* occupancy by colour */
    uint16_t type[OCTAD_PIECE_TYPE_NB]; /* occupancy by piece type, both colours */
    uint16_t castle;                    /* partner squares holding a right */
    uint8_t side;                       /* OCTAD_WHITE or OCTAD_BLACK to move */
    uint8_t ep;                         /* en-passant target square or OCTAD_SQ_NONE */
    uint32_t halfmove;                  /* halfmove clock */
    uint32_t fullmove;                  /* fullmove number, >= 1 */
    uint8_t ksq[OCTAD_COLOR_NB];        /* each king's square (cached from type/color) */
    uint16_t reserved;                  /* zero; pads the struct to 32 bytes */
} octad_pos_t;
