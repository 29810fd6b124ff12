/* test_engine_evcache.c: the evaluation cache (core/engine/evcache.h) never
 * returns a value for a key it was not given: an empty cache misses, keys
 * that differ from a cached one in a single bit miss, and over many random
 * keys (far more than its slots, so slots are shared and overwritten) every
 * hit returns the value last cached for exactly that key, also when two keys
 * that share one of their two words meet in one slot. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "evcache.h"

static uint64_t s_next(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static void test_empty_misses(void **state)
{
    (void)state;
    evcache_t *c = evcache_new();
    assert_non_null(c);
    int v = 12345;
    assert_false(evcache_get(c, (engine_key_t){ 0, 0 }, &v));
    assert_false(evcache_get(c, (engine_key_t){ 1, 2 }, &v));
    assert_int_equal(v, 12345);
    evcache_destroy(&c);
    assert_null(c);
}

static void test_round_trip_and_single_bits(void **state)
{
    (void)state;
    evcache_t *c = evcache_new();
    const int values[] = { 0, 1, -1, 32767, -32767, 250, -4321 };
    uint64_t rng = 7;
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        engine_key_t k = { s_next(&rng), s_next(&rng) };
        evcache_put(c, k, values[i]);
        int v = 0;
        assert_true(evcache_get(c, k, &v));
        assert_int_equal(v, values[i]);
        for (int bit = 0; bit < 64; bit++) {
            engine_key_t a = { k.a ^ (UINT64_C(1) << bit), k.b }, b = { k.a, k.b ^ (UINT64_C(1) << bit) };
            assert_false(evcache_get(c, a, &v));
            assert_false(evcache_get(c, b, &v));
        }
    }
    evcache_destroy(&c);
}

/* Many more keys than slots: a hit is always the value last put for that key. */
static void test_hits_are_exact(void **state)
{
    (void)state;
    enum { N = 1 << 18 };
    evcache_t *c = evcache_new();
    engine_key_t *keys = malloc(N * sizeof *keys);
    int *vals = malloc(N * sizeof *vals);
    assert_non_null(keys);
    assert_non_null(vals);
    uint64_t rng = 42;
    for (int i = 0; i < N; i++) {
        /* half the keys share their first word with another key, so the second word must be checked too */
        keys[i] = (engine_key_t){ i % 2 ? keys[i - 1].a : s_next(&rng), s_next(&rng) };
        vals[i] = (int)(s_next(&rng) % 65535) - 32767;
        evcache_put(c, keys[i], vals[i]);
    }
    int hits = 0;
    for (int i = 0; i < N; i++) {
        int v;
        if (!evcache_get(c, keys[i], &v))
            continue;
        hits++;
        assert_int_equal(v, vals[i]);
    }
    assert_true(hits > 0);
    assert_true(hits <= 1 << EVCACHE_BITS);
    free(keys);
    free(vals);
    evcache_destroy(&c);
}

/* A key that shares one word with a cached key and lands in its slot
 * overwrites it; it must never be read back as the first key's value. Tried
 * over 2^19 second keys of each kind: about 8 of each share the slot. */
static void test_shared_word_in_one_slot(void **state)
{
    (void)state;
    evcache_t *c = evcache_new();
    uint64_t rng = 99;
    int collisions = 0;
    for (int i = 0; i < 1 << 20; i++) {
        engine_key_t k1 = { s_next(&rng), s_next(&rng) }, k2 = k1;
        if (i % 2)
            k2.b = s_next(&rng);
        else
            k2.a = s_next(&rng);
        evcache_put(c, k1, 100);
        evcache_put(c, k2, -200);
        int v = 0;
        if (!evcache_get(c, k1, &v))
            collisions++;
        else
            assert_int_equal(v, 100);
    }
    assert_true(collisions > 0);
    evcache_destroy(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_misses),
        cmocka_unit_test(test_round_trip_and_single_bits),
        cmocka_unit_test(test_hits_are_exact),
        cmocka_unit_test(test_shared_word_in_one_slot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
