/* material.h: the insufficient-material rule, shared by every variant (octad RULES.md
 * "End of the game"; chess: FIDE's dead positions of this shape). */
#pragma once

#include <stdbool.h>

/* Whether the material on the board can never give checkmate, so the game is drawn
 * at once: counting both sides together, no queen, rook or pawn remains, and either
 * there is at most one minor piece, or there are no knights and every bishop stands
 * on squares of one colour. `heavy` counts queens, rooks and pawns; the bishop
 * counts are split by square colour. */
static inline bool material_insufficient(int heavy, int knights, int bishops_dark, int bishops_light)
{
    if (heavy > 0)
        return false;
    if (knights + bishops_dark + bishops_light <= 1)
        return true;
    return knights == 0 && (bishops_dark == 0 || bishops_light == 0);
}
