/* test_engine_bigmem.c: the large-table allocator (core/engine/bigmem.h). Every
 * block is zeroed and writable to its last byte; blocks of 1 MiB and more
 * start on a 2 MiB boundary, smaller ones on a cache line; freeing NULL is a
 * no-op; a size whose rounding would overflow gives NULL, not a tiny block. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "bigmem.h"

static void s_check(size_t bytes, size_t align)
{
    unsigned char *p = bigmem_alloc(bytes);
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % align, 0);
    size_t nonzero = 0;
    for (size_t i = 0; i < bytes; i++)
        nonzero += p[i] != 0;
    assert_int_equal(nonzero, 0);
    p[0] = 1;
    p[bytes - 1] = 1;
    bigmem_free(p);
}

static void test_small_blocks_on_cache_lines(void **state)
{
    (void)state;
    s_check(1, BIGMEM_LINE);
    s_check(100, BIGMEM_LINE);
    s_check(BIGMEM_HUGE / 2 - 1, BIGMEM_LINE);
}

static void test_large_blocks_on_huge_pages(void **state)
{
    (void)state;
    s_check(BIGMEM_HUGE / 2, BIGMEM_HUGE);
    s_check(3 * BIGMEM_HUGE + 5, BIGMEM_HUGE);
}

static void test_edges(void **state)
{
    (void)state;
    bigmem_free(NULL);
    unsigned char *p = bigmem_alloc(0);
    assert_non_null(p);
    bigmem_free(p);
    assert_null(bigmem_alloc(SIZE_MAX)); /* rounding it up would overflow */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_blocks_on_cache_lines),
        cmocka_unit_test(test_large_blocks_on_huge_pages),
        cmocka_unit_test(test_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
