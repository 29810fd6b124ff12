/* texel_data.c: the Texel tuner's data file and its held-out split (texel_data.h). */
#include "texel_data.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

/* Reads DATA ("FEN;R" or "FEN;R;S" lines; lines starting with '#' skipped) into positions, results, search
 * scores (NAN where a line has none) and game numbers. Returns the count, or -1. */
int texel_read(const char *path, chess_pos_t **pos_out, float **res_out, float **score_out, int **games_out)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "texel_tune: %s: cannot open\n", path);
        return -1;
    }
    int n = 0, cap = 0, game = 0, prev_move = 0;
    chess_pos_t *pos = NULL;
    float *res = NULL, *score = NULL;
    int *games = NULL;
    char line[256];
    for (int ln = 1; fgets(line, sizeof line, f); ln++) {
        if (line[0] == '#')
            continue; /* a comment, e.g. tools/bench/sf_label.py's record of a position it left out */
        char *semi = strchr(line, ';');
        game_pos_t g;
        if (semi == NULL || (*semi = '\0', game_parse(VARIANT_CHESS, line, &g, NULL, 0) != 0)) {
            fprintf(stderr, "texel_tune: %s:%d: expected FEN;RESULT\n", path, ln);
            continue;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 65536;
            pos = realloc(pos, sizeof *pos * (size_t)cap);
            res = realloc(res, sizeof *res * (size_t)cap);
            score = realloc(score, sizeof *score * (size_t)cap);
            games = realloc(games, sizeof *games * (size_t)cap);
            if (pos == NULL || res == NULL || score == NULL || games == NULL) {
                fprintf(stderr, "texel_tune: out of memory\n");
                exit(1);
            }
        }
        pos[n] = g.u.chess;
        res[n] = (float)atof(semi + 1);
        const char *semi2 = strchr(semi + 1, ';');
        score[n] = semi2 != NULL ? (float)atof(semi2 + 1) : NAN;
        /* A game's positions are in order: a lower move number starts the next game. */
        const char *last = strrchr(line, ' ');
        int move = last ? atoi(last + 1) : 0;
        if (n > 0 && move < prev_move)
            game++;
        prev_move = move;
        games[n++] = game;
    }
    fclose(f);
    *pos_out = pos;
    *res_out = res;
    *score_out = score;
    *games_out = games;
    return n;
}

/* Puts the held-out games (every 1/holdout-th game, spread over the file) last;
 * returns how many positions are trained on. */
int texel_split(chess_pos_t *pos, float *res, float *score, const int *games, int n, double holdout)
{
    int every = holdout > 0 ? (int)lround(1 / holdout) : 0, k = 0, ntrain = 0;
    chess_pos_t *p2 = malloc(sizeof *p2 * (size_t)n);
    float *r2 = malloc(sizeof *r2 * (size_t)n), *s2 = malloc(sizeof *s2 * (size_t)n);
    for (int pass = 0; pass < 2; pass++) {
        for (int j = 0; j < n; j++) {
            bool held = every > 0 && games[j] % every == every - 1;
            if (held != (pass == 1))
                continue;
            p2[k] = pos[j];
            s2[k] = score[j];
            r2[k++] = res[j];
        }
        if (pass == 0)
            ntrain = k;
    }
    memcpy(pos, p2, sizeof *p2 * (size_t)n);
    memcpy(res, r2, sizeof *r2 * (size_t)n);
    memcpy(score, s2, sizeof *s2 * (size_t)n);
    free(p2);
    free(r2);
    free(s2);
    return ntrain;
}

