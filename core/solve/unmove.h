/* unmove.h: the moves that led to a position without changing the halfmove
 * clock (retrograde moves), and the slots of the positions they lead back to:
 * the side that just moved takes back a move of a king, knight, bishop, rook
 * or queen to an empty square, no capture undone, no pawn, no rights holder. */
#pragma once

#include <stdint.h>

#include "layout.h"
#include "octad/position.h"

enum { UNMOVE_MAX = 128 };

/* Where predecessors lie: a unit's one or two slices (layout.h), the second
 * one's slots numbered after the first one's size0. */
typedef struct {
    const layout_slice_t *sl[2];
    int n;
    uint32_t size0;
} unmove_unit_t;

/* Writes into out[] the unit-local slots of the predecessors of a position
 * given colour-flipped as pf (Black to move in pf, White made the last move):
 * each legal (Black, not to move, not in check), with White to move, stored
 * in slice j of the unit or, where that slice keeps the mirror image (half),
 * mirrored into the slice with the mirrored pawns. `fixed` are White's pieces
 * that cannot have moved (rights holders). Returns how many, or -1 if a
 * predecessor does not fit the unit (a bug); then *bad is that predecessor. */
int unmove_slots(const unmove_unit_t *u, int j, const octad_pos_t *pf, unsigned fixed, uint32_t *out,
                 octad_pos_t *bad);
