/* test_engine_chess.c: the engine on chess and Chess960, judged by outcomes:
 * quiescence (no queen takes a defended pawn), pruning (a depth-4 search visits
 * far fewer nodes than perft 4), stalemate avoided, the 50-move rule, threefold
 * repetition from the game history, insufficient material, determinism, the
 * node limit, searchmoves, and Chess960 castling chosen as a move. Mate
 * distances are checked against Stockfish in test_engine_uci.py (mates). */
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

static engine_result_t s_search_lim(const game_pos_t *p, const engine_history_t *h, const engine_limits_t *lim)
{
    static engine_result_t r;
    engine_clear(s_eng);
    assert_int_equal(engine_search(s_eng, p, h, lim, NULL, NULL, NULL, &r), 0);
    return r;
}

static engine_result_t s_search(const game_pos_t *p, const engine_history_t *h, int depth)
{
    engine_limits_t lim = { .depth = depth };
    return s_search_lim(p, h, &lim);
}

static void s_best_text(const game_pos_t *p, const engine_result_t *r, char *buf)
{
    engine_move_text(p, r->best, buf);
}

/* Qxe5+ wins a pawn but dxe5 loses the queen: at no depth does the engine take. */
static void test_quiescence(void **state)
{
    (void)state;
    game_pos_t p = test_parse(VARIANT_CHESS, "4k3/8/3p4/4p3/8/8/4Q3/4K3 w - - 0 1");
    for (int d = 1; d <= 5; d++) {
        char m[MOVE_TEXT_MAX];
        engine_result_t r = s_search(&p, NULL, d);
        s_best_text(&p, &r, m);
        assert_string_not_equal(m, "e2e5");
        assert_true(r.lines[0].score > -300);
    }
}

/* A depth-4 search from the start visits far fewer nodes than perft(4). */
static void test_pruning(void **state)
{
    (void)state;
    game_pos_t p = test_parse(VARIANT_CHESS, CHESS_START_FEN);
    count_t perft4 = game_perft(&p, 4, NULL);
    engine_result_t r = s_search(&p, NULL, 4);
    assert_true(perft4 > 100000);
    assert_true((count_t)r.nodes * 10 < perft4);
}

/* Whether m stalemates the opponent. */
static bool s_stalemates(const game_pos_t *p, engine_move_t m)
{
    game_pos_t c;
    engine_make(p, m, &c);
    return (game_status(&c) & GAME_STALEMATE) != 0;
}

/* King and queen against king, with stalemating moves at hand: the engine mates instead. */
static void test_stalemate_avoided(void **state)
{
    (void)state;
    static const char *const fens[] = {
        "7k/8/5K2/8/8/8/8/6Q1 w - - 0 1", "k7/8/1K6/8/8/8/8/2Q5 w - - 0 1",
        "8/8/8/8/8/5K2/4Q3/7k w - - 0 1", "7k/5Q2/8/6K1/8/8/8/8 w - - 0 1",
        "8/8/8/8/8/8/2Q5/k1K5 w - - 0 1",
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        game_pos_t p = test_parse(VARIANT_CHESS, fens[i]);
        engine_move_t moves[GAME_MOVES_MAX];
        int n = chess_gen_legal(&p.u.chess, moves), stal = 0;
        for (int j = 0; j < n; j++)
            stal += s_stalemates(&p, moves[j]);
        assert_true(stal > 0);
        engine_result_t r = s_search(&p, NULL, 10);
        assert_false(s_stalemates(&p, r.best));
        assert_true(r.lines[0].score > ENGINE_MATE_BOUND);
    }
}

/* The 50-move rule: at halfmove 99 a quiet move draws unless it mates. */
static void test_50_move_rule(void **state)
{
    (void)state;
    game_pos_t lost0 = test_parse(VARIANT_CHESS, "8/8/8/4k3/8/8/3QK3/8 b - - 0 1");
    game_pos_t lost99 = test_parse(VARIANT_CHESS, "8/8/8/4k3/8/8/3QK3/8 b - - 99 1");
    assert_true(s_search(&lost0, NULL, 8).lines[0].score < -500);
    assert_int_equal(s_search(&lost99, NULL, 8).lines[0].score, 0);
    game_pos_t mate99 = test_parse(VARIANT_CHESS, "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 99 1");
    assert_int_equal(s_search(&mate99, NULL, 4).lines[0].score, ENGINE_MATE - 1);
}

/* Threefold repetition from the game history: the lost side repeats for the draw. */
static void test_repetition(void **state)
{
    (void)state;
    static const char *const moves[] = { "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1" };
    game_pos_t start = test_parse(VARIANT_CHESS, "rnbqkbnr/8/8/8/8/8/8/1Q2K1N1 w - - 0 1");
    static engine_game_t g;
    engine_game_reset(&g, &start);
    for (int i = 0; i < 7; i++)
        assert_int_equal(engine_game_play(&g, moves[i]), 0);
    /* Black, a full set of pieces against a lone queen, is winning: it must not
     * play f6g8, the third occurrence. */
    engine_history_t h = engine_game_history(&g);
    engine_result_t r = s_search(&g.pos, &h, 6);
    char m[MOVE_TEXT_MAX];
    s_best_text(&g.pos, &r, m);
    assert_string_not_equal(m, "f6g8");
    assert_true(r.lines[0].score > 300);
    /* The lost side to move: White, one ply earlier, takes the third occurrence. */
    static const char *const moves2[] = { "b8c6", "g1f3", "c6b8", "f3g1", "b8c6", "g1f3", "c6b8" };
    game_pos_t start2 = test_parse(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/8/8/8/4K1N1 b kq - 0 1");
    engine_game_reset(&g, &start2);
    for (int i = 0; i < 7; i++)
        assert_int_equal(engine_game_play(&g, moves2[i]), 0);
    h = engine_game_history(&g);
    r = s_search(&g.pos, &h, 6);
    s_best_text(&g.pos, &r, m);
    assert_string_equal(m, "f3g1");
    assert_int_equal(r.lines[0].score, 0);
    assert_true(s_search(&g.pos, NULL, 6).lines[0].score < -1000);
}

/* Insufficient material: a draw, and a lost side captures into it. */
static void test_insufficient(void **state)
{
    (void)state;
    game_pos_t kn = test_parse(VARIANT_CHESS, "8/8/8/4k3/8/8/3NK3/8 w - - 0 1");
    assert_int_equal(s_search(&kn, NULL, 6).lines[0].score, 0);
    game_pos_t take = test_parse(VARIANT_CHESS, "8/8/8/8/1k6/8/r7/2N1K3 w - - 0 1");
    engine_result_t r = s_search(&take, NULL, 6);
    char m[MOVE_TEXT_MAX];
    s_best_text(&take, &r, m);
    assert_string_equal(m, "c1a2");
    assert_int_equal(r.lines[0].score, 0);
}

/* Same depth, same state: the same result, node for node. */
static void test_deterministic(void **state)
{
    (void)state;
    game_pos_t p = test_parse(VARIANT_CHESS, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    engine_result_t a = s_search(&p, NULL, 7);
    engine_result_t b = s_search(&p, NULL, 7);
    assert_int_equal(a.best, b.best);
    assert_int_equal(a.nodes, b.nodes);
    assert_int_equal(a.lines[0].score, b.lines[0].score);
}

/* The node limit stops the search near it; searchmoves restricts the root. */
static void test_limits(void **state)
{
    (void)state;
    game_pos_t p = test_parse(VARIANT_CHESS, CHESS_START_FEN);
    engine_limits_t lim = { .nodes = 20000 };
    engine_result_t r = s_search_lim(&p, NULL, &lim);
    assert_true(r.nodes <= 20000 + 64);
    assert_true(r.depth >= 1);
    engine_limits_t sm = { .depth = 4, .nsearchmoves = 1 };
    sm.searchmoves[0] = engine_move_parse(&p, "a2a3");
    r = s_search_lim(&p, NULL, &sm);
    char m[MOVE_TEXT_MAX];
    s_best_text(&p, &r, m);
    assert_string_equal(m, "a2a3");
    sm.searchmoves[0] = 0x0FFF; /* not a legal move here */
    static engine_result_t bad;
    assert_int_equal(engine_search(s_eng, &p, NULL, &sm, NULL, NULL, NULL, &bad), -1);
}

/* Chess960: castling is a move like any other, written king takes rook. */
static void test_chess960_castle(void **state)
{
    (void)state;
    game_pos_t p = test_parse(VARIANT_CHESS960, "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
    engine_limits_t lim = { .depth = 3, .nsearchmoves = 2 };
    lim.searchmoves[0] = engine_move_parse(&p, "e1h1");
    lim.searchmoves[1] = engine_move_parse(&p, "e1a1");
    assert_int_not_equal(lim.searchmoves[0], ENGINE_MOVE_NONE);
    assert_int_not_equal(lim.searchmoves[1], ENGINE_MOVE_NONE);
    engine_result_t r = s_search_lim(&p, NULL, &lim);
    assert_true(r.best == lim.searchmoves[0] || r.best == lim.searchmoves[1]);
    game_pos_t std = test_parse(VARIANT_CHESS, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_int_equal(engine_move_parse(&std, "e1g1"), engine_move_parse(&std, "e1h1"));
}

int main(void)
{
    s_eng = engine_new((size_t)16 << 20);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quiescence),    cmocka_unit_test(test_pruning),
        cmocka_unit_test(test_stalemate_avoided), cmocka_unit_test(test_50_move_rule),
        cmocka_unit_test(test_repetition),    cmocka_unit_test(test_insufficient),
        cmocka_unit_test(test_deterministic), cmocka_unit_test(test_limits),
        cmocka_unit_test(test_chess960_castle),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    engine_destroy(&s_eng);
    return rc;
}
