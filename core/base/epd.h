/* epd.h: reading perft suites kept as data, one position a line:
 * `FEN-or-OFEN ;D1 n ;D2 n ... ;Dk n` (see tests/data/README.md). */
#pragma once

#include "types.h"

enum { EPD_DEPTH_MAX = 16 };

typedef struct {
    char text[GAME_TEXT_MAX];      /* the position, trimmed */
    count_t nodes[EPD_DEPTH_MAX + 1]; /* nodes[d] = perft(d), for 1 <= d <= depth_max */
    int depth_max;                 /* deepest depth given on the line */
} epd_line_t;

/* Parses one suite line. Returns 1 for a position, 0 for a blank or '#'
 * comment line, -1 on a malformed line (message in err). */
int epd_parse_line(const char *line, epd_line_t *out, char *err, size_t errlen);
