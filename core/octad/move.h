/* move.h: the octad move, 16 bits, and its accessors. */
#pragma once

#include <stdint.h>

/* Bit layout of octad_move_t (the only place it is defined):
 *
 * | bits  | field | meaning                                                  |
 * |-------|-------|----------------------------------------------------------|
 * | 0-3   | from  | origin square (castles: the king's square)               |
 * | 4-7   | to    | destination (castles: the partner's square, as in UOI)   |
 * | 8-11  | kind  | OCTAD_MK_* below; 8-11 are promotions to N, B, R, Q      |
 * | 12-14 | piece | type of the moving piece (castles: OCTAD_KING)           |
 * | 15    | -     | zero                                                     |
 *
 * Captures are not flagged: a move captures when `to` holds an enemy piece
 * (or it is en passant). The zero move never occurs among legal moves. */
typedef uint16_t octad_move_t;

enum {
    OCTAD_MK_NORMAL = 0,
    OCTAD_MK_DOUBLE = 1,         /* pawn double step */
    OCTAD_MK_EN_PASSANT = 2,
    OCTAD_MK_CASTLE_NEAR = 3,    /* king and adjacent knight swap ("O") */
    OCTAD_MK_CASTLE_CENTER = 4,  /* king and adjacent pawn swap ("O-O" or "O-O-O") */
    OCTAD_MK_CASTLE_FAR = 5,     /* king steps toward the pawn two files away */
    OCTAD_MK_PROMO_KNIGHT = 8,   /* promotions: 8 + (piece type - 1) */
    OCTAD_MK_PROMO_BISHOP = 9,
    OCTAD_MK_PROMO_ROOK = 10,
    OCTAD_MK_PROMO_QUEEN = 11
};

/* Builds a move from its fields. */
static inline octad_move_t octad_move_new(int from, int to, int kind, int piece)
{
    return (octad_move_t)(from | (to << 4) | (kind << 8) | (piece << 12));
}

/* Origin square. */
static inline int octad_move_from(octad_move_t m) { return m & 15; }

/* Destination square (castles: partner square). */
static inline int octad_move_to(octad_move_t m) { return (m >> 4) & 15; }

/* Kind, one of OCTAD_MK_*. */
static inline int octad_move_kind(octad_move_t m) { return (m >> 8) & 15; }

/* Moving piece type. */
static inline int octad_move_piece(octad_move_t m) { return (m >> 12) & 7; }

/* Whether the move is a promotion. */
static inline int octad_move_is_promo(octad_move_t m) { return (m >> 11) & 1; }

/* Promotion piece type (only for promotions). */
static inline int octad_move_promo_type(octad_move_t m) { return ((m >> 8) & 3) + 1; }

/* Whether the move is a castle of any kind. */
static inline int octad_move_is_castle(octad_move_t m)
{
    int k = octad_move_kind(m);
    return k >= OCTAD_MK_CASTLE_NEAR && k <= OCTAD_MK_CASTLE_FAR;
}
