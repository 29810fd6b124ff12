/* test_status_history.c: the rate now over its window and the chart's bounded points (status_history.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "status_history.h"

/* Fewer than two samples: no rate. */
static void test_empty(void **state)
{
    (void)state;
    history_t h;
    history_init(&h);
    assert_true(history_rate_now(&h) == 0.0);
    history_add(&h, 0.0, 0.0);
    assert_true(history_rate_now(&h) == 0.0);
    assert_int_equal(h.point_nb, 1);
}

/* A run at 100 per second, then 1000 per second: the rate now is the recent one, over the
 * window only, while the average would still be far below. */
static void test_window(void **state)
{
    (void)state;
    history_t h;
    history_init(&h);
    double amount = 0;
    for (int k = 0; k <= 80; k++) { /* 20 s at 100/s, a sample every 250 ms */
        history_add(&h, k * 0.25, amount);
        amount += 25;
    }
    assert_float_equal(history_rate_now(&h), 100.0, 1e-9);
    double t = 20.0;
    amount -= 25;
    for (int k = 1; k <= 40; k++) { /* 10 s at 1000/s */
        amount += 250;
        history_add(&h, t + k * 0.25, amount);
    }
    assert_float_equal(history_rate_now(&h), 1000.0, 1e-9);
    history_add(&h, 30.25, amount + 250); /* one more: the window slides, the oldest sample leaves */
    assert_float_equal(history_rate_now(&h), 1000.0, 1e-9);
}

/* The chart keeps at most HISTORY_POINTS_MAX points however long the run, spanning all of it. */
static void test_points_bounded(void **state)
{
    (void)state;
    history_t h;
    history_init(&h);
    for (int k = 0; k <= 4 * 86400; k++) /* four days, a sample a second */
        history_add(&h, k, 7.0 * k);
    assert_true(h.point_nb <= HISTORY_POINTS_MAX && h.point_nb >= HISTORY_POINTS_MAX / 2);
    assert_true(h.points[0].t == 0.0);
    assert_true(h.points[h.point_nb - 1].t >= 4 * 86400 - h.step);
    for (size_t k = 1; k < h.point_nb; k++)
        assert_float_equal(h.points[k].amount - h.points[k - 1].amount, 7.0 * (h.points[k].t - h.points[k - 1].t),
                           1e-6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_empty), cmocka_unit_test(test_window),
                                       cmocka_unit_test(test_points_bounded)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
