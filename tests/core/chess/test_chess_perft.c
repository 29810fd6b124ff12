/* test_chess_perft.c: the chess and Chess960 perft suites (tests/data), with
 * and without the hash table, counts by kind, and both slider methods.
 * Arguments: [chess depth] [chess960 depth] [magic] (defaults 5 4); the suites
 * are read from $OCTAD_TEST_DATA. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "chess/bitboard.h"
#include "chess/chess.h"
#include "count.h"
#include "epd.h"

static int s_chess_depth = 5;
static int s_960_depth = 4;

/* True if nodes[d] was given on the line (a 0 with a deeper non-zero count was not). */
static bool s_given(const epd_line_t *e, int d)
{
    if (e->nodes[d] != 0)
        return true;
    for (int k = d + 1; k <= e->depth_max; k++)
        if (e->nodes[k] != 0)
            return false;
    return true;
}

/* Runs every line of file up to min(depth, given) with tt (may be NULL); returns lines checked. */
static int s_run_suite(const char *file, variant_t v, int depth, chess_tt_t *tt)
{
    const char *dir = getenv("OCTAD_TEST_DATA");
    assert_non_null(dir);
    char path[1024], line[1024], err[256];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int lines = 0;
    while (fgets(line, sizeof line, f)) {
        epd_line_t e;
        int r = epd_parse_line(line, &e, err, sizeof err);
        assert_true(r >= 0);
        if (r == 0)
            continue;
        chess_pos_t pos;
        if (chess_parse(v, e.text, &pos, err, sizeof err) != 0)
            fail_msg("%s: %s", e.text, err);
        for (int d = 1; d <= depth && d <= e.depth_max; d++) {
            if (!s_given(&e, d))
                continue;
            count_t got = chess_perft(&pos, d, tt);
            if (got != e.nodes[d]) {
                char a[COUNT_TEXT_MAX], b[COUNT_TEXT_MAX];
                fail_msg("%s depth %d: got %s, expected %s", e.text, d, count_format(got, a),
                         count_format(e.nodes[d], b));
            }
        }
        lines++;
    }
    fclose(f);
    return lines;
}

static void test_cpw(void **state)
{
    (void)state;
    assert_int_equal(s_run_suite("chess-cpw.epd", VARIANT_CHESS, s_chess_depth, NULL), 7);
}

static void test_standard(void **state)
{
    (void)state;
    assert_int_equal(s_run_suite("chess-standard.epd", VARIANT_CHESS, s_chess_depth, NULL), 128);
}

static void test_fischer(void **state)
{
    (void)state;
    assert_int_equal(s_run_suite("chess960-fischer.epd", VARIANT_CHESS960, s_960_depth, NULL), 960);
}

/* The same suites through one small table (16 MB, many replacements): identical counts. */
static void test_suites_with_table(void **state)
{
    (void)state;
    chess_tt_t *tt = chess_tt_new(16u << 20);
    assert_non_null(tt);
    assert_int_equal(s_run_suite("chess-cpw.epd", VARIANT_CHESS, s_chess_depth, tt), 7);
    assert_int_equal(s_run_suite("chess-standard.epd", VARIANT_CHESS, s_chess_depth, tt), 128);
    assert_int_equal(s_run_suite("chess960-fischer.epd", VARIANT_CHESS960, s_960_depth, tt), 960);
    chess_tt_destroy(&tt);
    assert_null(tt);
}

/* A table of only a few entries still gives exact counts; too small a table is refused. */
static void test_tiny_table(void **state)
{
    (void)state;
    assert_null(chess_tt_new(0));
    assert_null(chess_tt_new(16));
    chess_tt_t *tt = chess_tt_new(200);
    assert_non_null(tt);
    chess_pos_t pos;
    assert_int_equal(chess_parse(VARIANT_CHESS, CHESS_START_FEN, &pos, NULL, 0), 0);
    assert_true(chess_perft(&pos, 4, tt) == 197281);
    assert_true(chess_perft(&pos, 4, tt) == 197281);
    chess_tt_destroy(&tt);
    chess_tt_destroy(&tt); /* idempotent */
}

/* Counts by kind against the Chess Programming Wiki's published tables. */
static void s_check_stats(const char *fen, int depth, const unsigned long long want[7])
{
    chess_pos_t pos;
    assert_int_equal(chess_parse(VARIANT_CHESS, fen, &pos, NULL, 0), 0);
    perft_stats_t s;
    memset(&s, 0, sizeof s);
    chess_perft_stats(&pos, depth, &s);
    assert_true(s.nodes == want[0]);
    assert_true(s.captures == want[1]);
    assert_true(s.en_passant == want[2]);
    assert_true(s.castles == want[3]);
    assert_true(s.promotions == want[4]);
    assert_true(s.checks == want[5]);
    assert_true(s.mates == want[6]);
    for (int k = 0; k < CASTLE_KIND_NB; k++)
        assert_true(s.castle_kind[k] == 0);
}

static void test_stats(void **state)
{
    (void)state;
    static const unsigned long long start4[7] = {197281, 1576, 0, 0, 0, 469, 8};
    static const unsigned long long kiwi3[7] = {97862, 17102, 45, 3162, 0, 993, 1};
    static const unsigned long long pos3_5[7] = {674624, 52051, 1165, 0, 0, 52950, 0};
    static const unsigned long long pos4_4[7] = {422333, 131393, 0, 7795, 60032, 15492, 5};
    s_check_stats(CHESS_START_FEN, 4, start4);
    s_check_stats("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, kiwi3);
    s_check_stats("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, pos3_5);
    s_check_stats("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4, pos4_4);
}

/* Depth 0 is one node; stats at depth 0 too. */
static void test_depth_zero(void **state)
{
    (void)state;
    chess_pos_t pos;
    assert_int_equal(chess_parse(VARIANT_CHESS, CHESS_START_FEN, &pos, NULL, 0), 0);
    assert_true(chess_perft(&pos, 0, NULL) == 1);
    perft_stats_t s;
    memset(&s, 0, sizeof s);
    chess_perft_stats(&pos, 0, &s);
    assert_true(s.nodes == 1 && s.captures == 0);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        s_chess_depth = atoi(argv[1]);
    if (argc > 2)
        s_960_depth = atoi(argv[2]);
    chess_init();
    if (argc > 3 && strcmp(argv[3], "magic") == 0) {
        bb64_select_sliders(BB_SLIDERS_MAGIC);
        assert_int_equal(bb64_sliders(), BB_SLIDERS_MAGIC);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpw),
        cmocka_unit_test(test_standard),
        cmocka_unit_test(test_fischer),
        cmocka_unit_test(test_suites_with_table),
        cmocka_unit_test(test_tiny_table),
        cmocka_unit_test(test_stats),
        cmocka_unit_test(test_depth_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
