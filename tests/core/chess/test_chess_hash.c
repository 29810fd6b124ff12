/* test_chess_hash.c: the incrementally kept 128-bit key equals the key computed
 * from scratch, survives a FEN round trip, and transpositions meet. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "chess/chess.h"
#include "chess/zobrist.h"

static chess_pos_t s_parse(variant_t v, const char *fen)
{
    chess_pos_t pos;
    char err[256] = "";
    if (chess_parse(v, fen, &pos, err, sizeof err) != 0)
        fail_msg("%s: %s", fen, err);
    return pos;
}

/* Random walk of `plies` from fen; at each step compares incremental and fresh keys. */
static void s_walk(variant_t v, const char *fen, int plies, uint64_t seed)
{
    chess_pos_t pos = s_parse(v, fen);
    for (int i = 0; i < plies; i++) {
        chess_move_t moves[GAME_MOVES_MAX];
        int n = chess_gen_legal(&pos, moves);
        if (n == 0)
            return;
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        chess_pos_t child;
        chess_make(&pos, moves[(seed >> 33) % (uint64_t)n], &child);
        chess_pos_t fresh = child;
        zob_compute(&fresh);
        assert_true(fresh.key[0] == child.key[0] && fresh.key[1] == child.key[1]);
        char text[GAME_TEXT_MAX];
        chess_format(&child, text, sizeof text);
        chess_pos_t again = s_parse(v, text);
        assert_true(again.key[0] == child.key[0] && again.key[1] == child.key[1]);
        pos = child;
    }
}

static void test_random_walks(void **state)
{
    (void)state;
    for (uint64_t s = 1; s <= 40; s++) {
        s_walk(VARIANT_CHESS, CHESS_START_FEN, 120, s);
        s_walk(VARIANT_CHESS, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 80, s);
        s_walk(VARIANT_CHESS960, "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 80, s);
        s_walk(VARIANT_CHESS, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 80, s);
    }
}

static void test_transposition(void **state)
{
    (void)state;
    const char *a = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const char *b = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 7 40";
    const char *c = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kkq - 0 1";
    const char *d = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1";
    chess_pos_t pa = s_parse(VARIANT_CHESS, a), pb = s_parse(VARIANT_CHESS, b);
    chess_pos_t pc = s_parse(VARIANT_CHESS, c), pd = s_parse(VARIANT_CHESS, d);
    assert_true(pa.key[0] == pb.key[0] && pa.key[1] == pb.key[1]);
    assert_true(pa.key[0] != pc.key[0] && pa.key[1] != pc.key[1]);
    assert_true(pa.key[0] != pd.key[0] && pa.key[1] != pd.key[1]);
    /* a useless e.p. square is not hashed: same key as without it */
    chess_pos_t e1 = s_parse(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    chess_pos_t e2 = s_parse(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert_true(e1.key[0] == e2.key[0] && e1.key[1] == e2.key[1]);
}

int main(void)
{
    chess_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_walks),
        cmocka_unit_test(test_transposition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
