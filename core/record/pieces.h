/* pieces.h: the piece artwork of the SVG boards. */
#pragma once

#include <stdio.h>

/* Writes piece `type` (0 pawn .. 5 king) of colour `black` (0/1) filling the square at (x, y). */
void pieces_write(FILE *f, int type, int black, double x, double y, double square);
