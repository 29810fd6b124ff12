/* eval.h: the static evaluation of each variant, in centipawns for the side
 * to move (eval_octad.c, eval_chess.c). Internal to core/engine/. */
#pragma once

#include "game.h"

/* Octad: material, pawn races to the last rank, mobility, king safety on 4x4. */
int eval_octad(const octad_pos_t *pos);

/* Chess and Chess960: tapered material and piece-square terms, mobility, pawn
 * structure, king safety. */
int eval_chess(const chess_pos_t *pos);
