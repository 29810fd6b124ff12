/* test_count.c: exact 128-bit counts print and parse, and suite lines read back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "count.h"
#include "epd.h"

static void test_format_extremes(void **state)
{
    char buf[COUNT_TEXT_MAX];
    (void)state;
    assert_string_equal(count_format(0, buf), "0");
    assert_string_equal(count_format(246876713, buf), "246876713");
    assert_string_equal(count_format((count_t)UINT64_MAX + 1, buf), "18446744073709551616");
    assert_string_equal(count_format(~(count_t)0, buf), "340282366920938463463374607431768211455");
}

static void test_parse_round_trip_and_errors(void **state)
{
    count_t n = 0;
    char buf[COUNT_TEXT_MAX];
    (void)state;
    assert_int_equal(count_parse("340282366920938463463374607431768211455", &n), 0);
    assert_true(n == ~(count_t)0);
    assert_string_equal(count_format(n, buf), "340282366920938463463374607431768211455");
    assert_int_equal(count_parse("340282366920938463463374607431768211456", &n), -1);
    assert_int_equal(count_parse("", &n), -1);
    assert_int_equal(count_parse("12a", &n), -1);
    assert_int_equal(count_parse("-1", &n), -1);
}

static void test_epd_lines(void **state)
{
    epd_line_t e;
    char err[128];
    (void)state;
    assert_int_equal(epd_parse_line("ppkn/4/4/NKPP w NCFncf - 0 1 ;D1 10 ;D2 84\n", &e, err, sizeof err), 1);
    assert_string_equal(e.text, "ppkn/4/4/NKPP w NCFncf - 0 1");
    assert_int_equal(e.depth_max, 2);
    assert_true(e.nodes[1] == 10 && e.nodes[2] == 84);
    assert_int_equal(epd_parse_line("# comment\n", &e, err, sizeof err), 0);
    assert_int_equal(epd_parse_line("   \n", &e, err, sizeof err), 0);
    assert_int_equal(epd_parse_line("x ;D1 1x", &e, err, sizeof err), -1);
    assert_int_equal(epd_parse_line("x ;E1 1", &e, err, sizeof err), -1);
    assert_int_equal(epd_parse_line("x ;D99 1", &e, err, sizeof err), -1);
    assert_int_equal(epd_parse_line("x ;D1 ", &e, err, sizeof err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_extremes),
        cmocka_unit_test(test_parse_round_trip_and_errors),
        cmocka_unit_test(test_epd_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
