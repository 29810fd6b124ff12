/* unmove.h: the moves that led to a position without changing the halfmove
 * clock (retrograde moves): the side that just moved takes back a move of a
 * king, knight, bishop, rook or queen to an empty square, no capture undone,
 * no pawn, no rights holder. */
#pragma once

#include "octad/position.h"

enum { UNMOVE_MAX = 128 };

/* Writes into out[] the predecessors of p (White to move; Black made the
 * last move), each legal and colour-flipped so that its side to move is
 * White; `fixed_black` are Black's pieces that cannot have moved (rights
 * holders). Returns how many. */
int unmove_gen(const octad_pos_t *p, unsigned fixed_black, octad_pos_t *out);
