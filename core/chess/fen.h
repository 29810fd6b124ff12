/* fen.h: helpers shared by the FEN parser/formatter and the castling-field code. */
#pragma once

#include <stddef.h>

#include "position.h"

#include "err.h" /* err_printf: every parse error goes through it */

/* Parses the castling field (already split out, NUL-terminated) into pos->castle_rooks;
 * the placement must be set. 0, or -1 with a message. */
int fen_parse_castling(chess_pos_t *pos, const char *field, char *err, size_t errlen);

/* Writes the castling field (KQkq in chess, Shredder-FEN letters in Chess960, "-" if none) into buf (>= 5 bytes). */
void fen_format_castling(const chess_pos_t *pos, char *buf);
