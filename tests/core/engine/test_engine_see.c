/* test_engine_see.c: static exchange evaluation (core/engine/see.h) on positions
 * whose exchange is worked out by hand in the comments (pawn 100, knight and
 * bishop 320, rook 500, queen 950): each move's value v is checked as
 * "wins >= v" true and "wins >= v + 1" false, so the exact value is pinned. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "engine.h"
#include "see.h"

typedef struct {
    const char *fen, *move;
    int value;
} s_case_t;

static const s_case_t S_CASES[] = {
    /* the queen takes a pawn defended by a pawn: 100 - 950 */
    { "4k3/8/3p4/4p3/8/8/4Q3/4K3 w - - 0 1", "e2e5", -850 },
    /* an undefended pawn */
    { "4k3/8/8/4p3/8/8/4Q3/4K3 w - - 0 1", "e2e5", 100 },
    /* the rook takes an undefended pawn (the black rook is on the d-file) */
    { "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", 100 },
    /* NxP NxN RxN BxR QxB QxQ: black stops after BxR; best for white is the knight for the pawn */
    { "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5", -220 },
    /* en passant: the pawn taken is not on the destination square */
    { "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100 },
    /* a quiet knight move onto a square a pawn attacks, and one onto a safe square */
    { "4k3/8/3p4/8/2N5/8/8/4K3 w - - 0 1", "c4e5", -320 },
    { "4k3/8/3p4/8/2N5/8/8/4K3 w - - 0 1", "c4b6", 0 },
    /* RxP RxR RxR: the rook behind joins through the x-ray */
    { "4k3/4r3/8/4p3/8/8/4R3/4RK2 w - - 0 1", "e2e5", 100 },
    /* NxP RxN RxR RxR: black's second rook joins through the x-ray behind the first, so the
     * knight is lost for a pawn (without the x-ray, RxN would lose the rook: +100) */
    { "k3r3/4r3/8/4p3/2N5/8/4R3/6K1 w - - 0 1", "c4e5", -220 },
    /* the same without the second rook: RxP RxR loses the rook for a pawn */
    { "4k3/4r3/8/4p3/8/8/4R3/5K2 w - - 0 1", "e2e5", -400 },
    /* the king may take only an undefended piece */
    { "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", "e1d2", 100 },
    /* castling exchanges nothing */
    { "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", 0 },
};

static void test_see_values(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof S_CASES / sizeof S_CASES[0]; i++) {
        const s_case_t *c = &S_CASES[i];
        game_pos_t p;
        char err[256];
        if (game_parse(VARIANT_CHESS, c->fen, &p, err, sizeof err) != 0)
            fail_msg("bad FEN %s: %s", c->fen, err);
        engine_move_t m = engine_move_parse(&p, c->move);
        if (m == ENGINE_MOVE_NONE)
            fail_msg("%s: %s is not legal", c->fen, c->move);
        if (!see_chess_ge(&p.u.chess, m, c->value) || see_chess_ge(&p.u.chess, m, c->value + 1))
            fail_msg("%s %s: SEE is not %d (>= %d: %d, >= %d: %d)", c->fen, c->move, c->value, c->value,
                     see_chess_ge(&p.u.chess, m, c->value), c->value + 1, see_chess_ge(&p.u.chess, m, c->value + 1));
    }
}

int main(void)
{
    game_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_see_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
