/* stats.h: counts by kind at the last ply of the checker's legal-move tree, a second opinion
 * on `octad perft --stats` for octad (docs/perft-stats.md), from the checker's own
 * rules (board.h). */
#pragma once

/* Prints the counts of the tree of the OFEN `ofen`, depth plies deep, one "name value" line
 * each, in the names `octad perft --stats` prints. 0, or 2 with a message on a bad OFEN. */
int cc_stats_print(const char *ofen, int depth);
