/* test_chess_960.c: Chess960 start positions by the standard (Scharnagl) numbering. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "chess/chess.h"

static void s_expect(int n, const char *want)
{
    char buf[GAME_TEXT_MAX];
    assert_int_equal(chess960_start_fen(n, buf, sizeof buf), 0);
    assert_string_equal(buf, want);
}

static void test_known_numbers(void **state)
{
    (void)state;
    s_expect(518, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
    s_expect(0, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
    s_expect(1, "bqnbnrkr/pppppppp/8/8/8/8/PPPPPPPP/BQNBNRKR w HFhf - 0 1");
    s_expect(2, "bqnnrbkr/pppppppp/8/8/8/8/PPPPPPPP/BQNNRBKR w HEhe - 0 1");
    s_expect(4, "qbbnnrkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNNRKR w HFhf - 0 1");
    s_expect(959, "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1");
}

static void test_bad_arguments(void **state)
{
    (void)state;
    char buf[GAME_TEXT_MAX];
    assert_int_equal(chess960_start_fen(-1, buf, sizeof buf), -1);
    assert_int_equal(chess960_start_fen(960, buf, sizeof buf), -1);
    assert_int_equal(chess960_start_fen(0, buf, 10), -1);
}

/* Every number gives a distinct legal start: bishops on both colours, king between
 * the rooks, both castlings, and it parses as Chess960 and formats back unchanged. */
static void test_all_960(void **state)
{
    (void)state;
    static char seen[960][9];
    for (int n = 0; n < 960; n++) {
        char buf[GAME_TEXT_MAX], out[GAME_TEXT_MAX], err[256];
        assert_int_equal(chess960_start_fen(n, buf, sizeof buf), 0);
        const char *rank = strrchr(buf, '/') + 1;
        memcpy(seen[n], rank, 8);
        seen[n][8] = '\0';
        const char *b1 = strchr(seen[n], 'B'), *b2 = strrchr(seen[n], 'B');
        assert_true(b1 != b2 && ((b1 - seen[n]) + (b2 - seen[n])) % 2 == 1);
        const char *r1 = strchr(seen[n], 'R'), *r2 = strrchr(seen[n], 'R'), *k = strchr(seen[n], 'K');
        assert_true(r1 < k && k < r2);
        for (int m = 0; m < n; m++)
            assert_string_not_equal(seen[m], seen[n]);
        chess_pos_t pos;
        if (chess_parse(VARIANT_CHESS960, buf, &pos, err, sizeof err) != 0)
            fail_msg("%d: %s: %s", n, buf, err);
        chess_format(&pos, out, sizeof out);
        assert_string_equal(out, buf);
    }
}

int main(void)
{
    chess_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_numbers),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_all_960),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
