/* types.h: board-wide counts and forward typedefs shared by every module. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Perft counts are 128-bit so deep totals never overflow (chess perft 14 > 2^64). */
typedef unsigned __int128 count_t;

/* The game a position belongs to. The variant is data in the position, never a global. */
typedef enum {
    VARIANT_OCTAD,
    VARIANT_CHESS,
    VARIANT_CHESS960,
    VARIANT_NB
} variant_t;

/* Octad's three castle kinds, named for the partner (RULES.md). */
typedef enum {
    CASTLE_NEAR,   /* king and adjacent knight swap ("O") */
    CASTLE_CENTER, /* king and adjacent pawn swap ("O-O") */
    CASTLE_FAR,    /* king steps toward a pawn two files away ("O-O-O") */
    CASTLE_KIND_NB
} castle_kind_t;

/* Counts by kind at the last ply of a perft (RULES.md "Counts by kind";
 * docs/perft-stats.md). captures include en passant and exclude
 * castles. checks count checking moves, checkmates included (the chess
 * programming wiki's convention; checks - mates is the Grand Chess Tree's).
 * Of those, discovered_checks count the moves whose moved pieces give no
 * check but uncover one (so a double check by the moved piece and the one it
 * uncovered is not counted there: the wiki's tables), double_checks the
 * moves giving check with two pieces or more. mates count
 * checkmating moves, stalemates the moves leaving the opponent no legal move
 * and not in check. castles is the sum over kinds; for chess every castle is
 * counted in castles only (castle_kind stays zero). */
typedef struct {
    count_t nodes;
    count_t captures;
    count_t en_passant;
    count_t castles;
    count_t castle_kind[CASTLE_KIND_NB];
    count_t promotions;
    count_t checks;
    count_t mates;
    count_t discovered_checks;
    count_t double_checks;
    count_t stalemates;
} perft_stats_t;

/* Upper bound on legal moves in any position of any variant (chess: 218). */
enum { GAME_MOVES_MAX = 256 };

/* Longest position text (FEN/OFEN) we ever format, with its NUL. */
enum { GAME_TEXT_MAX = 128 };

/* Longest move text: UOI "e7e8q" or SAN "Qh4xe1=Q+" and the NUL. */
enum { MOVE_TEXT_MAX = 16 };
