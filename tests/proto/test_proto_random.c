/* test_proto_random.c: bounded, seeded random bytes and mutated valid messages never break the decoder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "msg.h"
#include "msg_samples.h"

enum { RANDOM_ROUNDS = 20000, MUTATION_ROUNDS = 20000, RANDOM_LEN_MAX = 96 };

static uint64_t s_rng = 0x9e3779b97f4a7c15u;

/* xorshift64*: deterministic across runs and platforms. */
static uint64_t s_next(void)
{
    s_rng ^= s_rng >> 12;
    s_rng ^= s_rng << 25;
    s_rng ^= s_rng >> 27;
    return s_rng * 0x2545f4914f6cdd1du;
}

typedef struct {
    int ok, bad, version;
} s_tally_t;

/* What s_check needs beside the input (on the heap: about 200 KB). */
typedef struct {
    msg_bulk_store_t bulk, bulk2;
    uint8_t again[MSG_MAX_BYTES], again2[MSG_MAX_BYTES];
} s_scratch_t;

static s_scratch_t *s_scratch_new(void)
{
    s_scratch_t *sc = malloc(sizeof *sc);
    assert_non_null(sc);
    return sc;
}

/* Decodes data; an accepted message must re-encode and decode to the same encoding, a rejected one must say why. */
static void s_check(const uint8_t *data, size_t len, s_scratch_t *sc, s_tally_t *tally)
{
    msg_t msg, back;
    msg_bulk_t bulk = msg_bulk_of(&sc->bulk), bulk2 = msg_bulk_of(&sc->bulk2);
    char err[256] = "";
    int rc = msg_decode(data, len, &msg, &bulk, err, sizeof(err));
    if (rc != MSG_OK) {
        assert_true(rc == MSG_EBADMSG || rc == MSG_EVERSION);
        assert_int_equal(msg.type, MSG_NONE);
        assert_true(strlen(err) > 0);
        if (rc == MSG_EVERSION)
            tally->version++;
        else
            tally->bad++;
        return;
    }
    size_t n = 0, n2 = 0;
    assert_int_equal(msg_encode(&msg, sc->again, sizeof(sc->again), &n, err, sizeof(err)), 0);
    assert_int_equal(msg_decode(sc->again, n, &back, &bulk2, err, sizeof(err)), MSG_OK);
    assert_int_equal(back.type, msg.type);
    assert_int_equal(msg_encode(&back, sc->again2, sizeof(sc->again2), &n2, err, sizeof(err)), 0);
    assert_int_equal(n2, n);
    assert_memory_equal(sc->again, sc->again2, n);
    tally->ok++;
}

static void test_random_bytes(void **state)
{
    (void)state;
    uint8_t buf[RANDOM_LEN_MAX];
    s_tally_t tally = {0, 0, 0};
    s_scratch_t *sc = s_scratch_new();
    for (int r = 0; r < RANDOM_ROUNDS; r++) {
        size_t len = (size_t)(s_next() % RANDOM_LEN_MAX);
        for (size_t i = 0; i < len; i++)
            buf[i] = (uint8_t)s_next();
        /* Half the time start with a plausible envelope so the field decoders get exercised. */
        if (r % 2 && len >= 7)
            memcpy(buf, "\x9a\xa4OCTP\x01", 7);
        s_check(buf, len, sc, &tally);
    }
    free(sc);
    assert_int_equal(tally.ok + tally.bad + tally.version, RANDOM_ROUNDS);
}

static void test_mutated_messages(void **state)
{
    (void)state;
    uint8_t *buf = malloc(MSG_MAX_BYTES);
    msg_bulk_store_t *store = malloc(sizeof *store);
    s_scratch_t *sc = s_scratch_new();
    assert_non_null(buf);
    assert_non_null(store);
    s_tally_t tally = {0, 0, 0};
    for (int r = 0; r < MUTATION_ROUNDS; r++) {
        msg_t msg;
        size_t len = 0;
        msg_sample((msg_type_t)(1 + r % (MSG_TYPE_NB - 1)), (r / (MSG_TYPE_NB - 1)) % MSG_SAMPLES_PER_TYPE, &msg,
                   store);
        assert_int_equal(msg_encode(&msg, buf, MSG_MAX_BYTES, &len, NULL, 0), 0);
        int flips = 1 + (int)(s_next() % 4);
        for (int f = 0; f < flips; f++)
            buf[s_next() % len] = (uint8_t)s_next();
        if (s_next() % 4 == 0)
            len = (size_t)(s_next() % (len + 1));
        s_check(buf, len, sc, &tally);
    }
    free(sc);
    free(store);
    free(buf);
    /* Some mutations hit only values (still valid), most break the message. */
    assert_true(tally.ok > 0);
    assert_true(tally.bad > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_bytes),
        cmocka_unit_test(test_mutated_messages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
