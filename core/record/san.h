/* san.h: move text in: SAN as written by people and programs, long algebraic and UOI/UCI.
 *
 * Accepted (RULES.md "Notation" and what chess users expect): strict SAN
 * (`Nf3`, `exd5`, `e8=Q+`, `O-O`, octad's `O`), castles with zeros (`0-0`),
 * missing or extra `+`/`#` and trailing `!?` glyphs, a missing `x` or `=`
 * (`ed5`, `e8Q`), over-disambiguation (`Ng1f3`, `Ng1-f3`), long algebraic
 * and UOI/UCI (`e2e4`, `e7e8q`, octad castles `b1a1`, chess castles `e1g1` or
 * king-takes-rook `e1h1`), a lowercase promotion letter, and `e.p.`.
 * Parsing is in two steps: san_parse() reads the text alone, san_resolve()
 * finds the one legal move it names in a position. */
#pragma once

#include <stddef.h>

#include "gmove.h"

/* Why a move text was refused. */
typedef enum {
    SAN_OK = 0,
    SAN_MALFORMED, /* not move text at all, or off the board */
    SAN_ILLEGAL,   /* well formed, but no legal move matches */
    SAN_AMBIGUOUS  /* well formed, and more than one legal move matches */
} san_error_t;

/* A move text taken apart; -1 in a field means "not given". */
typedef struct {
    int8_t piece;                /* 0 pawn .. 5 king; -1: any piece (a bare from-to text) */
    int8_t from_file, from_rank; /* origin hints */
    int8_t to_file, to_rank;     /* destination (not used for castles) */
    int8_t promo;                /* promotion piece type 1..4, or 0 */
    int8_t castle;               /* 0 none, 1 "O", 2 "O-O", 3 "O-O-O" */
} san_t;

/* Reads `text` (up to its end or the first space) into *out. Returns SAN_OK or
 * SAN_MALFORMED with a message naming the problem in err. */
san_error_t san_parse(const char *text, san_t *out, char *err, size_t errlen);

/* Finds the legal move of pos (moves[0..n) are its legal moves) that *san
 * names. Returns SAN_OK with *out set, or SAN_ILLEGAL / SAN_AMBIGUOUS / SAN_MALFORMED
 * (a square off this board) with a message naming the move `text` and why. */
san_error_t san_resolve(const game_pos_t *pos, const gmove_t *moves, int n, const san_t *san,
                        const char *text, gmove_t *out, char *err, size_t errlen);

/* Both steps, generating the legal moves itself. */
san_error_t san_move(const game_pos_t *pos, const char *text, gmove_t *out, char *err, size_t errlen);

/* Name of an error kind: "malformed", "illegal", "ambiguous" ("ok" for SAN_OK). */
const char *san_error_name(san_error_t e);
