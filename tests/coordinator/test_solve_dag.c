/* test_solve_dag.c: the solve job's pair graph (coordinator/sdag.h): every
 * pair becomes ready only once the pairs of all the tables its exits reach
 * are done, many pairs are ready at once, leases, refusals and the verify
 * rule that a pair is checked by another principal than its maker. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "gen.h"
#include "sdag.h"
#include "sig.h"
#include "solve.h"

/* Whether every table pair i's exits reach is in a pair marked done. */
static bool s_children_done(const sdag_t *g, int i, const bool *done)
{
    int children[64];
    int n = gen_pair_children(g->pairs[i].pair, children); /* independently of the graph's own deps */
    for (int c = 0; c < n; c++) {
        int d = sig_pair_of(children[c]);
        bool found = false;
        for (int j = 0; j < g->n; j++)
            if (g->pairs[j].pair == d) {
                found = true;
                if (!done[j])
                    return false;
            }
        if (!found)
            return false;
    }
    return true;
}

static void test_schedule_respects_dependencies(void **state)
{
    (void)state;
    for (int pieces = 3; pieces <= 5; pieces++) {
        sdag_t g;
        bool done[1296] = {0};
        assert_int_equal(sdag_build(&g, pieces), 0);
        sdag_settle(&g);
        int rounds = 0, widest = 0;
        while (g.done < g.n) {
            int ready[1296], nready = 0;
            for (int i = 0; i < g.n; i++)
                if (g.pairs[i].state == SDAG_READY) {
                    assert_true(s_children_done(&g, i, done));
                    ready[nready++] = i;
                } else if (g.pairs[i].state == SDAG_WAITING) {
                    assert_false(s_children_done(&g, i, done) && g.pairs[i].undone == 0);
                }
            assert_true(nready > 0); /* never stuck */
            widest = nready > widest ? nready : widest;
            for (int k = 0; k < nready; k++) {
                done[ready[k]] = true;
                sdag_done(&g, ready[k]);
            }
            rounds++;
        }
        assert_true(widest > 1); /* pairs do run in parallel */
        assert_true(rounds < g.n);
        sdag_free(&g);
    }
}

static void test_pairs_and_weights(void **state)
{
    (void)state;
    sdag_t g;
    assert_int_equal(sdag_build(&g, 4), 0);
    assert_int_equal(g.n, 33); /* the pairs with a file up to 4 pieces, as octad solve makes them */
    int files = 0;
    for (int i = 0; i < g.n; i++) {
        files += g.pairs[i].ntables;
        assert_true(g.pairs[i].weight > 0);
        for (int k = 0; k < g.pairs[i].ndeps; k++)
            assert_true(g.pairs[i].deps[k] < i); /* solving order */
    }
    assert_int_equal(files, 61);
    sdag_free(&g);
}

static void test_pick_lease_release(void **state)
{
    (void)state;
    sdag_t g;
    assert_int_equal(sdag_build(&g, 4), 0);
    sdag_settle(&g);
    int i = sdag_pick(&g, 7, false, UINT64_MAX);
    assert_true(i >= 0 && g.pairs[i].state == SDAG_READY);
    for (int j = 0; j < g.n; j++) /* the heaviest ready pair first */
        if (g.pairs[j].state == SDAG_READY)
            assert_true(g.pairs[j].weight <= g.pairs[i].weight);
    uint64_t id = sdag_lease(&g, i, 42, 1000);
    assert_int_equal(g.pairs[i].state, SDAG_SOLVING);
    assert_int_equal(sdag_by_task(&g, id, 42), i);
    assert_int_equal(sdag_by_task(&g, id, 43), -1); /* another session cannot answer it */
    assert_int_not_equal(sdag_pick(&g, 7, false, UINT64_MAX), i);
    sdag_renew(&g, 42, 5000);
    assert_int_equal(g.pairs[i].lease_until, 5000);
    sdag_release(&g, i);
    assert_int_equal(g.pairs[i].state, SDAG_READY);
    assert_int_equal(sdag_by_task(&g, id, 42), -1);
    /* A refusal: that principal is not offered the pair again, others are. */
    sdag_avoid(&g, i, 7);
    assert_int_not_equal(sdag_pick(&g, 7, false, UINT64_MAX), i);
    assert_int_equal(sdag_pick(&g, 8, false, UINT64_MAX), i);
    sdag_free(&g);
}

static void test_verify_by_another(void **state)
{
    (void)state;
    sdag_t g;
    assert_int_equal(sdag_build(&g, 3), 0);
    sdag_settle(&g);
    int i = sdag_pick(&g, 1, true, UINT64_MAX);
    sdag_lease(&g, i, 10, 1000);
    g.pairs[i].state = SDAG_CHECK_READY; /* made by principal 1 */
    g.pairs[i].maker = 1;
    assert_int_not_equal(sdag_pick(&g, 1, true, UINT64_MAX), i); /* never its maker */
    assert_int_equal(sdag_pick(&g, 2, true, UINT64_MAX), i);       /* another principal, and first */
    uint64_t id = sdag_lease(&g, i, 20, 1000);
    assert_int_equal(g.pairs[i].state, SDAG_CHECKING);
    sdag_release(&g, i); /* the checker left: back to waiting for a check, not to solving */
    assert_int_equal(g.pairs[i].state, SDAG_CHECK_READY);
    assert_int_equal(sdag_by_task(&g, id, 20), -1);
    /* A copy that failed its check: solved again by another principal, which its bad maker may then check. */
    g.pairs[i].state = SDAG_READY;
    g.pairs[i].bad_maker = 1;
    assert_int_not_equal(sdag_pick(&g, 1, true, UINT64_MAX), i);
    assert_int_equal(sdag_pick(&g, 2, true, UINT64_MAX), i);
    sdag_lease(&g, i, 20, 1000);
    g.pairs[i].state = SDAG_CHECK_READY;
    g.pairs[i].maker = 2;
    assert_int_equal(sdag_pick(&g, 1, true, UINT64_MAX), i);
    sdag_free(&g);
}

/* The memory limit of a pick, and the memory the leases hold. */
static void test_pick_within_memory(void **state)
{
    (void)state;
    sdag_t g;
    assert_int_equal(sdag_build(&g, 4), 0);
    sdag_settle(&g);
    int big = sdag_pick(&g, 1, false, UINT64_MAX);
    uint64_t need = g.pairs[big].memory;
    assert_true(need > 0 && need == solve_pair_memory(g.pairs[big].pair));
    int small = sdag_pick(&g, 1, false, need - 1);
    assert_true(small >= 0 && small != big && g.pairs[small].memory < need);
    for (int j = 0; j < g.n; j++) /* the heaviest ready pair that fits */
        if (g.pairs[j].state == SDAG_READY && g.pairs[j].memory < need)
            assert_true(g.pairs[j].weight <= g.pairs[small].weight);
    assert_int_equal(sdag_pick(&g, 1, false, 0), -1);
    assert_true(sdag_held(&g) == 0);
    sdag_lease(&g, big, 5, 1000);
    g.pairs[big].held = need;
    sdag_lease(&g, small, 6, 1000);
    g.pairs[small].held = 0; /* a remote worker's lease counts nothing here */
    assert_true(sdag_held(&g) == need);
    sdag_release(&g, big);
    assert_true(sdag_held(&g) == 0); /* a pair back in the queue holds nothing */
    sdag_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schedule_respects_dependencies),
        cmocka_unit_test(test_pairs_and_weights),
        cmocka_unit_test(test_pick_lease_release),
        cmocka_unit_test(test_verify_by_another),
        cmocka_unit_test(test_pick_within_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
