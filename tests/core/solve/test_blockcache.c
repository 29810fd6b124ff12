/* test_blockcache.c: core/solve/blockcache.h, the LRU of record blocks under
 * a byte budget: hits and misses, the least recently used dropped first, the
 * budget never exceeded, a block put twice kept once, a block larger than
 * the budget not kept, many blocks through a small budget (buckets grown),
 * dropped buffers reused. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>

#include "blockcache.h"

enum { S_N = 1000 }; /* records in a test block */

/* A block of S_N records whose record i is seed * 1000003 + i. */
static rec_t *s_block(blockcache_t *c, uint32_t seed)
{
    rec_t *r = blockcache_buffer(c);
    assert_non_null(r);
    for (uint32_t i = 0; i < S_N; i++)
        r[i] = seed * 1000003u + i;
    return r;
}

/* Whether block (table, b) is held with the records s_block(c, seed) made. */
static bool s_has(blockcache_t *c, int table, uint64_t b, uint32_t seed)
{
    rec_t r = 0;
    if (!blockcache_get(c, table, b, 17, &r))
        return false;
    assert_int_equal(r, seed * 1000003u + 17);
    return true;
}

static void test_lru_order(void **state)
{
    (void)state;
    /* room for three blocks (records and bookkeeping), not four */
    blockcache_t *c = blockcache_new(3 * (S_N * sizeof(rec_t) + 128), S_N);
    assert_non_null(c);
    rec_t r;
    assert_false(blockcache_get(c, 1, 0, 0, &r));
    blockcache_put(c, 1, 0, s_block(c, 10), S_N);
    rec_t *b11 = s_block(c, 11);
    blockcache_put(c, 1, 1, b11, S_N);
    blockcache_put(c, 2, 0, s_block(c, 20), S_N);
    assert_true(s_has(c, 1, 0, 10)); /* now the most recent: (1, 1) is the least */
    blockcache_put(c, 3, 5, s_block(c, 35), S_N);
    assert_false(s_has(c, 1, 1, 11));
    rec_t *spare = blockcache_buffer(c); /* the dropped block's buffer, not a new one */
    assert_ptr_equal(spare, b11);
    free(spare);
    assert_true(s_has(c, 1, 0, 10));
    assert_true(s_has(c, 2, 0, 20));
    assert_true(s_has(c, 3, 5, 35));
    blockcache_put(c, 3, 5, s_block(c, 35), S_N); /* read twice by two threads: kept once */
    blockcache_stats_t st = blockcache_stats(c);
    assert_int_equal(st.blocks, 3);
    assert_int_equal(st.evictions, 1);
    assert_true(st.bytes <= st.budget);
    assert_int_equal(st.misses, 2);
    blockcache_destroy(&c);
    assert_null(c);
    blockcache_destroy(&c);
}

static void test_budget(void **state)
{
    (void)state;
    blockcache_t *c = blockcache_new(100, S_N); /* smaller than any block */
    blockcache_put(c, 1, 0, s_block(c, 1), S_N);
    assert_false(s_has(c, 1, 0, 1));
    assert_int_equal(blockcache_stats(c).bytes, 0);
    blockcache_destroy(&c);
    size_t budget = 50 * (S_N * sizeof(rec_t) + 128);
    c = blockcache_new(budget, S_N);
    for (uint32_t b = 0; b < 2000; b++) {
        blockcache_put(c, (int)(b % 7), b, s_block(c, b), S_N);
        assert_true(blockcache_stats(c).bytes <= budget);
    }
    blockcache_stats_t st = blockcache_stats(c);
    assert_int_equal(st.blocks, 50);
    for (uint32_t b = 1950; b < 2000; b++)
        assert_true(s_has(c, (int)(b % 7), b, b));
    assert_false(s_has(c, 1949 % 7, 1949, 1949));
    blockcache_destroy(&c);
    c = blockcache_new((size_t)1 << 40, S_N); /* no practical bound: everything stays, the buckets grow */
    for (uint32_t b = 0; b < 3000; b++)
        blockcache_put(c, 4, b, s_block(c, b), 20);
    for (uint32_t b = 0; b < 3000; b += 7)
        assert_true(s_has(c, 4, b, b));
    assert_int_equal(blockcache_stats(c).evictions, 0);
    blockcache_destroy(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_lru_order), cmocka_unit_test(test_budget)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
