/* test_engine_timeman.c: the time budgets (core/engine/timeman.h). With a clock,
 * the soft budget grows when the best move changes or the score drops and
 * shrinks while the best move stays the same, never past the hard limit; with
 * movetime it never moves (the search uses the time it was given); with
 * neither there is no budget. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "timeman.h"

static timeman_t s_clock(void)
{
    engine_limits_t lim = { .time_ms = { 60000, 60000 }, .inc_ms = { 1000, 1000 } };
    timeman_t tm;
    timeman_start(&tm, &lim, 0, 0);
    return tm;
}

/* The soft budget in use, in ms: the smallest elapsed time that soft-stops. */
static int64_t s_soft(const timeman_t *tm)
{
    int64_t t = 0;
    while (!timeman_soft_stop(tm, NULL, t))
        t++;
    return t;
}

static void test_budgets(void **state)
{
    (void)state;
    timeman_t tm = s_clock();
    /* (60000 - 30 overhead) / 20 moves + 3/4 of 1000 = 3748; soft 3/4 of it, hard 5/2 */
    assert_int_equal(tm.soft_ms, 2811);
    assert_int_equal(tm.hard_ms, 9370);
    assert_int_equal(s_soft(&tm), 2811);
    assert_false(timeman_hard_stop(&tm, NULL, 9369));
    assert_true(timeman_hard_stop(&tm, NULL, 9370));
}

static void test_stable_move_shrinks(void **state)
{
    (void)state;
    timeman_t tm = s_clock();
    timeman_iteration(&tm, 11, 20);
    assert_int_equal(s_soft(&tm), tm.soft_ms);
    int64_t last = tm.soft_ms;
    for (int i = 0; i < 8; i++) {
        timeman_iteration(&tm, 11, 20);
        assert_true(s_soft(&tm) <= last);
        last = s_soft(&tm);
    }
    assert_int_equal(last, tm.soft_ms * 55 / 100 + (tm.soft_ms * 55 % 100 != 0));
}

static void test_change_and_drop_grow(void **state)
{
    (void)state;
    timeman_t tm = s_clock();
    timeman_iteration(&tm, 11, 20);
    timeman_iteration(&tm, 12, 20); /* the best move changed */
    int64_t changed = s_soft(&tm);
    assert_true(changed > tm.soft_ms);
    assert_true(changed < tm.hard_ms);
    timeman_iteration(&tm, 12, 20);
    timeman_iteration(&tm, 12, 20);
    timeman_t steady = tm;
    timeman_iteration(&steady, 12, 20);
    timeman_iteration(&tm, 12, -60); /* the same move, but the score fell by 80 */
    assert_true(s_soft(&tm) > s_soft(&steady));
}

static void test_movetime_fixed(void **state)
{
    (void)state;
    engine_limits_t lim = { .movetime_ms = 1000 };
    timeman_t tm;
    timeman_start(&tm, &lim, 0, 0);
    for (int i = 0; i < 8; i++)
        timeman_iteration(&tm, 11, 20);
    assert_int_equal(s_soft(&tm), 970);
    timeman_iteration(&tm, 12, -500);
    assert_int_equal(s_soft(&tm), 970);
}

static void test_no_limit(void **state)
{
    (void)state;
    engine_limits_t lim = { .depth = 5 };
    timeman_t tm;
    timeman_start(&tm, &lim, 0, 0);
    timeman_iteration(&tm, 11, 20);
    assert_false(timeman_soft_stop(&tm, NULL, 1000000));
    assert_false(timeman_hard_stop(&tm, NULL, 1000000));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_budgets),         cmocka_unit_test(test_stable_move_shrinks),
        cmocka_unit_test(test_change_and_drop_grow), cmocka_unit_test(test_movetime_fixed),
        cmocka_unit_test(test_no_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
