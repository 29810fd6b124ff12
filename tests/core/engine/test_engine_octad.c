/* test_engine_octad.c: the engine on octad, judged by outcomes: forced mates
 * found with their exact distance (checked against a plain full-width mate
 * solver written here, independent of the engine), stalemate avoided when
 * winning, the 25-move rule and repetitions taken by a lost side, insufficient
 * material, determinism, multi-PV and the solver-table probe seam. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine.h"
#include "test_parse.h"

static engine_t *s_eng;

/* Whether the side to move of p can force mate within n moves (2n-1 plies),
 * by plain and-or search over every legal move (no pruning, no draw rules). */
static bool s_mates_in(const octad_pos_t *p, int n)
{
    octad_move_t moves[GAME_MOVES_MAX], replies[GAME_MOVES_MAX];
    int nm = octad_gen_legal(p, moves);
    for (int i = 0; i < nm; i++) {
        octad_pos_t c;
        octad_make(p, moves[i], &c);
        int nr = octad_gen_legal(&c, replies);
        if (nr == 0) {
            if (octad_status(&c) & OCTAD_CHECKMATE)
                return true;
            continue;
        }
        if (n == 1)
            continue;
        bool all = true;
        for (int j = 0; j < nr && all; j++) {
            octad_pos_t g;
            octad_make(&c, replies[j], &g);
            all = s_mates_in(&g, n - 1);
        }
        if (all)
            return true;
    }
    return false;
}

/* Whether every reply of the side to move of p leaves a forced mate in n
 * for the other side (p itself is not mate or stalemate). */
static bool s_replies_mated(const octad_pos_t *p, int n)
{
    octad_move_t replies[GAME_MOVES_MAX];
    int nr = octad_gen_legal(p, replies);
    if (nr == 0)
        return false;
    for (int j = 0; j < nr; j++) {
        octad_pos_t g;
        octad_make(p, replies[j], &g);
        if (!s_mates_in(&g, n))
            return false;
    }
    return true;
}

/* The shortest forced mate in moves (1..max), or 0. */
static int s_mate_distance(const octad_pos_t *p, int max)
{
    for (int n = 1; n <= max; n++)
        if (s_mates_in(p, n))
            return n;
    return 0;
}

static engine_result_t s_search(const game_pos_t *p, const engine_history_t *h, int depth)
{
    static engine_result_t r;
    engine_limits_t lim = { .depth = depth };
    engine_clear(s_eng);
    assert_int_equal(engine_search(s_eng, p, h, &lim, NULL, NULL, NULL, &r), 0);
    return r;
}

/* Plays out a pseudo-random game from the start (seeded), returning the
 * positions along it in out[] (clocks zeroed); returns how many. */
static int s_playout(uint64_t seed, game_pos_t *out, int max)
{
    game_pos_t p = test_parse(VARIANT_OCTAD, OCTAD_START_OFEN);
    int n = 0;
    for (int ply = 0; ply < 60 && n < max; ply++) {
        octad_move_t moves[GAME_MOVES_MAX];
        int nm = octad_gen_legal(&p.u.octad, moves);
        if (nm == 0 || octad_insufficient_material(&p.u.octad))
            break;
        p.u.octad.halfmove = 0;
        out[n++] = p;
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        octad_make(&p.u.octad, moves[(seed >> 33) % (uint64_t)nm], &p.u.octad);
    }
    return n;
}

/* Many positions of each mate distance 1..3 from seeded playouts: the engine
 * finds a mate of exactly the solver's distance, and its move keeps it. */
static void test_mates(void **state)
{
    (void)state;
    int found[4] = { 0 };
    static game_pos_t line[64];
    for (uint64_t seed = 1; seed < 400 && (found[1] < 8 || found[2] < 8 || found[3] < 6); seed++) {
        int n = s_playout(seed, line, 64);
        for (int i = 0; i < n; i++) {
            int d = s_mate_distance(&line[i].u.octad, 3);
            if (d == 0 || found[d] >= (d == 3 ? 6 : 8))
                continue;
            found[d]++;
            engine_result_t r = s_search(&line[i], NULL, 2 * d + 3);
            char ofen[GAME_TEXT_MAX];
            game_format(&line[i], ofen, sizeof ofen);
            if (r.lines[0].score != ENGINE_MATE - (2 * d - 1))
                fail_msg("%s: mate in %d, engine score %d", ofen, d, r.lines[0].score);
            game_pos_t after;
            engine_make(&line[i], r.best, &after);
            if (d == 1)
                assert_true(octad_status(&after.u.octad) & OCTAD_CHECKMATE);
            else /* after the engine's move the opponent is mated in d-1 whatever it does */
                assert_true(s_replies_mated(&after.u.octad, d - 1));
        }
    }
    assert_int_equal(found[1], 8);
    assert_int_equal(found[2], 8);
    assert_int_equal(found[3], 6);
}

/* Whether m stalemates the opponent. */
static bool s_stalemates(const game_pos_t *p, engine_move_t m)
{
    game_pos_t c;
    engine_make(p, m, &c);
    return (game_status(&c) & GAME_STALEMATE) != 0;
}

/* Where a stalemating move exists and the side to move is clearly better,
 * the engine never plays it. */
static void test_stalemate_avoided(void **state)
{
    (void)state;
    int checked = 0;
    static game_pos_t line[64];
    for (uint64_t seed = 1000; seed < 3000 && checked < 12; seed++) {
        int n = s_playout(seed, line, 64);
        for (int i = 0; i < n && checked < 12; i++) {
            engine_move_t moves[GAME_MOVES_MAX];
            int nm = octad_gen_legal(&line[i].u.octad, moves), stal = 0;
            for (int j = 0; j < nm; j++)
                stal += s_stalemates(&line[i], moves[j]);
            if (stal == 0 || stal == nm)
                continue;
            engine_result_t r = s_search(&line[i], NULL, 8);
            if (r.lines[0].score < 200)
                continue;
            checked++;
            assert_false(s_stalemates(&line[i], r.best));
        }
    }
    assert_int_equal(checked, 12);
}

/* The 25-move rule: at halfmove 49 every quiet move draws, unless it mates. */
static void test_25_move_rule(void **state)
{
    (void)state;
    /* A lone black king against king and queen: lost, unless the clock saves it. */
    game_pos_t lost0 = test_parse(VARIANT_OCTAD, "k3/4/4/K1Q1 b - - 0 1");
    game_pos_t lost49 = test_parse(VARIANT_OCTAD, "k3/4/4/K1Q1 b - - 49 1");
    engine_result_t r0 = s_search(&lost0, NULL, 10);
    engine_result_t r49 = s_search(&lost49, NULL, 10);
    assert_true(r0.lines[0].score < -ENGINE_MATE_BOUND);
    assert_int_equal(r49.lines[0].score, 0);
    /* A mate on the 50th halfmove still wins; without a mate in one it is a draw. */
    game_pos_t win49 = test_parse(VARIANT_OCTAD, "k3/2Q1/1K2/4 w - - 49 1");
    assert_int_equal(s_mate_distance(&win49.u.octad, 1), 1);
    engine_result_t w = s_search(&win49, NULL, 6);
    assert_int_equal(w.lines[0].score, ENGINE_MATE - 1);
    game_pos_t nomate49 = test_parse(VARIANT_OCTAD, "k3/4/4/K1Q1 w - - 49 1");
    assert_int_equal(s_mate_distance(&nomate49.u.octad, 1), 0);
    assert_int_equal(s_search(&nomate49, NULL, 6).lines[0].score, 0);
}

/* Threefold repetition from the game history: a lost side repeats. */
static void test_repetition(void **state)
{
    (void)state;
    /* A lone black king (mated in two) shuffles a4-b4 while White shuffles a1-b1. */
    static const char *const moves[] = { "a1b1", "a4b4", "b1a1", "b4a4", "a1b1", "a4b4", "b1a1" };
    game_pos_t start = test_parse(VARIANT_OCTAD, "k3/4/4/K1QR w - - 0 1");
    static engine_game_t g;
    engine_game_reset(&g, &start);
    for (int i = 0; i < 7; i++)
        assert_int_equal(engine_game_play(&g, moves[i]), 0);
    engine_history_t h = engine_game_history(&g);
    engine_result_t with = s_search(&g.pos, &h, 8);
    char text[MOVE_TEXT_MAX];
    engine_move_text(&g.pos, with.best, text);
    assert_string_equal(text, "b4a4");
    assert_int_equal(with.lines[0].score, 0);
    /* The same position without its history is lost (no repetition to claim). */
    engine_result_t without = s_search(&g.pos, NULL, 8);
    assert_true(without.lines[0].score < -300);
    /* Two earlier occurrences are needed: after one, b4a4 is no draw. */
    engine_history_t h3 = { g.keys + 4, 3 };
    engine_result_t once = s_search(&g.pos, &h3, 8);
    assert_true(once.lines[0].score < -300);
}

/* Insufficient material: every line is a draw. */
static void test_insufficient(void **state)
{
    (void)state;
    game_pos_t p = test_parse(VARIANT_OCTAD, "k3/4/4/K2N w - - 0 1");
    assert_int_equal(s_search(&p, NULL, 6).lines[0].score, 0);
}

/* Same depth, same engine state: the same move, score and node count. */
static void test_deterministic(void **state)
{
    (void)state;
    game_pos_t p = test_parse(VARIANT_OCTAD, OCTAD_START_OFEN);
    engine_result_t a = s_search(&p, NULL, 12);
    engine_result_t b = s_search(&p, NULL, 12);
    assert_int_equal(a.best, b.best);
    assert_int_equal(a.lines[0].score, b.lines[0].score);
    assert_int_equal(a.nodes, b.nodes);
    assert_int_equal(a.lines[0].pvlen, b.lines[0].pvlen);
    assert_memory_equal(a.lines[0].pv, b.lines[0].pv, sizeof(engine_move_t) * (size_t)a.lines[0].pvlen);
}

/* Multi-PV over every move: one line per legal move, each a different move, best first. */
static void test_multipv_all(void **state)
{
    (void)state;
    static engine_result_t r;
    game_pos_t p = test_parse(VARIANT_OCTAD, OCTAD_START_OFEN);
    engine_limits_t lim = { .depth = 6, .multipv = GAME_MOVES_MAX };
    engine_clear(s_eng);
    assert_int_equal(engine_search(s_eng, &p, NULL, &lim, NULL, NULL, NULL, &r), 0);
    assert_int_equal(r.nlines, game_count_moves(&p));
    for (int i = 0; i < r.nlines; i++) {
        assert_int_equal(r.lines[i].bound, ENGINE_BOUND_EXACT);
        if (i > 0)
            assert_true(r.lines[i].score <= r.lines[i - 1].score);
        for (int j = 0; j < i; j++)
            assert_int_not_equal(r.lines[i].pv[0], r.lines[j].pv[0]);
    }
    assert_int_equal(r.best, r.lines[0].pv[0]);
}

static int s_probe_calls;

/* A stand-in for the solver's tables: every position with a queen is a draw. */
static bool s_fake_probe(void *ctx, const octad_pos_t *pos, engine_wdl_t *wdl, int *plies)
{
    (void)ctx;
    s_probe_calls++;
    if (!pos->type[OCTAD_QUEEN])
        return false;
    *wdl = ENGINE_WDL_DRAW;
    *plies = 0;
    return true;
}

/* The probe seam: with tables saying "draw", a won queen ending scores 0. */
static void test_probe_seam(void **state)
{
    (void)state;
    game_pos_t p = test_parse(VARIANT_OCTAD, "k3/4/1Q2/K3 w - - 0 1");
    assert_true(s_search(&p, NULL, 6).lines[0].score > ENGINE_MATE_BOUND);
    engine_set_probe(s_eng, s_fake_probe, NULL);
    engine_result_t r = s_search(&p, NULL, 6);
    engine_set_probe(s_eng, NULL, NULL);
    assert_true(s_probe_calls > 0);
    assert_true(r.lines[0].score <= 0);
}

/* A position with no legal move: no best move, no line. */
static void test_no_moves(void **state)
{
    (void)state;
    game_pos_t p = test_parse(VARIANT_OCTAD, "k3/1Q2/1K2/4 b - - 0 1");
    assert_int_equal(game_count_moves(&p), 0);
    engine_result_t r = s_search(&p, NULL, 4);
    assert_int_equal(r.best, ENGINE_MOVE_NONE);
    assert_int_equal(r.nlines, 0);
}

int main(void)
{
    s_eng = engine_new((size_t)16 << 20);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mates),         cmocka_unit_test(test_stalemate_avoided),
        cmocka_unit_test(test_25_move_rule),  cmocka_unit_test(test_repetition),
        cmocka_unit_test(test_insufficient),  cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_multipv_all),   cmocka_unit_test(test_probe_seam),
        cmocka_unit_test(test_no_moves),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    engine_destroy(&s_eng);
    return rc;
}
