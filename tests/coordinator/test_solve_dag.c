/* test_solve_dag.c: the solve job's pair graph (coordinator/sdag.h): every
 * pair becomes ready only once the pairs of all the tables its exits reach
 * are done, sdag_done names exactly the pairs it made ready, many pairs are
 * ready at once. (Leases, refusals, memory and the verify rule are the one
 * life cycle's: test_kinds.c.) */
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
                int became[1296], waiting[1296], nw = 0;
                for (int j = 0; j < g.n; j++)
                    if (g.pairs[j].state == SDAG_WAITING)
                        waiting[nw++] = j;
                done[ready[k]] = true;
                int nb = sdag_done(&g, ready[k], became), seen = 0;
                for (int w = 0; w < nw; w++)
                    if (g.pairs[waiting[w]].state == SDAG_READY)
                        assert_int_equal(became[seen++], waiting[w]);
                assert_int_equal(nb, seen);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schedule_respects_dependencies),
        cmocka_unit_test(test_pairs_and_weights),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
