/* test_hash.c: the one FNV-1a hash against the published test vectors, job ids as before, and the
 * one CRC-32 against its check value. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "hash.h"

/* The vectors published with FNV (Fowler, Noll, Vo; the FNV test suite, FNV-1a 64-bit). */
static void test_published_vectors(void **state)
{
    (void)state;
    assert_true(hash_fnv1a("") == 0xcbf29ce484222325ull);
    assert_true(hash_fnv1a("a") == 0xaf63dc4c8601ec8cull);
    assert_true(hash_fnv1a("foobar") == 0x85944171f73967e8ull);
    assert_true(hash_fnv1a_add(HASH_FNV1A_BASIS, "foobar", 3) == hash_fnv1a("foo"));
    assert_true(hash_fnv1a_text(hash_fnv1a("foo"), "bar") == hash_fnv1a("foobar"));
}

/* Job ids must not change: a journal written before resumes only if its job's id and key are the
 * same. The values were printed by the coordinator's code before the hash was shared (job.c and
 * ajob.c of commit eada93c, each with its own copy), for a perft job and an analysis job. */
static void test_job_ids_unchanged(void **state)
{
    (void)state;
    assert_true(hash_job_id("octad-cluster job v1; variant=octad; root=ppkn/4/4/NKPP w NCFncf -; depth=6; "
                            "stats=0; min_tasks=18446744073709551615; max_ply=2; tasks=84") ==
                0x92a2cb11ca1a0c88ull);
    assert_true(hash_job_id("octad-cluster analyse v1; variant=octad; start=ppkn/4/4/NKPP w NCFncf - 0 1; "
                            "moves=1/575ce2b55925dea2; position=ppkn/4/2P1/NK1P b NFncf - 0 1; depth=3; "
                            "hash_mb=16; tasks=9; verify") == 0xd2070550f93ca017ull);
    /* the analysis key's hash of its moves (each followed by one space) */
    assert_true(hash_fnv1a_text(HASH_JOB_BASIS, "c1c2 ") == 0x575ce2b55925dea2ull);
}

/* The check value of CRC-32/ISO-HDLC (zlib's crc32) over "123456789"; the empty input gives 0. */
static void test_crc32_check_value(void **state)
{
    (void)state;
    assert_true(hash_crc32("123456789", 9) == 0xCBF43926u);
    assert_true(hash_crc32("", 0) == 0);
    assert_true(hash_crc32("a", 1) == 0xE8B7BE43u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_published_vectors),
        cmocka_unit_test(test_job_ids_unchanged),
        cmocka_unit_test(test_crc32_check_value),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
