/* test_record.c: the game record: every termination reached in a game, for
 * octad and chess; automatic against claimable draws in chess; the octad
 * halfmove clock reset on a rights change; e.p. squares in repetitions; undo. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"

/* A record from `fen` with the space-separated moves played; fails on any error. */
static void s_game(record_t *r, variant_t v, const char *fen, const char *moves)
{
    game_pos_t start;
    char err[200], buf[1024], *save = NULL;
    if (game_parse(v, fen, &start, err, sizeof err) != 0)
        fail_msg("%s: %s", fen, err);
    assert_int_equal(record_init(r, &start), 0);
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *m = strtok_r(buf, " ", &save); m; m = strtok_r(NULL, " ", &save))
        if (record_play_text(r, m, err, sizeof err) != 0)
            fail_msg("%s: %s", moves, err);
}

static unsigned s_clock(const record_t *r)
{
    const game_pos_t *p = record_pos(r);
    return p->variant == VARIANT_OCTAD ? p->u.octad.halfmove : p->u.chess.halfmove;
}

static void s_expect_end(const record_t *r, result_t res, termination_t term)
{
    assert_int_equal(r->result, res);
    assert_int_equal(r->termination, term);
}

static void test_octad_readme_games(void **state)
{
    (void)state;
    record_t r;
    s_game(&r, VARIANT_OCTAD, OCTAD_START_OFEN,
           "O-O a3 Nc2 a2 b3+ Nxb3+ Kb2 a1=Q+ Nxa1 Nxa1 Kxa1 Kc3 Ka2 b3+ Ka1 b2+ Kb1 Kb3 d3 Kc3 d4=Q+ Kxd4 Kxb2");
    s_expect_end(&r, RESULT_DRAW, TERM_INSUFFICIENT_MATERIAL);
    assert_string_equal(record_termination_name(&r), "insufficient material");
    /* undo reopens the game and recomputes; playing the move again ends it again */
    assert_int_equal(record_undo(&r), 0);
    s_expect_end(&r, RESULT_NONE, TERM_NONE);
    char err[128];
    assert_int_equal(record_play_text(&r, "Kxb2", err, sizeof err), 0);
    s_expect_end(&r, RESULT_DRAW, TERM_INSUFFICIENT_MATERIAL);
    assert_int_not_equal(record_play_text(&r, "Ka1", err, sizeof err), 0); /* over */
    assert_non_null(strstr(err, "over"));
    record_free(&r);
    s_game(&r, VARIANT_OCTAD, OCTAD_START_OFEN, "c2 b3 Kb2 O-O-O cxb3 cxb3 d2 Nc2 d3 Nxa1 d4=Q#");
    s_expect_end(&r, RESULT_WHITE, TERM_CHECKMATE);
    record_free(&r);
}

static void test_octad_stalemate(void **state)
{
    (void)state;
    record_t r;
    s_game(&r, VARIANT_OCTAD, "k3/4/3Q/K3 w - - 0 1", "Qc3");
    s_expect_end(&r, RESULT_DRAW, TERM_STALEMATE);
    record_free(&r);
}

/* The knights go out and back twice: the third occurrence draws at once (octad). The
 * position after 1. c3 has an e.p. square no pawn can use, so it counts as the same. */
static void test_octad_threefold_and_dead_ep(void **state)
{
    (void)state;
    record_t r;
    s_game(&r, VARIANT_OCTAD, "ppkn/4/4/NKPP w - - 0 1", "c3 Nb3 Nc2 Nd4 Na1 Nb3 Nc2 Nd4");
    assert_int_equal(record_pos(&r)->u.octad.ep, OCTAD_SQ_NONE);
    assert_int_not_equal(record_pos_at(&r, 1)->u.octad.ep, OCTAD_SQ_NONE); /* recorded, not usable */
    assert_int_equal(record_repetitions(&r), 2); /* as after ply 4 */
    s_expect_end(&r, RESULT_NONE, TERM_NONE);
    char err[128];
    assert_int_equal(record_play_text(&r, "Na1", err, sizeof err), 0);
    assert_int_equal(record_repetitions(&r), 3);
    s_expect_end(&r, RESULT_DRAW, TERM_REPETITION);
    assert_string_equal(record_termination_name(&r), "threefold repetition");
    assert_int_equal(record_claimable(&r), 0);
    record_free(&r);
}

static void test_octad_move_rule_and_clock(void **state)
{
    (void)state;
    record_t r;
    s_game(&r, VARIANT_OCTAD, "3k/4/4/KR2 w - - 48 30", "Rb2");
    assert_int_equal(s_clock(&r), 49);
    s_expect_end(&r, RESULT_NONE, TERM_NONE);
    char err[128];
    assert_int_equal(record_play_text(&r, "Kd3", err, sizeof err), 0);
    s_expect_end(&r, RESULT_DRAW, TERM_MOVE_RULE);
    assert_string_equal(record_termination_name(&r), "25-move rule");
    record_free(&r);
    /* a king move that gives up castling rights resets the clock ... */
    s_game(&r, VARIANT_OCTAD, "ppkn/4/4/NKPP w NCFncf - 7 5", "Ka2");
    assert_int_equal(s_clock(&r), 0);
    record_free(&r);
    /* ... and the same move without rights to lose does not */
    s_game(&r, VARIANT_OCTAD, "ppkn/4/4/NKPP w - - 7 5", "Ka2");
    assert_int_equal(s_clock(&r), 8);
    record_free(&r);
    /* the knight's first move takes only its own right, and resets too */
    s_game(&r, VARIANT_OCTAD, "ppkn/4/4/NKPP w NCFncf - 7 5", "Nb3");
    assert_int_equal(s_clock(&r), 0);
    record_free(&r);
}

static void test_octad_resign_agree(void **state)
{
    (void)state;
    record_t r;
    s_game(&r, VARIANT_OCTAD, OCTAD_START_OFEN, "c2");
    assert_int_equal(record_resign(&r, 1), 0);
    s_expect_end(&r, RESULT_WHITE, TERM_RESIGNATION);
    assert_int_equal(record_undo(&r), 0); /* undo withdraws the resignation */
    s_expect_end(&r, RESULT_NONE, TERM_NONE);
    assert_int_equal(record_agree_draw(&r), 0);
    s_expect_end(&r, RESULT_DRAW, TERM_AGREEMENT);
    assert_int_not_equal(record_resign(&r, 0), 0);
    record_free(&r);
}

static void test_chess_mate_stalemate_material(void **state)
{
    (void)state;
    record_t r;
    s_game(&r, VARIANT_CHESS, CHESS_START_FEN, "f3 e5 g4 Qh4#");
    s_expect_end(&r, RESULT_BLACK, TERM_CHECKMATE);
    record_free(&r);
    s_game(&r, VARIANT_CHESS, "k7/8/8/2Q5/8/8/8/7K w - - 0 1", "Qb6");
    s_expect_end(&r, RESULT_DRAW, TERM_STALEMATE);
    record_free(&r);
    s_game(&r, VARIANT_CHESS, "k7/8/8/8/8/8/1r6/K1B5 w - - 0 1", "Kxb2");
    s_expect_end(&r, RESULT_DRAW, TERM_INSUFFICIENT_MATERIAL);
    record_free(&r);
}

/* Threefold is only claimable, fivefold ends the game. */
static void test_chess_threefold_claim_fivefold(void **state)
{
    (void)state;
    record_t r;
    char err[128];
    s_game(&r, VARIANT_CHESS, CHESS_START_FEN, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    assert_int_equal(record_claimable(&r), 0);
    assert_int_not_equal(record_claim_draw(&r), 0);
    assert_int_equal(record_play_text(&r, "Ng8", err, sizeof err), 0); /* the claim comes with this move */
    assert_int_equal(record_repetitions(&r), 3);
    s_expect_end(&r, RESULT_NONE, TERM_NONE);
    assert_int_equal(record_claimable(&r), CLAIM_THREEFOLD);
    record_t claimed = {0};
    assert_int_equal(record_copy(&claimed, &r), 0);
    assert_int_equal(record_claim_draw(&claimed), 0);
    s_expect_end(&claimed, RESULT_DRAW, TERM_CLAIM_THREEFOLD);
    record_free(&claimed);
    for (const char *m = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1"; *m;) {
        char one[8];
        int n = (int)strcspn(m, " ");
        snprintf(one, sizeof one, "%.*s", n, m);
        assert_int_equal(record_play_text(&r, one, err, sizeof err), 0);
        s_expect_end(&r, RESULT_NONE, TERM_NONE);
        m += n + (m[n] == ' ');
    }
    assert_int_equal(record_play_text(&r, "Ng8", err, sizeof err), 0);
    assert_int_equal(record_repetitions(&r), 5);
    s_expect_end(&r, RESULT_DRAW, TERM_REPETITION);
    assert_string_equal(record_termination_name(&r), "fivefold repetition");
    record_free(&r);
}

/* After e4 the e.p. square e3 is attacked by the d4 pawn, but dxe3 would expose
 * the king: the position repeats as if there were no e.p. square. */
static void test_chess_pinned_ep_repeats(void **state)
{
    (void)state;
    record_t r;
    s_game(&r, VARIANT_CHESS, "6n1/8/5k2/8/3p4/8/1B2P3/K5N1 w - - 0 1", "e4 Nh6 Nf3 Ng8 Ng1 Nh6 Nf3 Ng8 Ng1");
    assert_int_equal(record_repetitions(&r), 3);
    assert_int_equal(record_claimable(&r), CLAIM_THREEFOLD);
    record_free(&r);
    /* without the pin (bishop gone) the capture is legal and the first position differs */
    s_game(&r, VARIANT_CHESS, "6n1/8/5k2/8/3p4/8/4P3/K5N1 w - - 0 1", "e4 Nh6 Nf3 Ng8 Ng1 Nh6 Nf3 Ng8 Ng1");
    assert_int_equal(record_repetitions(&r), 2);
    assert_int_equal(record_claimable(&r), 0);
    record_free(&r);
}

static void test_chess_fifty_claim_and_seventy_five(void **state)
{
    (void)state;
    record_t r;
    s_game(&r, VARIANT_CHESS, "k7/8/8/8/8/8/8/KR6 w - - 98 80", "Rb2");
    assert_int_equal(record_claimable(&r), 0);
    char err[128];
    assert_int_equal(record_play_text(&r, "Ka7", err, sizeof err), 0);
    s_expect_end(&r, RESULT_NONE, TERM_NONE);
    assert_int_equal(record_claimable(&r), CLAIM_FIFTY);
    assert_int_equal(record_claim_draw(&r), 0);
    s_expect_end(&r, RESULT_DRAW, TERM_CLAIM_FIFTY);
    record_free(&r);
    s_game(&r, VARIANT_CHESS, "k7/8/8/8/8/8/8/KR6 w - - 148 80", "Rb2");
    s_expect_end(&r, RESULT_NONE, TERM_NONE);
    assert_int_equal(record_play_text(&r, "Ka7", err, sizeof err), 0);
    s_expect_end(&r, RESULT_DRAW, TERM_MOVE_RULE);
    assert_string_equal(record_termination_name(&r), "75-move rule");
    record_free(&r);
    /* mate on the move that reaches the count wins */
    s_game(&r, VARIANT_CHESS, "k7/8/1K6/8/8/8/8/7R w - - 149 80", "Rh8#");
    s_expect_end(&r, RESULT_WHITE, TERM_CHECKMATE);
    record_free(&r);
}

/* Lazy mode (PGN replay) finds mate and stalemate when settled, with the same
 * precedence: a stalemate with a lone knight is a stalemate, not dead material. */
static void test_lazy_settle(void **state)
{
    (void)state;
    const char *cases[][3] = {{"k7/8/1Kp5/4N3/8/8/8/8 w - - 0 1", "Nxc6", "stalemate"},
                              {CHESS_START_FEN, "f3 e5 g4 Qh4#", "checkmate"},
                              {CHESS_START_FEN, "e4 e5", "none"}};
    for (int lazy = 0; lazy < 2; lazy++)
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            game_pos_t start;
            record_t r;
            char err[160], buf[64], *save = NULL;
            assert_int_equal(game_parse(VARIANT_CHESS, cases[i][0], &start, err, sizeof err), 0);
            assert_int_equal(record_init(&r, &start), 0);
            r.lazy = lazy;
            snprintf(buf, sizeof buf, "%s", cases[i][1]);
            for (char *m = strtok_r(buf, " ", &save); m; m = strtok_r(NULL, " ", &save))
                assert_int_equal(record_play_text(&r, m, err, sizeof err), 0);
            record_settle(&r);
            assert_string_equal(record_termination_name(&r), cases[i][2]);
            assert_int_equal(record_status(&r, r.ply_nb) & GAME_IN_CHECK, strcmp(cases[i][2], "checkmate") == 0);
            record_free(&r);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_octad_readme_games),
        cmocka_unit_test(test_octad_stalemate),
        cmocka_unit_test(test_octad_threefold_and_dead_ep),
        cmocka_unit_test(test_octad_move_rule_and_clock),
        cmocka_unit_test(test_octad_resign_agree),
        cmocka_unit_test(test_chess_mate_stalemate_material),
        cmocka_unit_test(test_chess_threefold_claim_fivefold),
        cmocka_unit_test(test_chess_pinned_ep_repeats),
        cmocka_unit_test(test_chess_fifty_claim_and_seventy_five),
        cmocka_unit_test(test_lazy_settle),
    };
    game_init();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
