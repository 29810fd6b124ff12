/* san_fast.h: the chess shortcut of san_resolve: find the move a SAN text names
 * from the few pieces that reach its destination, without generating every legal move. */
#pragma once

#include "san.h"

/* 1 with *out set when exactly one legal move of pos matches the (non-castle) text *s;
 * 0 when the answer needs the general path (no match, several, castles, a missing
 * promotion piece): san_resolve then decides, and words the error. */
int san_chess_fast(const chess_pos_t *pos, const san_t *s, chess_move_t *out);
