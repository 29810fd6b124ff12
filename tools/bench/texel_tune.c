/* texel_tune.c: Texel tuning of the chess evaluation's weights
 * (core/engine/eval_chess_params.h) and piece-square values (eval_chess_pst.h) on
 * positions of self-play games (bench_texel_games). The error of weights w is
 * the mean over positions of (T - s(q))^2, with q the evaluation for White,
 * s(q) = 1 / (1 + 10^(-K q / 400)), and T the target: the game's result R for
 * White (1, 1/2, 0), or with --lambda L below 1, L R + (1 - L) s(S) where S is
 * the line's search score for White. K is first fitted to the results with the
 * weights as they are.
 *
 * The evaluation is linear in every tuned value (weights and table entries), so
 * each position's evaluation is
 * q(w) = q(w0) + sum_i c_i (w_i - w0_i), with c_i measured once by raising
 * weight i by 100 and evaluating again (exact up to the taper's rounding, 1/100
 * cp); a piece-square value is raised only in the positions with a piece on
 * its square, the only ones where its coefficient can be nonzero, and a
 * mobility or king-danger entry only where the evaluation reads it. The error is
 * then minimised over w by full-batch gradient descent (Adam) on that linear
 * model, in seconds to minutes; the weights are rounded and printed as
 * eval_chess_params.h's list and eval_chess_pst.h's table. The last --holdout
 * share of the games is not trained on: its error says whether the new
 * weights generalise, and the weights where it was lowest are kept.
 *
 * usage: bench_texel_tune DATA [--epochs N] [--rate R] [--holdout F] [--lambda L]
 *                         [--l2 L] [--min-positions N] [--keep best|last] [--only P,...]
 *                         [--score-k same|fit]
 * (--score-k fit: the search scores S become expected results with their own K,
 * fitted to the training results, instead of the evaluation's; for scores from
 * another engine, tools/bench/sf_label.py; --l2: a penalty on the changes, see s_descend; --min-positions: a value is
 * tuned only when at least N training positions use it, so that a piece on a
 * rare square or a rare mobility count keeps its start; --keep last: the last epoch's
 * weights instead of those with the lowest held-out error; --only: tune only
 * the values whose names start with one of the prefixes; the piece-square
 * values are named pst_PIECE_SQUARE_mg|eg, e.g. pst_knight_f3_mg, the square
 * seen from the piece's side.) DATA lines are "FEN;R" or "FEN;R;S".
 * This file builds its own copy of core/engine/eval_chess.c (EVAL_CHESS_TUNABLE). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess/bitboard.h"
#include "eval.h"
#include "eval_chess_params.h"
#include "texel_data.h"

enum {
    S_STEP = 100,
    S_NPST = 2 * 6 * 64,
    S_KD0 = EVAL_CHESS_NPARAMS + S_NPST, /* the first king-danger entry */
    S_MOB0 = S_KD0 + 2 * EVAL_CHESS_KD_N, /* the first mobility entry */
    S_NMOB = 4 * EVAL_CHESS_MOB_N,       /* mobility entries per phase */
    S_NP = S_MOB0 + 2 * S_NMOB
};

typedef struct {
    float coef;
    int16_t param;
} s_term_t;

typedef struct {
    int n, ntrain;
    double *base;     /* q(w0) per position, for White */
    float *result;    /* the target T per position */
    int *first;       /* terms of position j: terms[first[j] .. first[j + 1] - 1] */
    s_term_t *terms;
    long nterms;
} s_data_t;

static int s_min_positions; /* --min-positions: values used by fewer training positions stay */
static const char *s_only; /* --only: a comma-separated list of name prefixes to tune (NULL: all) */

static const char *const s_piece[6] = { "pawn", "knight", "bishop", "rook", "queen", "king" };

/* Tuned value i: a named weight, then the piece-square values
 * [phase][piece][square], the king-danger table [queen][units] and the
 * mobility table [phase][piece - 1][squares]. */
static int *s_value(int i)
{
    if (i < EVAL_CHESS_NPARAMS)
        return &eval_chess_w[i];
    if (i >= S_MOB0)
        return &eval_chess_mob[(i - S_MOB0) / S_NMOB][(i - S_MOB0) % S_NMOB / EVAL_CHESS_MOB_N]
                              [(i - S_MOB0) % EVAL_CHESS_MOB_N];
    if (i >= S_KD0)
        return &eval_chess_kd[(i - S_KD0) / EVAL_CHESS_KD_N][(i - S_KD0) % EVAL_CHESS_KD_N];
    int k = i - EVAL_CHESS_NPARAMS;
    return &eval_chess_pst[k / 384][k / 64 % 6][k % 64];
}

static const char *s_name(int i, char *buf, size_t len)
{
    if (i < EVAL_CHESS_NPARAMS)
        return eval_chess_names[i];
    if (i >= S_MOB0) {
        int k = i - S_MOB0;
        snprintf(buf, len, "mob_%s_%d_%s", s_piece[1 + k % S_NMOB / EVAL_CHESS_MOB_N], k % EVAL_CHESS_MOB_N,
                 k < S_NMOB ? "mg" : "eg");
        return buf;
    }
    if (i >= S_KD0) {
        int k = i - S_KD0;
        snprintf(buf, len, "kd_%s_%d", k < EVAL_CHESS_KD_N ? "noqueen" : "queen", k % EVAL_CHESS_KD_N);
        return buf;
    }
    int k = i - EVAL_CHESS_NPARAMS, sq = k % 64;
    snprintf(buf, len, "pst_%s_%c%d_%s", s_piece[k / 64 % 6], 'a' + sq % 8, sq / 8 + 1, k < 384 ? "mg" : "eg");
    return buf;
}

static bool s_tuned(int i)
{
    char buf[32];
    const char *name = s_name(i, buf, sizeof buf);
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

static void s_add_term(s_data_t *d, long *cap, double c, int i)
{
    if (fabs(c) < 1e-6)
        return;
    if (d->nterms == *cap) {
        *cap *= 2;
        d->terms = realloc(d->terms, sizeof *d->terms * (size_t)*cap);
        if (d->terms == NULL) {
            fprintf(stderr, "texel_tune: out of memory\n");
            exit(1);
        }
    }
    d->terms[d->nterms++] = (s_term_t){ (float)c, (int16_t)i };
}

/* The coefficients of position j's piece-square values: each square-and-piece
 * entry in use is raised once (two pieces may share one). */
static void s_measure_pst(const chess_pos_t *p, s_data_t *d, int j, long *cap)
{
    bool seen[384] = { false };
    for (int c = 0; c < 2; c++) {
        for (int t = 0; t < 6; t++) {
            for (uint64_t b = p->pieces[t] & p->colors[c]; b;) {
                int sq = bb64_pop(&b), e = t * 64 + (c == CHESS_WHITE ? sq : sq ^ 56);
                if (seen[e])
                    continue;
                seen[e] = true;
                for (int h = 0; h < 2; h++) {
                    int i = EVAL_CHESS_NPARAMS + h * 384 + e;
                    if (!s_tuned(i))
                        continue;
                    *s_value(i) += S_STEP;
                    s_add_term(d, cap, (s_white_eval(p) - d->base[j]) / S_STEP, i);
                    *s_value(i) -= S_STEP;
                }
            }
        }
    }
}

/* The coefficients of position j's king-danger and mobility entries: only
 * those its evaluation reads (eval_chess_used), each raised once (a mobility
 * entry in both phases). */
static void s_measure_tables(const chess_pos_t *p, s_data_t *d, int j, long *cap)
{
    s_white_eval(p);
    int used[EVAL_CHESS_USED_MAX], nused = eval_chess_nused;
    memcpy(used, eval_chess_used, sizeof used);
    for (int u = 0; u < nused; u++) {
        bool again = false;
        for (int v = 0; v < u; v++)
            again |= used[v] == used[u];
        int e = used[u], mob = e >= EVAL_CHESS_USED_MOB;
        for (int h = 0; !again && h < 1 + mob; h++) {
            int i = mob ? S_MOB0 + h * S_NMOB + e - EVAL_CHESS_USED_MOB : S_KD0 + e;
            if (!s_tuned(i))
                continue;
            *s_value(i) += S_STEP;
            s_add_term(d, cap, (s_white_eval(p) - d->base[j]) / S_STEP, i);
            *s_value(i) -= S_STEP;
        }
    }
}

/* Measures every position's base evaluation and its coefficient for each tuned value. */
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
    long cap = (long)d->n * 64;
    d->terms = malloc(sizeof *d->terms * (size_t)cap);
    d->nterms = 0;
    for (int j = 0; j < d->n; j++) {
        d->first[j] = (int)d->nterms;
        for (int i = 0; i < EVAL_CHESS_NPARAMS; i++)
            if (s_tuned(i))
                s_add_term(d, &cap, (raised[(size_t)j * EVAL_CHESS_NPARAMS + (size_t)i] - d->base[j]) / S_STEP, i);
        s_measure_pst(&pos[j], d, j, &cap);
        s_measure_tables(&pos[j], d, j, &cap);
    }
    d->first[d->n] = (int)d->nterms;
    free(raised);
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

/* The K in [0.1, 4] that minimises err(ctx, K) (golden-section search). */
static double s_golden(double (*err)(const void *ctx, double k), const void *ctx)
{
    double lo = 0.1, hi = 4.0, g = (sqrt(5.0) - 1) / 2;
    for (int it = 0; it < 40; it++) {
        double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
        if (err(ctx, a) < err(ctx, b))
            hi = b;
        else
            lo = a;
    }
    return (lo + hi) / 2;
}

typedef struct {
    const s_data_t *d;
    const double *dw;   /* for s_eval_k_error */
    const float *score; /* for s_score_k_error */
} s_kfit_t;

static double s_eval_k_error(const void *ctx, double k)
{
    const s_kfit_t *c = ctx;
    return s_error(c->d, 0, c->d->ntrain, k, c->dw);
}

static double s_score_k_error(const void *ctx, double k)
{
    const s_kfit_t *c = ctx;
    double e = 0;
    for (int j = 0; j < c->d->ntrain; j++) {
        double r = c->d->result[j] - s_sigmoid(k, c->score[j]);
        e += r * r;
    }
    return e;
}

/* The K that fits the weights as they are, on the training set. */
static double s_fit_k(const s_data_t *d, const double *dw)
{
    return s_golden(s_eval_k_error, &(s_kfit_t){ .d = d, .dw = dw });
}

/* The K that best turns the search scores into the training results: another
 * engine's centipawns (tools/bench/sf_label.py) need not mean what ours mean. */
static double s_fit_score_k(const s_data_t *d, const float *score)
{
    return s_golden(s_score_k_error, &(s_kfit_t){ .d = d, .score = score });
}

/* The targets blended: lambda times the game's result plus 1 - lambda times
 * the search score as an expected result (the same K). Non-zero when a
 * position has no score. */
static int s_blend(s_data_t *d, const float *score, double k, double lambda)
{
    for (int j = 0; j < d->n; j++) {
        if (isnan(score[j])) {
            fprintf(stderr, "texel_tune: --lambda below 1 needs a search score on every line (FEN;R;S)\n");
            return -1;
        }
        d->result[j] = (float)(lambda * d->result[j] + (1 - lambda) * s_sigmoid(k, score[j]));
    }
    return 0;
}

/* Adam on the training set; dw holds the weight changes. Every 25 epochs the
 * held-out error is measured, and dw ends as the weights where it was lowest
 * (early stopping: the search does not follow the training set into noise).
 * l2 adds l2 * sum dw_i^2 to the error: a value that few positions use (a
 * piece on a rare square) stays near its start, as Adam would otherwise move
 * it as fast as the common ones. */
static void s_descend(const s_data_t *d, double k, int epochs, double rate, double l2, bool keep_last, double *dw)
{
    double m[S_NP] = { 0 }, v[S_NP] = { 0 }, grad[S_NP];
    double best[S_NP], best_err = s_error(d, d->ntrain, d->n, k, dw);
    int best_epoch = 0;
    memcpy(best, dw, sizeof best);
    const double b1 = 0.9, b2 = 0.999, scale = k * log(10.0) / 400.0;
    static int uses[S_NP];
    memset(uses, 0, sizeof uses);
    for (long t = 0; t < d->first[d->ntrain]; t++)
        uses[d->terms[t].param]++;
    int frozen = 0;
    for (int i = 0; i < S_NP; i++)
        frozen += uses[i] > 0 && uses[i] < s_min_positions;
    if (frozen > 0)
        fprintf(stderr, "texel_tune: %d values used by fewer than %d training positions keep their start\n", frozen,
                s_min_positions);
    for (int e = 1; e <= epochs; e++) {
        memset(grad, 0, sizeof grad);
        for (int j = 0; j < d->ntrain; j++) {
            double s = s_sigmoid(k, s_q(d, j, dw));
            double g = -2.0 * (d->result[j] - s) * s * (1 - s) * scale / d->ntrain;
            for (int t = d->first[j]; t < d->first[j + 1]; t++)
                grad[d->terms[t].param] += g * d->terms[t].coef;
        }
        for (int i = 0; i < S_NP; i++) {
            if (uses[i] < s_min_positions)
                continue;
            grad[i] += 2 * l2 * dw[i];
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

/* Prints the mobility table as eval_chess_params.h holds it. */
static void s_print_mob(const double *dw)
{
    printf("\n\n#define EVAL_CHESS_MOBILITY { \\\n");
    for (int h = 0; h < 2; h++) {
        printf("    { /* %s */ \\\n", h == 0 ? "middlegame" : "endgame");
        for (int t = 0; t < 4; t++) {
            printf("        { /* %s, 0..%d squares */ \\\n", s_piece[1 + t], EVAL_CHESS_MOB_N - 1);
            for (int n = 0; n < EVAL_CHESS_MOB_N; n++) {
                int i = S_MOB0 + h * S_NMOB + t * EVAL_CHESS_MOB_N + n;
                printf("%s%4d%s", n % 14 == 0 ? "           " : "", *s_value(i) + (int)lround(dw[i]),
                       n % 14 < 13 ? "," : ", \\\n");
            }
            printf("        }, \\\n");
        }
        printf("    }, \\\n");
    }
    printf("}");
}

/* Prints the king-danger table as eval_chess_params.h holds it. */
static void s_print_kd(const double *dw)
{
    printf("\n\n#define EVAL_CHESS_KING_DANGER { \\\n");
    for (int q = 0; q < 2; q++) {
        printf("    { /* attacker %s a queen, 0..%d attack units */ \\\n", q ? "with" : "without", EVAL_CHESS_KD_N - 1);
        for (int u = 0; u < EVAL_CHESS_KD_N; u++) {
            int i = S_KD0 + q * EVAL_CHESS_KD_N + u;
            printf("%s%4d%s", u % 16 == 0 ? "        " : "", *s_value(i) + (int)lround(dw[i]), u % 16 < 15 ? "," : ", \\\n");
        }
        printf("    }, \\\n");
    }
    printf("}");
}

/* Prints the weights as eval_chess_params.h's list, mobility and king-danger
 * tables, then the piece-square values as eval_chess_pst.h's table. */
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
    s_print_mob(dw);
    s_print_kd(dw);
    printf("\n\n#define EVAL_CHESS_PST { \\\n");
    for (int h = 0; h < 2; h++) {
        printf("    { /* %s */ \\\n", h == 0 ? "middlegame" : "endgame");
        for (int t = 0; t < 6; t++) {
            printf("        { /* %s, a1..h1 first */ \\\n", s_piece[t]);
            for (int r = 0; r < 8; r++) {
                printf("           ");
                for (int f = 0; f < 8; f++) {
                    int i = EVAL_CHESS_NPARAMS + h * 384 + t * 64 + r * 8 + f;
                    printf("%4d%s", *s_value(i) + (int)lround(dw[i]), f < 7 ? "," : ", \\\n");
                }
            }
            printf("        }, \\\n");
        }
        printf("    }, \\\n");
    }
    printf("}\n");
}

static void s_free(s_data_t *d, s_data_t *outcome, chess_pos_t *pos, float *score, int *games)
{
    free(d->base);
    free(d->first);
    free(d->terms);
    free(d->result);
    free(outcome->result);
    free(score);
    free(games);
    free(pos);
}

int main(int argc, char **argv)
{
    int epochs = 1000;
    double rate = 1.0, holdout = 0.1, l2 = 0, lambda = 1;
    bool keep_last = false, fit_score_k = false;
    if (argc < 2 || strcmp(argv[1], "--help") == 0) {
        fprintf(stderr, "usage: bench_texel_tune DATA [--epochs N] [--rate R] [--holdout F] [--lambda L] [--l2 L] [--min-positions N] [--keep best|last] [--only P,...] [--score-k same|fit]\n");
        return 2;
    }
    for (int i = 2; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--epochs") == 0)
            epochs = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--rate") == 0)
            rate = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--lambda") == 0)
            lambda = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--l2") == 0)
            l2 = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--holdout") == 0)
            holdout = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--only") == 0)
            s_only = argv[i + 1];
        else if (strcmp(argv[i], "--min-positions") == 0)
            s_min_positions = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--keep") == 0)
            keep_last = strcmp(argv[i + 1], "last") == 0;
        else if (strcmp(argv[i], "--score-k") == 0 && (strcmp(argv[i + 1], "same") == 0 || strcmp(argv[i + 1], "fit") == 0))
            fit_score_k = strcmp(argv[i + 1], "fit") == 0;
        else {
            fprintf(stderr, "texel_tune: unknown option '%s'\n", argv[i]);
            return 2;
        }
    }
    game_init();
    chess_pos_t *pos;
    s_data_t d = { 0 };
    int *games;
    float *score;
    d.n = texel_read(argv[1], &pos, &d.result, &score, &games);
    if (d.n <= 0)
        return d.n < 0 ? 1 : 2;
    d.ntrain = texel_split(pos, d.result, score, games, d.n, holdout);
    s_measure(pos, &d);
    double dw[S_NP] = { 0 };
    double k = s_fit_k(&d, dw);
    s_data_t outcome = d; /* the same positions with the results alone as targets */
    outcome.result = malloc(sizeof *outcome.result * (size_t)d.n);
    memcpy(outcome.result, d.result, sizeof *outcome.result * (size_t)d.n);
    double score_k = k;
    if (lambda < 1 && fit_score_k) {
        for (int j = 0; j < d.n; j++)
            if (isnan(score[j])) {
                fprintf(stderr, "texel_tune: --score-k fit needs a search score on every line (FEN;R;S)\n");
                s_free(&d, &outcome, pos, score, games);
                return 2;
            }
        score_k = s_fit_score_k(&d, score);
        fprintf(stderr, "texel_tune: the scores' own K %.3f (the evaluation's %.3f)\n", score_k, k);
    }
    if (lambda < 1 && s_blend(&d, score, score_k, lambda) != 0) {
        s_free(&d, &outcome, pos, score, games);
        return 2;
    }
    double outcome0 = s_error(&outcome, d.ntrain, d.n, k, dw);
    double train0 = s_error(&d, 0, d.ntrain, k, dw), hold0 = s_error(&d, d.ntrain, d.n, k, dw);
    fprintf(stderr, "texel_tune: %d positions of %d games (%d positions trained on), %.1f terms each, K %.3f\n",
            d.n, games[d.n - 1] + 1, d.ntrain, (double)d.nterms / d.n, k);
    s_descend(&d, k, epochs, rate, l2, keep_last, dw);
    for (int i = 0; i < S_NP; i++)
        dw[i] = (double)lround(dw[i]);
    fprintf(stderr, "texel_tune: error before %.6f (held out %.6f), after %.6f (held out %.6f)\n", train0, hold0,
            s_error(&d, 0, d.ntrain, k, dw), s_error(&d, d.ntrain, d.n, k, dw));
    if (lambda < 1)
        fprintf(stderr, "texel_tune: held out, against the results alone: before %.6f, after %.6f\n", outcome0,
                s_error(&outcome, d.ntrain, d.n, k, dw));
    s_print(dw);
    s_free(&d, &outcome, pos, score, games);
    return 0;
}
