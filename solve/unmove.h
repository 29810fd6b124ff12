/* unmove.h: the moves that led to a position without changing the halfmove
 * clock (retrograde moves): the side that just moved takes back a move of a
 * king, knight, bishop, rook or queen to an empty square, no capture undone,
 * no pawn, no rights holder. */
#pragma once

#include "octad/position.h"

enum { UNMOVE_MAX = 128 };

/* Writes into out[] the predecessors of a position given colour-flipped as
 * pf (so Black is to move in pf and White made the last move): each legal,
 * with White to move. `fixed` are White's pieces that cannot have moved
 * (rights holders). Returns how many. */
int unmove_gen(const octad_pos_t *pf, unsigned fixed, octad_pos_t *out);
