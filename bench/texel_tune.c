/* texel_tune.c: Texel tuning of the chess evaluation's weights
 * (engine/eval_chess_params.h) on positions labelled with their game's result
 * (bench_texel_games). The error of weights w is the mean over positions of
 * (R - s(q))^2, with R the result for White, q the evaluation for White and
 * s(q) = 1 / (1 + 10^(-K q / 400)); K is first fitted to the weights as they are.
 *
 * The evaluation is linear in every tuned weight (the king-danger curve and the
 * mobility baselines are not tuned), so each position's evaluation is
 * q(w) = q(w0) + sum_i c_i (w_i - w0_i), with c_i measured once by raising
 * weight i by 100 and evaluating again (exact up to the taper's rounding, 1/100
 * cp). The error is then minimised over w by full-batch gradient descent (Adam)
 * on that linear model, in a few seconds; the weights are rounded and printed
 * as eval_chess_params.h's list. The last --holdout share of the file (other
 * games) is not trained on: its error before and after says whether the new
 * weights generalise.
 *
 * usage: bench_texel_tune DATA [--epochs N] [--rate R] [--holdout F] [--keep best|last] [--only P,...]
 * (--keep last: the last epoch's weights instead of those with the lowest held-out error;
 * --only: tune only the weights whose names start with one of the prefixes)
 * This file builds its own copy of engine/eval_chess.c (EVAL_CHESS_TUNABLE). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "eval_chess_params.h"

enum { S_STEP = 100 };

typedef struct {
    float coef;
    int16_t param;
} s_term_t;

typedef struct {
    int n, ntrain;
    double *base;     /* q(w0) per position, for White */
    float *result;    /* R per position */
    int *first;       /* terms of position j: terms[first[j] .. first[j + 1] - 1] */
    s_term_t *terms;
    long nterms;
} s_data_t;

static const char *s_only; /* --only: a comma-separated list of name prefixes to tune (NULL: all) */

static bool s_tuned(int i)
{
    const char *name = eval_chess_names[i];
    if (strstr(name, "_off_") != NULL)
        return false;
    if (s_only == NULL)
        return true;
    for (const char *p = s_only; *p;) {
        size_t len = strcspn(p, ",");
        if (len > 0 && strncmp(name, p, len) == 0)
            return true;
        p += len + (p[len] == ',');
    }
    return false;
}

static double s_white_eval(const chess_pos_t *p)
{
    int e = eval_chess(p);
    return p->side == CHESS_WHITE ? e : -e;
}

/* Reads DATA ("FEN;R" lines) into positions, results and game numbers. Returns the count, or -1. */
static int s_read(const char *path, chess_pos_t **pos_out, float **res_out, int **games_out)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "texel_tune: %s: cannot open\n", path);
        return -1;
    }
    int n = 0, cap = 0, game = 0, prev_move = 0;
    chess_pos_t *pos = NULL;
    float *res = NULL;
    int *games = NULL;
    char line[256];
    for (int ln = 1; fgets(line, sizeof line, f); ln++) {
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
            games = realloc(games, sizeof *games * (size_t)cap);
            if (pos == NULL || res == NULL || games == NULL) {
                fprintf(stderr, "texel_tune: out of memory\n");
                exit(1);
            }
        }
        pos[n] = g.u.chess;
        res[n] = (float)atof(semi + 1);
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
    *games_out = games;
    return n;
}

/* Measures every position's base evaluation and its coefficient for each tuned weight. */
static void s_measure(const chess_pos_t *pos, s_data_t *d)
{
    d->base = malloc(sizeof *d->base * (size_t)d->n);
    d->first = malloc(sizeof *d->first * (size_t)(d->n + 1));
    double *raised = malloc(sizeof *raised * (size_t)d->n * EVAL_CHESS_NPARAMS);
    for (int j = 0; j < d->n; j++)
        d->base[j] = s_white_eval(&pos[j]);
    for (int i = 0; i < EVAL_CHESS_NPARAMS; i++) {
        if (!s_tuned(i))
            continue;
        eval_chess_w[i] += S_STEP;
        for (int j = 0; j < d->n; j++)
            raised[(size_t)j * EVAL_CHESS_NPARAMS + (size_t)i] = s_white_eval(&pos[j]);
        eval_chess_w[i] -= S_STEP;
    }
    d->terms = malloc(sizeof *d->terms * (size_t)d->n * 40);
    long cap = (long)d->n * 40;
    d->nterms = 0;
    for (int j = 0; j < d->n; j++) {
        d->first[j] = (int)d->nterms;
        for (int i = 0; i < EVAL_CHESS_NPARAMS; i++) {
            double c = s_tuned(i) ? (raised[(size_t)j * EVAL_CHESS_NPARAMS + (size_t)i] - d->base[j]) / S_STEP : 0;
            if (fabs(c) < 1e-6)
                continue;
            if (d->nterms == cap) {
                cap *= 2;
                d->terms = realloc(d->terms, sizeof *d->terms * (size_t)cap);
            }
            d->terms[d->nterms++] = (s_term_t){ (float)c, (int16_t)i };
        }
    }
    d->first[d->n] = (int)d->nterms;
    free(raised);
}

/* Puts the held-out games (every 1/holdout-th game, spread over the file) last;
 * returns how many positions are trained on. */
static int s_split(chess_pos_t *pos, float *res, const int *games, int n, double holdout)
{
    int every = holdout > 0 ? (int)lround(1 / holdout) : 0, k = 0, ntrain = 0;
    chess_pos_t *p2 = malloc(sizeof *p2 * (size_t)n);
    float *r2 = malloc(sizeof *r2 * (size_t)n);
    for (int pass = 0; pass < 2; pass++) {
        for (int j = 0; j < n; j++) {
            bool held = every > 0 && games[j] % every == every - 1;
            if (held != (pass == 1))
                continue;
            p2[k] = pos[j];
            r2[k++] = res[j];
        }
        if (pass == 0)
            ntrain = k;
    }
    memcpy(pos, p2, sizeof *p2 * (size_t)n);
    memcpy(res, r2, sizeof *r2 * (size_t)n);
    free(p2);
    free(r2);
    return ntrain;
}

static double s_sigmoid(double k, double q)
{
    return 1.0 / (1.0 + pow(10.0, -k * q / 400.0));
}

/* Evaluation of position j under weight changes dw (from the start). */
static double s_q(const s_data_t *d, int j, const double *dw)
{
    double q = d->base[j];
    for (int t = d->first[j]; t < d->first[j + 1]; t++)
        q += d->terms[t].coef * dw[d->terms[t].param];
    return q;
}

/* Mean squared error over positions [from, to). */
static double s_error(const s_data_t *d, int from, int to, double k, const double *dw)
{
    double e = 0;
    for (int j = from; j < to; j++) {
        double r = d->result[j] - s_sigmoid(k, s_q(d, j, dw));
        e += r * r;
    }
    return to > from ? e / (to - from) : 0;
}

/* The K that fits the weights as they are (golden-section search on the training set). */
static double s_fit_k(const s_data_t *d, const double *dw)
{
    double lo = 0.1, hi = 4.0, g = (sqrt(5.0) - 1) / 2;
    for (int it = 0; it < 40; it++) {
        double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
        if (s_error(d, 0, d->ntrain, a, dw) < s_error(d, 0, d->ntrain, b, dw))
            hi = b;
        else
            lo = a;
    }
    return (lo + hi) / 2;
}

/* Adam on the training set; dw holds the weight changes. Every 25 epochs the
 * held-out error is measured, and dw ends as the weights where it was lowest
 * (early stopping: the search does not follow the training set into noise). */
static void s_descend(const s_data_t *d, double k, int epochs, double rate, bool keep_last, double *dw)
{
    double m[EVAL_CHESS_NPARAMS] = { 0 }, v[EVAL_CHESS_NPARAMS] = { 0 }, grad[EVAL_CHESS_NPARAMS];
    double best[EVAL_CHESS_NPARAMS], best_err = s_error(d, d->ntrain, d->n, k, dw);
    int best_epoch = 0;
    memcpy(best, dw, sizeof best);
    const double b1 = 0.9, b2 = 0.999, scale = k * log(10.0) / 400.0;
    for (int e = 1; e <= epochs; e++) {
        memset(grad, 0, sizeof grad);
        for (int j = 0; j < d->ntrain; j++) {
            double s = s_sigmoid(k, s_q(d, j, dw));
            double g = -2.0 * (d->result[j] - s) * s * (1 - s) * scale / d->ntrain;
            for (int t = d->first[j]; t < d->first[j + 1]; t++)
                grad[d->terms[t].param] += g * d->terms[t].coef;
        }
        for (int i = 0; i < EVAL_CHESS_NPARAMS; i++) {
            m[i] = b1 * m[i] + (1 - b1) * grad[i];
            v[i] = b2 * v[i] + (1 - b2) * grad[i] * grad[i];
            double mh = m[i] / (1 - pow(b1, e)), vh = v[i] / (1 - pow(b2, e));
            dw[i] -= rate * mh / (sqrt(vh) + 1e-12);
        }
        if (e % 25 == 0) {
            double held = s_error(d, d->ntrain, d->n, k, dw);
            if (held < best_err) {
                best_err = held;
                best_epoch = e;
                memcpy(best, dw, sizeof best);
            }
            if (e % 100 == 0)
                fprintf(stderr, "texel_tune: epoch %d, training error %.6f, held out %.6f\n", e,
                        s_error(d, 0, d->ntrain, k, dw), held);
        }
    }
    if (keep_last) {
        fprintf(stderr, "texel_tune: the weights of the last epoch (lowest held-out error at epoch %d)\n", best_epoch);
        return;
    }
    memcpy(dw, best, sizeof best);
    fprintf(stderr, "texel_tune: the weights of epoch %d (lowest held-out error)\n", best_epoch);
}

/* Prints the weights as eval_chess_params.h's list. */
static void s_print(const double *dw)
{
    printf("#define EVAL_CHESS_PARAMS(X) \\\n   ");
    int col = 3;
    for (int i = 0; i < EVAL_CHESS_NPARAMS; i++) {
        char item[64];
        snprintf(item, sizeof item, " X(%s, %d)", eval_chess_names[i], eval_chess_w[i] + (int)lround(dw[i]));
        if (col + (int)strlen(item) > 96) {
            printf(" \\\n   ");
            col = 3;
        }
        printf("%s", item);
        col += (int)strlen(item);
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    int epochs = 1000;
    double rate = 1.0, holdout = 0.1;
    bool keep_last = false;
    if (argc < 2 || strcmp(argv[1], "--help") == 0) {
        fprintf(stderr, "usage: bench_texel_tune DATA [--epochs N] [--rate R] [--holdout F] [--keep best|last] [--only P,...]\n");
        return 2;
    }
    for (int i = 2; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--epochs") == 0)
            epochs = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--rate") == 0)
            rate = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--holdout") == 0)
            holdout = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--only") == 0)
            s_only = argv[i + 1];
        else if (strcmp(argv[i], "--keep") == 0)
            keep_last = strcmp(argv[i + 1], "last") == 0;
        else {
            fprintf(stderr, "texel_tune: unknown option '%s'\n", argv[i]);
            return 2;
        }
    }
    game_init();
    chess_pos_t *pos;
    s_data_t d = { 0 };
    int *games;
    d.n = s_read(argv[1], &pos, &d.result, &games);
    if (d.n <= 0)
        return d.n < 0 ? 1 : 2;
    d.ntrain = s_split(pos, d.result, games, d.n, holdout);
    s_measure(pos, &d);
    double dw[EVAL_CHESS_NPARAMS] = { 0 };
    double k = s_fit_k(&d, dw);
    double train0 = s_error(&d, 0, d.ntrain, k, dw), hold0 = s_error(&d, d.ntrain, d.n, k, dw);
    fprintf(stderr, "texel_tune: %d positions of %d games (%d positions trained on), %.1f terms each, K %.3f\n",
            d.n, games[d.n - 1] + 1, d.ntrain, (double)d.nterms / d.n, k);
    s_descend(&d, k, epochs, rate, keep_last, dw);
    for (int i = 0; i < EVAL_CHESS_NPARAMS; i++)
        dw[i] = (double)lround(dw[i]);
    fprintf(stderr, "texel_tune: error before %.6f (held out %.6f), after %.6f (held out %.6f)\n", train0, hold0,
            s_error(&d, 0, d.ntrain, k, dw), s_error(&d, d.ntrain, d.n, k, dw));
    s_print(dw);
    free(pos);
    return 0;
}
