/* reference.h: published perft totals of well-known positions, used only to check a result. */
#pragma once

#include <stdbool.h>

#include "game.h"

/* True and *out set if the total of perft(pos, depth) is known: octad start
 * 1-11 (RULES.md), chess start 1-9 and kiwipete 1-6 (published values), also
 * for Chess960 position 518 (the classical start). These numbers only check a
 * result; nothing is ever computed from them. */
bool reference_lookup(const game_pos_t *pos, int depth, count_t *out);
