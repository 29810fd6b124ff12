/* test_engine_order.c: what the search learns as it goes (core/engine/order.h,
 * core/engine/corrhist.h): the capture history reorders captures only among
 * captures of the same kind of victim and is halved between searches; the
 * correction history moves toward what the searches found, by more for a
 * deeper search, never beyond its limit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "order.h"
#include "test_parse.h"

static engine_move_t s_move(const game_pos_t *p, const char *text)
{
    engine_move_t m = engine_move_parse(p, text);
    if (m == ENGINE_MOVE_NONE)
        fail_msg("%s is not legal", text);
    return m;
}

/* rank[i]: where moves[i] comes in the order of pos's moves (0 first). */
static void s_order(const game_pos_t *p, const order_tables_t *t, const engine_move_t *moves, int nmoves,
                    int *rank)
{
    order_list_t list;
    const board_ops_t *ops = board_ops(p);
    list.n = ops->gen(p, list.moves);
    order_score(&list, ops, p, ENGINE_MOVE_NONE, t, 0);
    for (int i = 0; i < nmoves; i++)
        rank[i] = -1;
    int k = 0;
    for (engine_move_t m; (m = order_next(&list)) != ENGINE_MOVE_NONE; k++)
        for (int i = 0; i < nmoves; i++)
            if (m == moves[i])
                rank[i] = k;
    for (int i = 0; i < nmoves; i++)
        assert_true(rank[i] >= 0);
}

/* Nxd5 and Bxd5 take the same pawn; Nxb5 takes a knight. */
static void test_capture_history(void **state)
{
    (void)state;
    game_pos_t p = test_parse(VARIANT_CHESS, "4k3/8/8/1n1p4/8/2N2B2/8/4K3 w - - 0 1");
    engine_move_t mv[3] = { s_move(&p, "c3d5"), s_move(&p, "f3d5"), s_move(&p, "c3b5") };
    static order_tables_t t;
    memset(&t, 0, sizeof t);
    int rank[3];
    s_order(&p, &t, mv, 3, rank);
    assert_true(rank[2] < rank[0] && rank[0] < rank[1]); /* MVV-LVA: the knight first, then the knight's capture */
    for (int i = 0; i < 50; i++)
        order_update_captures(&t, board_ops(&p), &p, 12, mv[1], mv, 3);
    s_order(&p, &t, mv, 3, rank);
    assert_true(rank[1] < rank[0]);  /* the bishop's capture caused the cutoffs: it comes first now */
    assert_true(rank[2] < rank[1]);  /* but never before the capture of a knight */
    const board_ops_t *ops = board_ops(&p);
    int16_t *bxd5 = &t.capture[ops->mover(&p, mv[1])][ops->to(mv[1])][ops->victim(&p, mv[1])];
    int before = *bxd5;
    assert_true(before > 0 && before <= ORDER_HISTORY_MAX);
    order_age(&t);
    assert_int_equal(*bxd5, before / 2);
    s_order(&p, &t, mv, 3, rank);
    assert_true(rank[1] < rank[0]);  /* halved, still ahead */
    for (int i = 0; i < 50; i++)
        order_update_captures(&t, board_ops(&p), &p, 12, ENGINE_MOVE_NONE, mv, 3); /* a quiet move cut: all punished */
    for (int i = 0; i < 3; i++)
        assert_true(t.capture[ops->mover(&p, mv[i])][ops->to(mv[i])][ops->victim(&p, mv[i])] < 0);
    s_order(&p, &t, mv, 3, rank);
    assert_true(rank[2] < rank[0] && rank[2] < rank[1]);
}

static void test_corrhist(void **state)
{
    (void)state;
    static corrhist_t c;
    memset(&c, 0, sizeof c);
    int idx = corrhist_index(0x123456789abcdef0ull);
    assert_true(idx >= 0 && idx < CORRHIST_SIZE);
    assert_int_equal(corrhist_get(&c, 0, idx), 0);
    /* a search 40 cp above the corrected evaluation, again and again: the correction rises toward 40 */
    int last = 0;
    for (int i = 0; i < 400; i++) {
        corrhist_update(&c, 0, idx, 10, 40 - corrhist_get(&c, 0, idx));
        int now = corrhist_get(&c, 0, idx);
        assert_true(now >= last && now <= 40);
        last = now;
    }
    assert_true(last >= 38);
    assert_int_equal(corrhist_get(&c, 1, idx), 0); /* the other side's entry is apart */
    /* far beyond the limit: it stops at 64 cp either way */
    for (int i = 0; i < 400; i++)
        corrhist_update(&c, 1, idx, 20, 1000);
    assert_int_equal(corrhist_get(&c, 1, idx), CORRHIST_LIMIT / CORRHIST_GRAIN);
    for (int i = 0; i < 400; i++)
        corrhist_update(&c, 1, idx, 20, -1000);
    assert_int_equal(corrhist_get(&c, 1, idx), -CORRHIST_LIMIT / CORRHIST_GRAIN);
    /* a deeper search moves the entry further */
    corrhist_t d;
    memset(&d, 0, sizeof d);
    corrhist_update(&d, 0, 0, 2, 60);
    corrhist_update(&d, 0, 1, 12, 60);
    assert_true(d.v[0][1] > d.v[0][0] && d.v[0][0] > 0);
}

int main(void)
{
    game_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_capture_history),
        cmocka_unit_test(test_corrhist),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
