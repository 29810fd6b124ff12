/* bench_game.c: speed of the game layer on a PGN file: PGN reading (parse +
 * replay + legality, plies/s) and SAN parsing (text to legal move in its
 * position, moves/s), each the median of several runs on one core.
 * usage: bench_game FILE.pgn [RUNS]   (prints one JSON object) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "pgn_game.h"
#include "san.h"

typedef struct {
    game_pos_t *pos;
    char (*san)[MOVE_TEXT_MAX];
    long n, cap;
    long plies;
    bool collect;
} s_data_t;

static void s_on_game(void *ctx, pgn_game_t *g)
{
    s_data_t *d = ctx;
    if (!g->has_record)
        return;
    d->plies += g->rec.ply_nb;
    for (int k = 1; d->collect && k <= g->rec.ply_nb; k++) {
        if (d->n == d->cap) {
            d->cap = d->cap ? d->cap * 2 : 4096;
            d->pos = realloc(d->pos, sizeof *d->pos * (size_t)d->cap);
            d->san = realloc(d->san, sizeof *d->san * (size_t)d->cap);
        }
        d->pos[d->n] = *record_pos_at(&g->rec, k - 1);
        gmove_san(&d->pos[d->n], g->rec.plies[k].move, d->san[d->n]);
        d->n++;
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_game FILE.pgn [RUNS]\n");
        return 2;
    }
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    FILE *f = fopen(argv[1], "rb");
    if (f == NULL || runs < 1 || runs > 99) {
        fprintf(stderr, "bench_game: cannot read %s\n", argv[1]);
        return 2;
    }
    char *text = NULL;
    size_t cap = 0;
    ssize_t len = getdelim(&text, &cap, '\0', f);
    fclose(f);
    game_init();
    s_data_t d = {.collect = true};
    pgn_replay_t o = {.default_variant = VARIANT_CHESS, .on_game = s_on_game, .ctx = &d};
    long games = pgn_replay_text(text, (size_t)len, &o);
    d.collect = false;
    double pgn_rate[99], san_rate[99], parse_rate[99], gen_rate[99];
    for (int r = 0; r < runs; r++) {
        d.plies = 0;
        double t0 = bench_cpu_seconds();
        pgn_replay_text(text, (size_t)len, &o);
        pgn_rate[r] = (double)d.plies / (bench_cpu_seconds() - t0);
        gmove_t m, check = 0;
        char err[160];
        t0 = bench_cpu_seconds();
        for (long i = 0; i < d.n; i++)
            if (san_move(&d.pos[i], d.san[i], &m, err, sizeof err) == SAN_OK)
                check ^= m;
        san_rate[r] = (double)d.n / (bench_cpu_seconds() - t0);
        t0 = bench_cpu_seconds();
        for (long i = 0; i < d.n; i++) {
            gmove_t moves[GAME_MOVES_MAX];
            check ^= (gmove_t)gmove_legal(&d.pos[i], moves);
        }
        gen_rate[r] = (double)d.n / (bench_cpu_seconds() - t0);
        san_t s;
        t0 = bench_cpu_seconds();
        for (long i = 0; i < d.n; i++)
            check ^= (gmove_t)(san_parse(d.san[i], &s, err, sizeof err) + s.to_file);
        parse_rate[r] = (double)d.n / (bench_cpu_seconds() - t0);
        if (check == 0xFFFF)
            puts(""); /* keeps the loops from being optimised away */
    }
    printf("{\"games\":%ld,\"plies\":%ld,\"runs\":%d,\"pgn_plies_per_s\":%.0f,\"san_moves_per_s\":%.0f,"
           "\"san_text_only_per_s\":%.0f,\"legal_gen_per_s\":%.0f}\n",
           games, d.plies, runs, bench_median(pgn_rate, runs), bench_median(san_rate, runs), bench_median(parse_rate, runs), bench_median(gen_rate, runs));
    free(d.pos);
    free(d.san);
    free(text);
    return 0;
}
