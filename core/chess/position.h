/* position.h: the chess / Chess960 position value and the 8x8 square numbering. */
#pragma once

#include <stdint.h>

#include "../base/types.h"

/* Squares, numbered once for the whole chess folder:
 *
 *   rank 8 | 56 57 58 59 60 61 62 63
 *   rank 7 | 48 49 50 51 52 53 54 55
 *   ...    | ...
 *   rank 2 |  8  9 10 11 12 13 14 15
 *   rank 1 |  0  1  2  3  4  5  6  7
 *          +------------------------
 *            a  b  c  d  e  f  g  h
 *
 * sq = 8 * rank + file (file a = 0, rank 1 = 0); bit sq of a bitboard is that square. */
enum {
    CHESS_SQ_NB = 64,
    CHESS_SQ_NONE = 64 /* no e.p. square */
};

/* Colours; white moves up the board (towards rank 8). */
enum { CHESS_WHITE, CHESS_BLACK, CHESS_COLOR_NB };

/* Piece types, colourless. */
enum {
    CHESS_PAWN,
    CHESS_KNIGHT,
    CHESS_BISHOP,
    CHESS_ROOK,
    CHESS_QUEEN,
    CHESS_KING,
    CHESS_PIECE_NB
};

/* A position: a plain value, copied to make a move (copy-make).
 * Castling rights are the set of rooks that may still castle, as a bitboard
 * of their squares (at most one per side of each king), so Chess960 needs no
 * special case. The 128-bit hash `key` (two independent 64-bit Zobrist keys)
 * is kept up to date by chess_make and set by the parser. */
typedef struct {
    uint64_t pieces[CHESS_PIECE_NB]; /* squares of each piece type, both colours */
    uint64_t colors[CHESS_COLOR_NB]; /* squares of each colour */
    uint64_t castle_rooks;           /* squares of rooks with a castling right */
    uint64_t key[2];                 /* Zobrist keys of placement, side, rights, e.p. */
    uint8_t side;                    /* CHESS_WHITE or CHESS_BLACK to move */
    uint8_t ep;                      /* e.p. target square or CHESS_SQ_NONE */
    uint8_t variant;                 /* VARIANT_CHESS or VARIANT_CHESS960 (a variant_t) */
    uint8_t halfmove;                /* half-move clock, saturating at 255 */
    uint16_t fullmove;               /* full-move number, 1..65535 */
} chess_pos_t;
