/* count.h: printing and parsing of exact 128-bit perft counts. */
#pragma once

#include <stdbool.h>
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

/* Adds to *s what a last-ply move gives its child: `checkers` pieces give
 * check, `discovered` that none of them moved (the moved pieces give no
 * check, one they uncovered does), `no_moves` that the
 * child has no legal move (checkmate or stalemate). Nodes and the kinds of
 * the move itself (captures, castles, ...) are the caller's. */
OCTAD_API void count_stats_child(perft_stats_t *s, int checkers, bool discovered, bool no_moves);

/* Prints counts by kind, one "name value" line each (near/center/far only for
 * octad), then a `convention` line saying what checks include, in the layout
 * `octad perft` and `coordinator` share (docs/perft-stats.md). */
OCTAD_API void count_print_stats(FILE *out, const perft_stats_t *s, variant_t v);
