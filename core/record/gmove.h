/* gmove.h: one move type over every variant, for the game layer (SAN, records, PGN).
 *
 * game.h offers positions and fully described children (texts included),
 * which is what `octad moves` wants; replaying games wants the raw 16-bit moves
 * and their fields instead, so that a ply costs one move generation, not one
 * SAN text per legal move. Both variants' moves are 16 bits (core/octad/move.h,
 * core/chess/move.h); a gmove_t is whichever one the position's variant uses. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "game.h"

typedef uint16_t gmove_t;

/* No move (never legal in either variant). */
enum { GMOVE_NONE = 0 };

/* What SAN matching needs to know about a legal move. Squares are given as
 * file and rank (0-based), so 4x4 and 8x8 boards read alike. */
typedef struct {
    int8_t from_file, from_rank; /* origin (castles: the king) */
    int8_t to_file, to_rank;     /* destination of the moving piece (castles: the partner / rook square) */
    int8_t piece;                /* moving piece type, 0 pawn .. 5 king (both variants number alike) */
    int8_t promo;                /* promotion piece type, or 0 */
    bool castle;                 /* a castle of any kind */
    bool capture;                /* captures (e.p. included, castles never) */
    bool en_passant;
} gmove_info_t;

/* Legal moves of pos into moves[] (GAME_MOVES_MAX entries); returns the count. */
int gmove_legal(const game_pos_t *pos, gmove_t *moves);

/* *out = pos after the legal move m. */
void gmove_make(const game_pos_t *pos, gmove_t m, game_pos_t *out);

/* The fields of the legal move m of pos. */
gmove_info_t gmove_info(const game_pos_t *pos, gmove_t m);

/* UOI/UCI text of the legal move m (MOVE_TEXT_MAX bytes). */
void gmove_uoi(const game_pos_t *pos, gmove_t m, char *buf);

/* SAN text of the legal move m, with +/# (MOVE_TEXT_MAX bytes). */
void gmove_san(const game_pos_t *pos, gmove_t m, char *buf);

/* Origin square (rank * N + file) of a legal move, without looking at the board. */
static inline int gmove_from_sq(const game_pos_t *pos, gmove_t m)
{
    return pos->variant == VARIANT_OCTAD ? octad_move_from(m) : move_from(m);
}

/* Destination square (castles: the partner's / rook's square), without looking at the board. */
static inline int gmove_to_sq(const game_pos_t *pos, gmove_t m)
{
    return pos->variant == VARIANT_OCTAD ? octad_move_to(m) : move_to(m);
}

/* Whether a legal move is a castle, without looking at the board. */
static inline bool gmove_is_castle(const game_pos_t *pos, gmove_t m)
{
    return pos->variant == VARIANT_OCTAD ? octad_move_is_castle(m) != 0 : move_type(m) == CHESS_MOVE_CASTLING;
}

/* Board width (and height): 4 for octad, 8 for chess. */
static inline int gmove_board_size(const game_pos_t *pos)
{
    return pos->variant == VARIANT_OCTAD ? 4 : 8;
}
