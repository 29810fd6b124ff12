/* texel_data.h: the Texel tuner's data (tools/bench/texel_tune.c): reading "FEN;R" or
 * "FEN;R;S" lines, and putting the held-out games last. */
#pragma once

#include "game.h"

/* Reads path into positions, results for White, search scores (NAN where a line
 * has none) and game numbers (a lower move number starts the next game); lines
 * starting with '#' are skipped, other bad lines reported and skipped. Returns
 * the count, or -1 when path cannot be read. */
int texel_read(const char *path, chess_pos_t **pos_out, float **res_out, float **score_out, int **games_out);

/* Puts the held-out games (every 1/holdout-th game, spread over the file) last;
 * returns how many positions are trained on. */
int texel_split(chess_pos_t *pos, float *res, float *score, const int *games, int n, double holdout);
