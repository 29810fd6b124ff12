/* perft.h: the checker's move generator against a perft suite (lines `OFEN ;D1 n ;D2 n ...`). */
#pragma once

#include <stdint.h>

#include "board.h"

/* Leaves of the legal-move tree of p, depth plies deep. */
uint64_t cc_perft(const cc_pos_t *p, int depth);
/* Checks every line of the suite file path up to max_depth; prints each mismatch and a
 * summary to stdout. 0 when every count matches, 1 on a mismatch, 2 on a bad file or line. */
int cc_perft_suite(const char *path, int max_depth);
