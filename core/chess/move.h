/* move.h: the 16-bit chess move encoding. */
#pragma once

#include <stdint.h>

/* A move in 16 bits:
 *
 *   bits  | 15 14 | 13 12 |  11 .. 6 |  5 .. 0
 *   field | type  | promo |    to    |   from
 *
 *   type : 0 normal, 1 promotion, 2 en passant, 3 castling
 *   promo: promotion piece minus CHESS_KNIGHT (0 N, 1 B, 2 R, 3 Q); 0 otherwise
 *   to   : destination square; for castling the square of the castling rook
 *          (king takes own rook), in chess and Chess960 alike
 *
 * 0 (a1a1) is never a legal move and serves as CHESS_MOVE_NONE. */
typedef uint16_t chess_move_t;

enum {
    CHESS_MOVE_NONE = 0,
    CHESS_MOVE_NORMAL = 0,
    CHESS_MOVE_PROMOTION = 1,
    CHESS_MOVE_EN_PASSANT = 2,
    CHESS_MOVE_CASTLING = 3
};

/* Builds a move from its fields (promo is a piece type, CHESS_KNIGHT..CHESS_QUEEN, or 0). */
static inline chess_move_t move_new(int from, int to, int type, int promo_offset)
{
    return (chess_move_t)(from | (to << 6) | (promo_offset << 12) | (type << 14));
}

/* Origin square. */
static inline int move_from(chess_move_t m) { return m & 63; }

/* Destination square (the rook's square for castling). */
static inline int move_to(chess_move_t m) { return (m >> 6) & 63; }

/* One of CHESS_MOVE_NORMAL/PROMOTION/EN_PASSANT/CASTLING. */
static inline int move_type(chess_move_t m) { return m >> 14; }

/* Promotion piece type (CHESS_KNIGHT..CHESS_QUEEN); meaningful only for promotions. */
static inline int move_promo(chess_move_t m) { return ((m >> 12) & 3) + 1; }
