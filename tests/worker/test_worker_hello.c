/* test_worker_hello.c: the worker's HELLO and version negotiation (worker/whello.c): the HELLO
 * goes over the wire in its version with every field, ERROR VERSION steps down to version 1 and
 * no further, a session's messages take its version, and the worker's own ERROR VERSION says
 * which versions it speaks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "game.h"
#include "whello.h"

/* m encoded and decoded again: what the coordinator reads. */
static msg_t s_round_trip(const msg_t *m)
{
    unsigned char buf[MSG_MAX_BYTES];
    char err[200] = "";
    size_t len = 0;
    msg_t out;
    if (msg_encode(m, buf, sizeof buf, &len, err, sizeof err) != 0)
        fail_msg("encode: %s", err);
    if (msg_decode(buf, len, &out, NULL, err, sizeof err) != MSG_OK) /* HELLO, ERROR: no bulk fields */
        fail_msg("decode: %s", err);
    return out;
}

static void test_hello(void **state)
{
    (void)state;
    for (uint32_t version = MSG_VERSION_MIN; version <= MSG_VERSION_MAX; version++) {
        msg_t m;
        whello_hello(&m, version, "node-7", 5, 64);
        msg_t got = s_round_trip(&m);
        assert_int_equal(got.type, MSG_HELLO);
        assert_int_equal(got.version, version);
        assert_string_equal(got.u.hello.name, "node-7");
        assert_int_equal(got.u.hello.threads, 5);
        assert_int_equal(got.u.hello.hash_mb, 64);
        assert_int_equal(got.u.hello.n_variants, VARIANT_NB);
        for (int v = 0; v < VARIANT_NB; v++)
            assert_string_equal(got.u.hello.variants[v], game_variant_name((variant_t)v));
    }
    char longname[2 * MSG_NAME_MAX];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    msg_t m;
    whello_hello(&m, 3, longname, 1, 0);
    assert_int_equal(strlen(s_round_trip(&m).u.hello.name), MSG_NAME_MAX - 1);
}

static void test_fallback(void **state)
{
    (void)state;
    assert_int_equal(whello_fallback(3, true), 2);
    assert_int_equal(whello_fallback(2, true), 1);
    assert_int_equal(whello_fallback(1, true), 0);   /* refused at version 1: stop */
    for (uint32_t v = 1; v <= 3; v++)
        assert_int_equal(whello_fallback(v, false), 0); /* within a session: stop */
}

static void test_stamp(void **state)
{
    (void)state;
    msg_t m;
    msg_init(&m, MSG_CREDIT);
    whello_stamp(&m, 3);
    assert_int_equal(m.version, 3);       /* an OCTP/1 type in an OCTP/3 session */
    msg_init(&m, MSG_FETCH);
    whello_stamp(&m, 3);
    assert_int_equal(m.version, 3);
    whello_stamp(&m, 1);
    assert_int_equal(m.version, 3);       /* never lowered */
    msg_init(&m, MSG_ANALYSED);
    whello_stamp(&m, 2);
    assert_int_equal(m.version, 3);       /* a type newer than the session keeps its own */
    char err[200];
    size_t len;
    unsigned char buf[MSG_MAX_BYTES];
    msg_init(&m, MSG_HEARTBEAT);
    whello_stamp(&m, 2);
    assert_int_equal(msg_encode(&m, buf, sizeof buf, &len, err, sizeof err), 0);
    msg_t got;
    assert_int_equal(msg_decode(buf, len, &got, NULL, err, sizeof err), MSG_OK);
    assert_int_equal(got.version, 2);
}

static void test_version_error(void **state)
{
    (void)state;
    msg_t m;
    whello_version_error(&m, 2);
    msg_t got = s_round_trip(&m);
    assert_int_equal(got.type, MSG_ERROR);
    assert_int_equal(got.u.error.code, MSG_CODE_VERSION);
    assert_string_equal(got.u.error.text, "this worker speaks OCTP/1 to OCTP/2");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hello),
        cmocka_unit_test(test_fallback),
        cmocka_unit_test(test_stamp),
        cmocka_unit_test(test_version_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
