/* octad_random.c: the engine against a uniformly random mover in octad, from
 * every deployed start (each side's king, knight and two pawns in any order on
 * its home rank: 144 combinations), colours alternating, with RULES.md's game
 * ends (mate, stalemate, threefold, the 25-move rule, insufficient material).
 * usage: bench_octad_random [GAMES] [DEPTH] [SEED]; prints wins/draws/losses of
 * the engine and exits 1 if it lost a game. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

/* The 12 distinct orders of K, N, P, P on four squares, as letters. */
static int s_arrangements(char out[12][5])
{
    int n = 0;
    for (int k = 0; k < 4; k++)
        for (int m = 0; m < 4; m++) {
            if (m == k)
                continue;
            char row[5] = "PPPP";
            row[k] = 'K';
            row[m] = 'N';
            memcpy(out[n++], row, 5);
        }
    return n;
}

static uint64_t s_rand(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return *state >> 33;
}

/* 1 white won, 0 draw, -1 black won. */
static int s_outcome(const engine_game_t *g)
{
    int st = game_status(&g->pos);
    if (st & GAME_CHECKMATE)
        return g->pos.u.octad.side == OCTAD_WHITE ? -1 : 1;
    if ((st & GAME_STALEMATE) || game_insufficient_material(&g->pos) || g->pos.u.octad.halfmove >= 50)
        return 0;
    engine_key_t k = engine_key(&g->pos);
    int seen = 1;
    for (int i = 0; i < g->n; i++)
        seen += g->keys[i].a == k.a && g->keys[i].b == k.b;
    return seen >= 3 ? 0 : 2; /* 2: the game goes on */
}

/* One game; returns the result for the engine (1, 0, -1). */
static int s_game(engine_t *eng, const game_pos_t *start, bool engine_white, int depth, uint64_t *rng)
{
    static engine_game_t g;
    static engine_result_t r;
    engine_game_reset(&g, start);
    engine_limits_t lim = { .depth = depth };
    engine_clear(eng);
    for (int ply = 0; ply < 1000; ply++) {
        int out = s_outcome(&g);
        if (out != 2)
            return engine_white ? out : -out;
        bool engine_moves = (g.pos.u.octad.side == OCTAD_WHITE) == engine_white;
        engine_move_t m;
        if (engine_moves) {
            engine_history_t h = engine_game_history(&g);
            engine_search(eng, &g.pos, &h, &lim, NULL, NULL, NULL, &r);
            m = r.best;
        } else {
            octad_move_t moves[GAME_MOVES_MAX];
            int n = octad_gen_legal(&g.pos.u.octad, moves);
            m = moves[s_rand(rng) % (uint64_t)n];
        }
        engine_game_make(&g, m);
    }
    return 0;
}

int main(int argc, char **argv)
{
    int games = argc > 1 ? atoi(argv[1]) : 1000, depth = argc > 2 ? atoi(argv[2]) : 8;
    uint64_t rng = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    char rows[12][5];
    int na = s_arrangements(rows), result[3] = { 0 };
    engine_t *eng = engine_new((size_t)16 << 20);
    if (eng == NULL || games < 1 || depth < 1)
        return 2;
    for (int i = 0; i < games; i++) {
        int w = (i / 2) % (na * na), b = w / na;
        char ofen[64], black[5];
        for (int j = 0; j < 4; j++)
            black[j] = (char)(rows[b][3 - j] + ('a' - 'A')); /* mirrored: Black's left is the d-file */
        black[4] = '\0';
        snprintf(ofen, sizeof ofen, "%s/4/4/%s w NCFncf - 0 1", black, rows[w % na]);
        game_pos_t start;
        char err[128];
        if (game_parse(VARIANT_OCTAD, ofen, &start, err, sizeof err) != 0) {
            fprintf(stderr, "bench_octad_random: %s: %s\n", ofen, err);
            return 2;
        }
        result[s_game(eng, &start, i % 2 == 0, depth, &rng) + 1]++;
    }
    engine_destroy(&eng);
    printf("engine (depth %d) vs random mover, %d games from deployed starts: +%d =%d -%d\n", depth, games,
           result[2], result[1], result[0]);
    return result[0] > 0 ? 1 : 0;
}
