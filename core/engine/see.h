/* see.h: static exchange evaluation: whether a move, followed by the best
 * sequence of recaptures on its destination square (least valuable attacker
 * first, either side free to stop), wins at least a threshold of material.
 * Pins and checks are ignored, as usual. Internal to core/engine/. */
#pragma once

#include <stdbool.h>

#include "engine.h"

/* Chess and Chess960: whether the exchange that m starts gains >= threshold
 * centipawns for the side to move (pawn 100, knight and bishop 320, rook 500,
 * queen 950). Castling counts as 0; a promotion as its capture alone. */
bool see_chess_ge(const chess_pos_t *pos, engine_move_t m, int threshold);
