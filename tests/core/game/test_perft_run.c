/* test_perft_run.c: the generic drivers (split, multi-threaded perft, divide,
 * stats through merged tasks) give exactly the counts of RULES.md and the suites.
 * Argument "slow": deeper depths (ctest label slow). */
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
#include "perft_run.h"
#include "split.h"
#include "test_parse.h"

static bool s_slow;

/* Start-position perft of octad, RULES.md. */
static const count_t s_octad_start[] = {1, 10, 84, 642, 4375, 29309, 183931, 1153190,
                                        6924175, 41899653, 246876713, 1465308554};

static count_t s_run(const game_pos_t *pos, int depth, int threads, size_t hash_mb, bool divide,
                     perft_result_t *r)
{
    perft_opts_t o = {.depth = depth, .threads = threads, .hash_bytes = hash_mb << 20, .divide = divide};
    char err[256];
    assert_int_equal(perft_run(pos, &o, r, err, sizeof err), 0);
    return r->nodes;
}

static void s_assert_count(count_t got, count_t want, const char *what, int depth)
{
    char a[COUNT_TEXT_MAX], b[COUNT_TEXT_MAX];
    if (got != want)
        fail_msg("%s depth %d: got %s, want %s", what, depth, count_format(got, a), count_format(want, b));
}

static void test_octad_start_threads_and_hash(void **state)
{
    perft_result_t *r = malloc(sizeof *r);
    game_pos_t pos = test_parse(VARIANT_OCTAD, OCTAD_START_OFEN);
    int deepest = s_slow ? 11 : 8;
    (void)state;
    for (int d = 0; d <= deepest; d++) {
        if (d <= 9 || s_slow)
            s_assert_count(s_run(&pos, d, 2, 0, false, r), s_octad_start[d], "2 threads no hash", d);
        s_assert_count(s_run(&pos, d, 2, 8, false, r), s_octad_start[d], "2 threads hash", d);
        s_assert_count(s_run(&pos, d, 3, 1, false, r), s_octad_start[d], "3 threads tiny hash", d);
    }
    free(r);
}

static void s_suite(variant_t v, const char *file, int step, int depth, int threads, size_t hash_bytes);

/* Four threads hammer one tiny shared table (64 buckets: every store lands on
 * a line another thread is reading), on the start position and on positions
 * of both suites: a torn entry (one position's key with another's count)
 * would show as a wrong total. Where the table cannot be shared
 * (game_tt_shareable false) the threads keep tiny tables of their own. */
static void test_shared_table_under_contention(void **state)
{
    (void)state;
    perft_result_t *r = malloc(sizeof *r);
    char err[256];
    printf("octad table shared by threads: %s\n", game_tt_shareable(VARIANT_OCTAD) ? "yes" : "no (per thread)");
    game_pos_t pos = test_parse(VARIANT_OCTAD, OCTAD_START_OFEN);
    int deepest = s_slow ? 10 : 9;
    for (int d = 2; d <= deepest; d++) {
        perft_opts_t o = {.depth = d, .threads = 4, .hash_bytes = 4096};
        assert_int_equal(perft_run(&pos, &o, r, err, sizeof err), 0);
        s_assert_count(r->nodes, s_octad_start[d], "4 threads, 4 KB shared table", d);
    }
    s_suite(VARIANT_OCTAD, "octad-standard.epd", 5, 5, 4, 4096);
    s_suite(VARIANT_OCTAD, "octad-deploy.epd", 5, 5, 4, 4096);
    free(r);
}

static void test_divide_sums_to_total(void **state)
{
    perft_result_t *r = malloc(sizeof *r), *one = malloc(sizeof *one);
    game_pos_t pos = test_parse(VARIANT_OCTAD, OCTAD_START_OFEN);
    (void)state;
    for (int d = 1; d <= 6; d++) {
        count_t sum = 0;
        s_run(&pos, d, 2, 4, true, r);
        s_run(&pos, d, 1, 0, true, one);
        assert_int_equal(r->root_nb, 10);
        assert_int_equal(one->root_nb, 10);
        for (int i = 0; i < r->root_nb; i++) {
            sum += r->root_nodes[i];
            assert_string_equal(r->root_uoi[i], one->root_uoi[i]);
            s_assert_count(r->root_nodes[i], one->root_nodes[i], r->root_uoi[i], d);
        }
        s_assert_count(sum, s_octad_start[d], "divide sum", d);
    }
    free(r);
    free(one);
}

static void test_split_merges_transpositions(void **state)
{
    game_pos_t pos = test_parse(VARIANT_OCTAD, OCTAD_START_OFEN);
    split_t split;
    count_t paths = 0, weighted = 0;
    (void)state;
    assert_int_equal(split_new(&pos, 6, 500, 4, &split), 0);
    assert_true(split.ply >= 3);
    for (size_t i = 0; i < split.task_nb; i++) {
        paths += split_task_paths(&split.tasks[i]);
        weighted += game_perft(&split.tasks[i].pos, split.tasks[i].depth, NULL) *
                    split_task_paths(&split.tasks[i]);
        if (i > 0)
            assert_true(strcmp(split.tasks[i - 1].key, split.tasks[i].key) < 0);
    }
    assert_true(paths == split.paths_nb);
    assert_true(split.task_nb < (size_t)split.paths_nb); /* something merged */
    s_assert_count(weighted, s_octad_start[6], "split weighted", 6);
    split_free(&split);
    split_free(&split);
}

/* RULES.md stats table, depth 6 (7 under slow), computed through merged tasks. */
static void test_stats_through_tasks(void **state)
{
    perft_result_t *r = malloc(sizeof *r);
    game_pos_t pos = test_parse(VARIANT_OCTAD, OCTAD_START_OFEN);
    int d = s_slow ? 7 : 6;
    perft_opts_t o = {.depth = d, .threads = 2, .stats = true};
    char err[128];
    (void)state;
    assert_int_equal(perft_run(&pos, &o, r, err, sizeof err), 0);
    const perft_stats_t *s = &r->stats;
    if (d == 6) {
        count_t want[] = {43860, 297, 1336, 2575, 1411, 17384, 33948, 674};
        count_t got[] = {s->captures, s->en_passant, s->castle_kind[0], s->castle_kind[1],
                         s->castle_kind[2], s->promotions, s->checks, s->mates};
        for (int i = 0; i < 8; i++)
            s_assert_count(got[i], want[i], "stats field", i);
    } else {
        count_t want[] = {284124, 1728, 3356, 5586, 6810, 128808, 211148, 5626};
        count_t got[] = {s->captures, s->en_passant, s->castle_kind[0], s->castle_kind[1],
                         s->castle_kind[2], s->promotions, s->checks, s->mates};
        for (int i = 0; i < 8; i++)
            s_assert_count(got[i], want[i], "stats field", i);
    }
    s_assert_count(r->nodes, s_octad_start[d], "stats nodes", d);
    free(r);
}

/* Every `step`-th line of a suite, on `threads` threads with a table of hash_bytes. */
static void s_suite(variant_t v, const char *file, int step, int depth, int threads, size_t hash_bytes)
{
    char path[512], line[512], err[256];
    const char *dir = getenv("OCTAD_TEST_DATA");
    perft_result_t *r = malloc(sizeof *r);
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "tests/data", file);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        fail_msg("cannot open %s", path);
    for (int n = 0; fgets(line, sizeof line, f); n++) {
        epd_line_t e;
        int rc = epd_parse_line(line, &e, err, sizeof err);
        assert_true(rc >= 0);
        if (rc == 0 || n % step != 0)
            continue;
        game_pos_t pos = test_parse(v, e.text);
        int d = depth < e.depth_max ? depth : e.depth_max;
        perft_opts_t o = {.depth = d, .threads = threads, .hash_bytes = hash_bytes};
        assert_int_equal(perft_run(&pos, &o, r, err, sizeof err), 0);
        s_assert_count(r->nodes, e.nodes[d], e.text, d);
    }
    fclose(f);
    free(r);
}

static void test_suites_multithreaded(void **state)
{
    (void)state;
    s_suite(VARIANT_OCTAD, "octad-standard.epd", s_slow ? 1 : 7, s_slow ? 6 : 5, 2, 2 << 20);
    s_suite(VARIANT_OCTAD, "octad-deploy.epd", s_slow ? 1 : 7, s_slow ? 6 : 5, 2, 2 << 20);
    s_suite(VARIANT_CHESS, "chess-cpw.epd", 1, s_slow ? 5 : 3, 2, 2 << 20);
    s_suite(VARIANT_CHESS960, "chess960-fischer.epd", s_slow ? 10 : 97, s_slow ? 5 : 3, 2, 2 << 20);
}

int main(int argc, char **argv)
{
    s_slow = argc > 1 && strcmp(argv[1], "slow") == 0;
    game_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_octad_start_threads_and_hash),
        cmocka_unit_test(test_shared_table_under_contention),
        cmocka_unit_test(test_divide_sums_to_total),
        cmocka_unit_test(test_split_merges_transpositions),
        cmocka_unit_test(test_stats_through_tasks),
        cmocka_unit_test(test_suites_multithreaded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
