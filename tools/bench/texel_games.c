/* texel_games.c: the data of the chess evaluation's Texel tuning: the engine
 * plays itself from the chess start after a few uniformly random plies (so
 * the games differ), at a fixed node budget a move, and the quiet positions of
 * each game are written with its result. A position is kept when it is past
 * the random plies, the side to move is not in check, the engine's move is
 * neither a capture nor a promotion and its score is not a mate. The rules
 * (mate, stalemate, repetition, the 75-move rule, insufficient material) are
 * the game layer's (record_t); a game still going at --max-plies is a draw.
 *
 * usage: bench_texel_games [--games N] [--nodes K] [--random-plies R] [--seed S]
 *                          [--max-plies P] --out FILE
 * FILE gets one line per position: "FEN;R;S" with R the result for White (1,
 * 0.5, 0) and S the engine's search score of the position for White, in
 * centipawns. Progress goes to stderr. Deterministic for the same options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "gmove.h"
#include "record.h"

typedef struct {
    long games, nodes, random_plies, seed, max_plies;
    const char *out;
} s_opts_t;

static uint64_t s_rand(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return *state >> 33;
}

/* Pieces on the board and pawns: a capture lowers the first, a promotion the second. */
static int s_count(const game_pos_t *p, int pawns)
{
    const chess_pos_t *c = &p->u.chess;
    return __builtin_popcountll(pawns ? c->pieces[CHESS_PAWN] : c->colors[0] | c->colors[1]);
}

/* Plays R random plies; false if the game ended in them. */
static bool s_random_start(record_t *rec, long plies, uint64_t *rng)
{
    gmove_t moves[GAME_MOVES_MAX];
    for (long i = 0; i < plies; i++) {
        int n = gmove_legal(record_pos(rec), moves);
        if (n == 0 || record_over(rec))
            return false;
        record_play(rec, moves[s_rand(rng) % (uint64_t)n]);
    }
    return !record_over(rec);
}

/* The engine's move in rec's position (history included); its score into *score. */
static engine_move_t s_engine_move(engine_t *eng, const record_t *rec, long nodes, int *score)
{
    static engine_game_t g;
    static engine_result_t r;
    engine_game_reset(&g, record_pos_at(rec, 0));
    for (int k = 1; k <= rec->ply_nb; k++)
        engine_game_make(&g, (engine_move_t)rec->plies[k].move);
    engine_history_t h = engine_game_history(&g);
    engine_limits_t lim = { .nodes = (uint64_t)nodes };
    engine_search(eng, &g.pos, &h, &lim, NULL, NULL, NULL, &r);
    *score = r.nlines ? r.lines[0].score : 0;
    return r.best;
}

/* One game; writes its kept positions with the result. Returns how many, or -1 if the opening ended it. */
static int s_game(engine_t *eng, const s_opts_t *o, uint64_t *rng, FILE *out)
{
    static char fens[1024][GAME_TEXT_MAX];
    static int scores[1024];
    record_t rec = { 0 };
    game_pos_t start;
    int kept = 0;
    game_parse(VARIANT_CHESS, game_start_text(VARIANT_CHESS), &start, NULL, 0);
    if (record_init(&rec, &start) != 0 || !s_random_start(&rec, o->random_plies, rng)) {
        record_free(&rec);
        return -1;
    }
    engine_clear(eng);
    while (!record_over(&rec) && rec.ply_nb < o->max_plies) {
        int score;
        engine_move_t m = s_engine_move(eng, &rec, o->nodes, &score);
        game_pos_t after;
        engine_make(record_pos(&rec), m, &after);
        bool quiet = s_count(&after, 0) == s_count(record_pos(&rec), 0)
                     && s_count(&after, 1) == s_count(record_pos(&rec), 1);
        bool check = (record_status(&rec, rec.ply_nb) & GAME_IN_CHECK) != 0;
        if (quiet && !check && score < ENGINE_MATE_BOUND && score > -ENGINE_MATE_BOUND && kept < 1024) {
            scores[kept] = record_pos(&rec)->u.chess.side == CHESS_WHITE ? score : -score;
            game_format(record_pos(&rec), fens[kept++], GAME_TEXT_MAX);
        }
        record_play(&rec, (gmove_t)m);
    }
    const char *result = rec.result == RESULT_WHITE ? "1" : rec.result == RESULT_BLACK ? "0" : "0.5";
    for (int i = 0; i < kept; i++)
        fprintf(out, "%s;%s;%d\n", fens[i], result, scores[i]);
    record_free(&rec);
    return kept;
}

static int s_parse(int argc, char **argv, s_opts_t *o)
{
    *o = (s_opts_t){ .games = 100, .nodes = 2000, .random_plies = 8, .seed = 1, .max_plies = 400 };
    for (int i = 0; i < argc; i++) {
        long *v = strcmp(argv[i], "--games") == 0          ? &o->games
                  : strcmp(argv[i], "--nodes") == 0        ? &o->nodes
                  : strcmp(argv[i], "--random-plies") == 0 ? &o->random_plies
                  : strcmp(argv[i], "--seed") == 0         ? &o->seed
                  : strcmp(argv[i], "--max-plies") == 0    ? &o->max_plies
                                                           : NULL;
        if (i + 1 >= argc) {
            fprintf(stderr, "texel_games: %s needs a value\n", argv[i]);
            return 2;
        }
        if (strcmp(argv[i], "--out") == 0) {
            o->out = argv[++i];
            continue;
        }
        char *end;
        if (v == NULL || (*v = strtol(argv[++i], &end, 10), *end != '\0') || *v < 0) {
            fprintf(stderr, "texel_games: bad option or value '%s' (see the header of tools/bench/texel_games.c)\n", argv[i]);
            return 2;
        }
    }
    if (o->out == NULL || o->nodes < 1 || o->max_plies < 1) {
        fprintf(stderr, "usage: bench_texel_games [--games N] [--nodes K] [--random-plies R] [--seed S] "
                        "[--max-plies P] --out FILE\n");
        return 2;
    }
    return 0;
}

int main(int argc, char **argv)
{
    s_opts_t o;
    if (s_parse(argc - 1, argv + 1, &o) != 0)
        return 2;
    FILE *out = fopen(o.out, "w");
    engine_t *eng = engine_new((size_t)8 << 20);
    if (out == NULL || eng == NULL) {
        fprintf(stderr, "texel_games: cannot open %s or out of memory\n", o.out);
        return 1;
    }
    uint64_t rng = (uint64_t)o.seed * 0x9E3779B97F4A7C15ULL + 1;
    long positions = 0;
    for (long g = 0; g < o.games;) {
        int kept = s_game(eng, &o, &rng, out);
        if (kept < 0)
            continue;
        positions += kept;
        if (++g % 50 == 0 || g == o.games)
            fprintf(stderr, "texel_games: %ld/%ld games, %ld positions\n", g, o.games, positions);
    }
    engine_destroy(&eng);
    return fclose(out) == 0 ? 0 : 1;
}
