/* test_certcheck_rules.c: the certificate checker's own rules (certcheck/) where perft cannot
 * see them: castling rights held by pieces, the halfmove clock, mate, stalemate, insufficient
 * material, the e.p. square's identity, and OFEN refusals (docs/rules.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "board.h"

static cc_pos_t s_pos(const char *ofen)
{
    cc_pos_t p;
    char err[160];
    int rc = cc_parse_ofen(ofen, &p, err, sizeof err);
    if (rc)
        fail_msg("%s: %s", ofen, err);
    return p;
}

/* Plays the UOI move text, which must be legal. */
static cc_pos_t s_play(cc_pos_t p, const char *uoi)
{
    cc_move_t moves[CC_MAX_MOVES];
    char text[8];
    int n = cc_legal_moves(&p, moves);
    for (int i = 0; i < n; i++) {
        cc_move_text(moves[i], text);
        if (!strcmp(text, uoi))
            return cc_play(&p, moves[i]);
    }
    fail_msg("%s is not legal", uoi);
    return p;
}

static void test_far_castle_keeps_right(void **state)
{
    (void)state;
    cc_pos_t p = s_pos("ppkn/4/4/NKPP w NCFncf - 0 1");
    p = s_play(s_play(p, "c1c2"), "b4b3");
    assert_int_equal(p.rights, 0x09u | 0x90u); /* White: a1 (N), d1 (F); Black: d4 (n), a4 (f) */
    p = s_play(p, "b1d1");                     /* the rules' 2. O-O-O */
    cc_pos_t want = s_pos("p1kn/1p2/2P1/NPK1 b nf - 0 2");
    assert_memory_equal(p.sq, want.sq, 16);
    assert_int_equal(p.rights, want.rights);
    assert_int_equal(p.clock, 0);
    assert_int_equal(p.fullmove, 2);
}

static void test_clock(void **state)
{
    (void)state;
    cc_pos_t p = s_pos("p1kn/1p2/2P1/NPK1 b nf - 7 2");
    assert_int_equal(s_play(p, "d4c2").clock, 0);   /* a capture */
    p = s_pos("k3/4/4/NK1n w - - 7 2");
    assert_int_equal(s_play(p, "a1c2").clock, 8);   /* a knight move, no rights */
    p = s_pos("ppkn/4/4/NKPP w NCFncf - 9 1");
    assert_int_equal(s_play(p, "b1a2").clock, 0);   /* the king's first move cancels rights */
    assert_int_equal(s_play(p, "a1b3").clock, 0);   /* a partner's first move */
    p = s_pos("ppkn/4/4/1KPP w CF - 9 1");
    assert_int_equal(s_play(p, "b1a2").rights, 0);
}

static void test_status(void **state)
{
    (void)state;
    cc_pos_t p = s_pos("k3/1Q2/2K1/4 b - - 0 1");
    assert_int_equal(cc_status(&p), CC_MATE);
    p = s_pos("k3/2Q1/4/3K b - - 0 1");
    assert_int_equal(cc_status(&p), CC_STALEMATE);
    const char *dead[] = {"k3/4/4/3K w - - 0 1", "k3/4/4/2NK w - - 0 1", "k3/4/1b2/B2K w - - 0 1"};
    for (int i = 0; i < 3; i++) {
        p = s_pos(dead[i]);
        assert_int_equal(cc_status(&p), CC_DEAD);
    }
    const char *alive[] = {"k3/4/b3/B2K w - - 0 1", "k3/n3/4/2NK w - - 0 1", "k3/4/4/1P1K w - - 0 1"};
    for (int i = 0; i < 3; i++) {
        p = s_pos(alive[i]);
        assert_int_equal(cc_status(&p), CC_ONGOING);
    }
}

static void test_ep_identity(void **state)
{
    (void)state;
    cc_pos_t p = s_pos("1N1k/4/pP1n/2K1 w - a3 0 6"); /* b2xa3 e.p. is legal */
    cc_canonical_ep(&p);
    assert_int_equal(p.ep, 8);
    cc_pos_t q = s_play(p, "b2a3");
    assert_int_equal(q.sq[4], CC_EMPTY);              /* the a2 pawn is gone */
    p = s_play(s_pos("ppkn/4/4/NKPP w NCFncf - 0 1"), "c1c3");
    assert_int_equal(p.ep, 6);                        /* written after every double step */
    cc_canonical_ep(&p);
    assert_int_equal(p.ep, -1);                       /* no Black pawn can take there */
}

static void test_ofen_refusals(void **state)
{
    (void)state;
    const char *bad[] = {
        "ppkn/4/4/NKPP w NCFncf - 0",       "ppkn/4/4 w - - 0 1",           "ppkn/5/4/NKPP w - - 0 1",
        "ppkx/4/4/NKPP w - - 0 1",          "ppkn/4/4/NKPP x - - 0 1",      "ppkn/4/4/NKPP w NN - 0 1",
        "ppkn/4/4/NKPP w X - 0 1",          "ppkn/4/4/NKPP w - c3 0 1",     "ppkn/4/4/NKPP w - - -1 1",
        "ppkn/4/4/NKPP w - - 0 0",          "pp1n/4/4/NKPP w - - 0 1",      "Ppkn/4/4/NKP1 w - - 0 1",
        "k3/1Q2/2K1/4 w - - 0 1",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cc_pos_t p;
        char err[160] = "";
        assert_int_equal(cc_parse_ofen(bad[i], &p, err, sizeof err), -1);
        assert_true(strstr(err, "field") || strstr(err, "OFEN"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_far_castle_keeps_right), cmocka_unit_test(test_clock),
        cmocka_unit_test(test_status),                 cmocka_unit_test(test_ep_identity),
        cmocka_unit_test(test_ofen_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
