/* test_engine_eval.c: the chess evaluation (core/engine/eval.h) is colour-symmetric:
 * a position and its colour-flipped mirror (ranks reversed, colours swapped,
 * the other side to move, castling rights and the e.p. square mirrored) get
 * the same score for the side to move. Checked on hand-picked positions and
 * on every position of pseudo-random games from the start (a fixed seed), so
 * an asymmetric term (a rank or file computed for one colour only) fails.
 * Also: the evaluation sees the obvious (a queen up is winning for the side
 * that has it, whoever is to move) and a pawn storm against a castled king. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine.h"
#include "eval.h"
#include "test_parse.h"

static int s_swap_case(int c)
{
    return isupper(c) ? tolower(c) : toupper(c);
}

/* The colour-flipped mirror of a FEN (fields 1-4; the clocks are kept). */
static void s_mirror(const char *fen, char *out, size_t len)
{
    char board[128], side[4], castle[8], ep[4], rest[32] = "0 1";
    assert_true(sscanf(fen, "%127s %3s %7s %3s %31[^\n]", board, side, castle, ep, rest) >= 4);
    char ranks[8][16];
    int n = 0;
    for (char *tok = strtok(board, "/"); tok != NULL && n < 8; tok = strtok(NULL, "/"))
        snprintf(ranks[n++], sizeof ranks[0], "%s", tok);
    assert_int_equal(n, 8);
    char mb[128] = "";
    for (int r = 7; r >= 0; r--) {
        for (char *c = ranks[r]; *c; c++)
            *c = (char)s_swap_case(*c);
        strcat(mb, ranks[r]);
        if (r > 0)
            strcat(mb, "/");
    }
    char mc[8] = "-";
    int nc = 0;
    for (const char *o = "KQkq"; *o; o++) /* the mirrored rights, in FEN order */
        if (strcmp(castle, "-") != 0 && strchr(castle, s_swap_case(*o)) != NULL)
            mc[nc++] = *o;
    if (nc > 0)
        mc[nc] = '\0';
    char me[4] = "-";
    if (strcmp(ep, "-") != 0)
        snprintf(me, sizeof me, "%c%c", ep[0], ep[1] == '3' ? '6' : '3');
    snprintf(out, len, "%s %s %s %s %s", mb, side[0] == 'w' ? "b" : "w", mc, me, rest);
}

static void s_check_symmetric(const game_pos_t *p)
{
    char fen[GAME_TEXT_MAX], mfen[GAME_TEXT_MAX];
    game_format(p, fen, sizeof fen);
    s_mirror(fen, mfen, sizeof mfen);
    game_pos_t m = test_parse(VARIANT_CHESS, mfen);
    int a = eval_chess(&p->u.chess), b = eval_chess(&m.u.chess);
    if (a != b)
        fail_msg("eval %d for %s but %d for its mirror %s", a, fen, b, mfen);
}

static const char *const S_FENS[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "6k1/5ppp/8/3P4/8/8/5PPP/6K1 w - - 0 1",       /* a passed pawn */
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",            /* en passant */
    "2r3k1/1q3pp1/4p2p/p2nN3/Pp1P4/1P3Q2/5PPP/2R3K1 b - - 0 1",
    "8/8/4k3/8/2K5/8/1P6/8 w - - 0 1",
    "r4rk1/1b3ppp/p7/1p1Nn3/4P3/1B3P2/PPP3PP/2KR3R w - - 0 1",
};

static void test_symmetric_positions(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof S_FENS / sizeof S_FENS[0]; i++) {
        game_pos_t p = test_parse(VARIANT_CHESS, S_FENS[i]);
        s_check_symmetric(&p);
    }
}

/* Every position of 40 pseudo-random games of up to 120 plies from the start. */
static void test_symmetric_random_games(void **state)
{
    (void)state;
    static game_child_t kids[GAME_MOVES_MAX];
    uint64_t seed = 12345;
    int checked = 0;
    for (int g = 0; g < 40; g++) {
        game_pos_t p = test_parse(VARIANT_CHESS, S_FENS[g % 3]);
        for (int ply = 0; ply < 120; ply++) {
            s_check_symmetric(&p);
            checked++;
            int n = game_children(&p, kids);
            if (n == 0)
                break;
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            p = kids[(seed >> 33) % (uint64_t)n].child;
        }
    }
    assert_true(checked > 1000);
}

static void test_material_seen(void **state)
{
    (void)state;
    game_pos_t w = test_parse(VARIANT_CHESS, "4k3/pppppppp/8/8/8/8/PPPPPPPP/3QK3 w - - 0 1");
    game_pos_t b = test_parse(VARIANT_CHESS, "4k3/pppppppp/8/8/8/8/PPPPPPPP/3QK3 b - - 0 1");
    assert_true(eval_chess(&w.u.chess) > 600);
    assert_true(eval_chess(&b.u.chess) < -600);
}

/* An enemy pawn three ranks ahead on the castled king's file counts against
 * that king (the storm term): the king on g1 against the king on b1, with the
 * h-pawn on h4 (storming) against h5 (not yet). The difference of the two
 * differences leaves out every term that depends on the king alone or on the
 * pawn alone (piece-square values, mobility, open files). */
static void test_storm_counted(void **state)
{
    (void)state;
    const char *fens[4] = {
        "r5k1/8/1nn5/7p/8/1NN5/5PPP/R5K1 w - - 0 1", "r5k1/8/1nn5/8/7p/1NN5/5PPP/R5K1 w - - 0 1",
        "r5k1/8/1nn5/7p/8/1NN5/5PPP/RK6 w - - 0 1", "r5k1/8/1nn5/8/7p/1NN5/5PPP/RK6 w - - 0 1",
    };
    int v[4];
    for (int i = 0; i < 4; i++) {
        game_pos_t p = test_parse(VARIANT_CHESS, fens[i]);
        v[i] = eval_chess(&p.u.chess);
    }
    int storm = (v[1] - v[0]) - (v[3] - v[2]);
    if (storm >= 0)
        fail_msg("the storming h-pawn against the king on g1 costs %d (g1: %d -> %d, b1: %d -> %d)", storm, v[0],
                 v[1], v[2], v[3]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_symmetric_positions),
        cmocka_unit_test(test_symmetric_random_games),
        cmocka_unit_test(test_material_seen),
        cmocka_unit_test(test_storm_counted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
