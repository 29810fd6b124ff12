/* test_octad_perft.c: perft from the start against RULES.md's tables (nodes
 * and counts by kind), and every suite position, with and without the table.
 * Arguments: start depth, suite depth, stats depth (defaults 8 5 7). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count.h"
#include "epd.h"
#include "octad/octad.h"

static int g_start_depth = 8, g_suite_depth = 5, g_stats_depth = 7;

/* RULES.md "Perft": start position, depths 1-11. */
static const uint64_t START_NODES[] = { 1, 10, 84, 642, 4375, 29309, 183931, 1153190, 6924175,
                                        41899653, 246876713, 1465308554 };

/* RULES.md "Counts by kind", depths 3-8: captures, e.p., near, center, far,
 * promotions, checks, mates. */
static const uint64_t START_STATS[][8] = {
    { 105, 1, 17, 21, 12, 36, 118, 1 },
    { 852, 6, 100, 145, 61, 228, 794, 11 },
    { 6685, 53, 248, 384, 306, 2864, 5590, 106 },
    { 43860, 297, 1336, 2575, 1411, 17384, 33948, 674 },
    { 284124, 1728, 3356, 5586, 6810, 128808, 211148, 5626 },
    { 1668297, 9175, 19019, 39274, 30826, 766124, 1237839, 29035 },
};

static int s_setup(void **state)
{
    (void)state;
    octad_init();
    return 0;
}

static void s_assert_count(count_t got, count_t want, const char *what, int depth)
{
    char a[COUNT_TEXT_MAX], b[COUNT_TEXT_MAX];
    if (got != want)
        fail_msg("%s depth %d: got %s, want %s", what, depth, count_format(got, a), count_format(want, b));
}

static void test_start_nodes(void **state)
{
    octad_pos_t p;
    (void)state;
    assert_int_equal(octad_parse(OCTAD_START_OFEN, &p, NULL, 0), 0);
    octad_tt_t *tt = octad_tt_new(1 << 20);
    assert_non_null(tt);
    assert_true(octad_perft(&p, 0, NULL) == 1);
    for (int d = 1; d <= g_start_depth && d <= 11; d++) {
        s_assert_count(octad_perft(&p, d, NULL), START_NODES[d], "start", d);
        s_assert_count(octad_perft(&p, d, tt), START_NODES[d], "start with table", d);
    }
    octad_tt_destroy(&tt);
    assert_null(tt);
    octad_tt_destroy(&tt); /* idempotent */
}

static void test_start_stats(void **state)
{
    octad_pos_t p;
    (void)state;
    assert_int_equal(octad_parse(OCTAD_START_OFEN, &p, NULL, 0), 0);
    for (int d = 3; d <= g_stats_depth && d <= 8; d++) {
        perft_stats_t s;
        memset(&s, 0, sizeof s);
        octad_perft_stats(&p, d, &s);
        const uint64_t *w = START_STATS[d - 3];
        s_assert_count(s.nodes, START_NODES[d], "stats nodes", d);
        s_assert_count(s.captures, w[0], "captures", d);
        s_assert_count(s.en_passant, w[1], "en passant", d);
        s_assert_count(s.castle_kind[CASTLE_NEAR], w[2], "near castles", d);
        s_assert_count(s.castle_kind[CASTLE_CENTER], w[3], "center castles", d);
        s_assert_count(s.castle_kind[CASTLE_FAR], w[4], "far castles", d);
        s_assert_count(s.castles, w[2] + w[3] + w[4], "castles", d);
        s_assert_count(s.promotions, w[5], "promotions", d);
        s_assert_count(s.checks, w[6], "checks", d);
        s_assert_count(s.mates, w[7], "mates", d);
    }
}

/* Every line of a suite to min(depth, its deepest), with and without tt. */
static void s_suite(const char *name, int depth, octad_tt_t *tt)
{
    char path[1024], line[512], err[128];
    const char *dir = getenv("OCTAD_TEST_DATA");
    assert_non_null(dir);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int lines = 0;
    while (fgets(line, sizeof line, f)) {
        epd_line_t e;
        octad_pos_t p;
        if (epd_parse_line(line, &e, err, sizeof err) != 1)
            continue;
        if (octad_parse(e.text, &p, err, sizeof err) != 0)
            fail_msg("%s: %s", e.text, err);
        for (int d = 1; d <= depth && d <= e.depth_max; d++) {
            s_assert_count(octad_perft(&p, d, NULL), e.nodes[d], e.text, d);
            s_assert_count(octad_perft(&p, d, tt), e.nodes[d], e.text, d);
        }
        lines++;
    }
    fclose(f);
    assert_true(lines >= 280);
}

static void test_suites(void **state)
{
    (void)state;
    octad_tt_t *tt = octad_tt_new(1 << 20);
    assert_non_null(tt);
    s_suite("octad-standard.epd", g_suite_depth, tt);
    s_suite("octad-deploy.epd", g_suite_depth, tt);
    octad_tt_destroy(&tt);
}

/* Random playouts (fixed seed) from every suite position: the popcount
 * counter at the last ply agrees with the move list everywhere on the way. */
static void test_count_matches_list(void **state)
{
    char path[1024], line[512], err[128];
    const char *dir = getenv("OCTAD_TEST_DATA");
    uint32_t rng = 2024;
    (void)state;
    assert_non_null(dir);
    for (int f = 0; f < 2; f++) {
        snprintf(path, sizeof path, "%s/%s", dir, f ? "octad-deploy.epd" : "octad-standard.epd");
        FILE *in = fopen(path, "r");
        assert_non_null(in);
        while (fgets(line, sizeof line, in)) {
            epd_line_t e;
            octad_pos_t p;
            if (epd_parse_line(line, &e, err, sizeof err) != 1 || octad_parse(e.text, &p, err, sizeof err))
                continue;
            for (int ply = 0; ply < 40; ply++) {
                octad_move_t moves[GAME_MOVES_MAX];
                int n = octad_gen_legal(&p, moves);
                count_t two = 0;
                for (int i = 0; i < n; i++) {
                    octad_pos_t c;
                    octad_move_t grand[GAME_MOVES_MAX];
                    octad_make(&p, moves[i], &c);
                    two += (count_t)octad_gen_legal(&c, grand);
                }
                s_assert_count(octad_perft(&p, 1, NULL), (count_t)n, "count vs list", 1);
                s_assert_count(octad_perft(&p, 2, NULL), two, "count vs list", 2);
                if (n == 0)
                    break;
                rng = rng * 1664525u + 1013904223u;
                octad_pos_t next;
                octad_make(&p, moves[(rng >> 8) % (uint32_t)n], &next);
                p = next;
            }
        }
        fclose(in);
    }
}

static void test_table_sizes(void **state)
{
    octad_pos_t p;
    (void)state;
    assert_null(octad_tt_new(0));
    assert_null(octad_tt_new(16));
    assert_int_equal(octad_parse(OCTAD_START_OFEN, &p, NULL, 0), 0);
    /* The smallest tables thrash on every store and must still be exact. */
    static const size_t SIZES[] = { 128, 200, 1000, 4096 };
    for (size_t i = 0; i < sizeof SIZES / sizeof *SIZES; i++) {
        octad_tt_t *tt = octad_tt_new(SIZES[i]);
        assert_non_null(tt);
        for (int d = 1; d <= 7 && d <= g_start_depth; d++)
            s_assert_count(octad_perft(&p, d, tt), START_NODES[d], "small table", d);
        octad_tt_destroy(&tt);
    }
}

int main(int argc, char **argv)
{
    if (argc > 1)
        g_start_depth = atoi(argv[1]);
    if (argc > 2)
        g_suite_depth = atoi(argv[2]);
    if (argc > 3)
        g_stats_depth = atoi(argv[3]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_nodes),
        cmocka_unit_test(test_start_stats),
        cmocka_unit_test(test_suites),
        cmocka_unit_test(test_count_matches_list),
        cmocka_unit_test(test_table_sizes),
    };
    return cmocka_run_group_tests(tests, s_setup, NULL);
}
