/* count.h: printing and parsing of exact 128-bit perft counts. */
#pragma once

#include <stdio.h>

#include "base/api.h"
#include "base/types.h"

/* Longest decimal count_t (39 digits) plus NUL. */
enum { COUNT_TEXT_MAX = 40 };

/* Writes `n` in decimal into `buf` (at least COUNT_TEXT_MAX bytes); returns buf. */
OCTAD_API char *count_format(count_t n, char *buf);

/* Parses a decimal count (digits only, no sign, no spaces) into *out.
 * Returns 0, or -1 on an empty string, a non-digit, or overflow of 128 bits. */
OCTAD_API int count_parse(const char *text, count_t *out);

/* Prints counts by kind, one "name value" line each (near/center/far only for
 * octad), in the layout `octad perft` and `coordinator` share. */
OCTAD_API void count_print_stats(FILE *out, const perft_stats_t *s, variant_t v);
