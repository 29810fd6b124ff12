/* material.c: octad's insufficient-material rule on the 4x4 board. */
#include "material.h"
#include "bb.h"
#include "octad.h"

/* Dark squares of the 4x4 board: a1 (file + rank even) and its colour. */
#define OCTAD_DARK_SQUARES 0xA5A5u

bool octad_insufficient_material(const octad_pos_t *pos)
{
    int heavy = bb_count((unsigned)pos->type[OCTAD_PAWN] | pos->type[OCTAD_ROOK] | pos->type[OCTAD_QUEEN]);
    unsigned bishops = pos->type[OCTAD_BISHOP];
    return material_insufficient(heavy, bb_count(pos->type[OCTAD_KNIGHT]),
                                 bb_count(bishops & OCTAD_DARK_SQUARES),
                                 bb_count(bishops & ~OCTAD_DARK_SQUARES & 0xFFFFu));
}
