/* test_proto_random.c: bounded, seeded random bytes and mutated valid messages never break the decoder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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

/* Decodes data; an accepted message must re-encode and decode to itself, a rejected one must say why. */
static void s_check(const uint8_t *data, size_t len, s_tally_t *tally)
{
    static uint8_t again[MSG_MAX_BYTES];
    msg_t msg, back;
    char err[256] = "";
    int rc = msg_decode(data, len, &msg, err, sizeof(err));
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
    size_t n = 0;
    assert_int_equal(msg_encode(&msg, again, sizeof(again), &n, err, sizeof(err)), 0);
    assert_int_equal(msg_decode(again, n, &back, err, sizeof(err)), MSG_OK);
    assert_memory_equal(&msg, &back, sizeof(msg));
    tally->ok++;
}

static void test_random_bytes(void **state)
{
    (void)state;
    uint8_t buf[RANDOM_LEN_MAX];
    s_tally_t tally = {0, 0, 0};
    for (int r = 0; r < RANDOM_ROUNDS; r++) {
        size_t len = (size_t)(s_next() % RANDOM_LEN_MAX);
        for (size_t i = 0; i < len; i++)
            buf[i] = (uint8_t)s_next();
        /* Half the time start with a plausible envelope so the field decoders get exercised. */
        if (r % 2 && len >= 7)
            memcpy(buf, "\x9a\xa4OCTP\x01", 7);
        s_check(buf, len, &tally);
    }
    assert_int_equal(tally.ok + tally.bad + tally.version, RANDOM_ROUNDS);
}

static void test_mutated_messages(void **state)
{
    (void)state;
    static uint8_t buf[MSG_MAX_BYTES];
    s_tally_t tally = {0, 0, 0};
    for (int r = 0; r < MUTATION_ROUNDS; r++) {
        msg_t msg;
        size_t len = 0;
        msg_sample((msg_type_t)(1 + r % (MSG_TYPE_NB - 1)), (r / (MSG_TYPE_NB - 1)) % MSG_SAMPLES_PER_TYPE, &msg);
        assert_int_equal(msg_encode(&msg, buf, sizeof(buf), &len, NULL, 0), 0);
        int flips = 1 + (int)(s_next() % 4);
        for (int f = 0; f < flips; f++)
            buf[s_next() % len] = (uint8_t)s_next();
        if (s_next() % 4 == 0)
            len = (size_t)(s_next() % (len + 1));
        s_check(buf, len, &tally);
    }
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
