/* material.c: chess's insufficient-material rule (the dead positions decided by material alone). */
#include "material.h"
#include "chess.h"

/* Dark squares: a1 and every square of its colour (file + rank even). */
#define CHESS_DARK_SQUARES 0xAA55AA55AA55AA55ull

bool chess_insufficient_material(const chess_pos_t *pos)
{
    uint64_t heavy = pos->pieces[CHESS_PAWN] | pos->pieces[CHESS_ROOK] | pos->pieces[CHESS_QUEEN];
    uint64_t bishops = pos->pieces[CHESS_BISHOP];
    return material_insufficient(__builtin_popcountll(heavy), __builtin_popcountll(pos->pieces[CHESS_KNIGHT]),
                                 __builtin_popcountll(bishops & CHESS_DARK_SQUARES),
                                 __builtin_popcountll(bishops & ~CHESS_DARK_SQUARES));
}
