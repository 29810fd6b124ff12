/* test_proto_codec.c: every OCTP message round-trips; fixed bytes of the envelope and counts; encoder limits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hash.h"
#include "msg.h"
#include "msg_samples.h"

static uint8_t s_buf[MSG_MAX_BYTES];

static size_t s_encode_ok(const msg_t *msg)
{
    char err[256] = "";
    size_t len = 0;
    int rc = msg_encode(msg, s_buf, sizeof(s_buf), &len, err, sizeof(err));
    if (rc != 0)
        fail_msg("encode %s: %s", msg_type_name(msg->type), err);
    assert_true(len > 0 && len <= MSG_MAX_BYTES);
    return len;
}

/* msg decodes to a message of its type and version that encodes to the same bytes (a
 * decoded message points into its bulk storage, so encodings are compared, not structs). */
static void s_round_trip(const msg_t *msg)
{
    size_t len = s_encode_ok(msg);
    uint8_t *first = malloc(len);
    msg_bulk_store_t *store = malloc(sizeof *store);
    assert_non_null(first);
    assert_non_null(store);
    memcpy(first, s_buf, len);
    msg_t back;
    msg_bulk_t bulk = msg_bulk_of(store);
    char err[256] = "";
    int rc = msg_decode(first, len, &back, &bulk, err, sizeof(err));
    if (rc != MSG_OK)
        fail_msg("decode %s: %s", msg_type_name(msg->type), err);
    assert_int_equal(back.type, msg->type);
    assert_int_equal(back.version, msg->version);
    assert_int_equal(s_encode_ok(&back), len);
    assert_memory_equal(s_buf, first, len);
    free(store);
    free(first);
}

static void test_every_sample_round_trips(void **state)
{
    (void)state;
    msg_bulk_store_t store;
    for (int t = MSG_NONE + 1; t < MSG_TYPE_NB; t++)
        for (int which = 0; which < MSG_SAMPLES_PER_TYPE; which++) {
            msg_t msg;
            msg_sample((msg_type_t)t, which, &msg, &store);
            s_round_trip(&msg);
        }
}

/* Every sample encodes to the bytes recorded in tests/data/proto-samples.txt (their length and
 * FNV-1a 64), written by the codec before the long fields moved to bulk storage: the wire format
 * stays byte for byte. */
static void test_samples_encode_as_recorded(void **state)
{
    (void)state;
    const char *dir = getenv("OCTAD_TEST_DATA");
    char path[4096], line[256];
    snprintf(path, sizeof path, "%s/proto-samples.txt", dir ? dir : "tests/data");
    FILE *f = fopen(path, "r");
    if (f == NULL)
        fail_msg("%s: cannot open it", path);
    msg_bulk_store_t *store = malloc(sizeof *store);
    assert_non_null(store);
    int checked = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        char name[32];
        size_t want_len;
        unsigned long long want_hash;
        if (line[0] == '#' || sscanf(line, "%31s %zu %llx", name, &want_len, &want_hash) != 3)
            continue;
        char *dash = strrchr(name, '-');
        assert_non_null(dash);
        msg_type_t t = MSG_NONE;
        for (int k = MSG_NONE + 1; k < MSG_TYPE_NB; k++)
            if (strncmp(msg_type_name((msg_type_t)k), name, (size_t)(dash - name)) == 0 &&
                msg_type_name((msg_type_t)k)[dash - name] == '\0')
                t = (msg_type_t)k;
        assert_int_not_equal(t, MSG_NONE);
        msg_t msg;
        msg_sample(t, atoi(dash + 1), &msg, store);
        size_t len = s_encode_ok(&msg);
        uint64_t h = hash_fnv1a_add(HASH_FNV1A_BASIS, s_buf, len);
        if (len != want_len || h != want_hash)
            fail_msg("%s: %zu bytes, FNV-1a %016llx; recorded %zu bytes, %016llx", name, len, (unsigned long long)h,
                     want_len, want_hash);
        checked++;
    }
    fclose(f);
    free(store);
    assert_int_equal(checked, (MSG_TYPE_NB - 1) * MSG_SAMPLES_PER_TYPE); /* every sample is recorded */
}

static void test_counts_round_trip(void **state)
{
    (void)state;
    const count_t two64 = (count_t)1 << 64;
    const count_t values[] = {0, 1, two64 - 1, two64, two64 + 1, ((count_t)0xdeadbeef << 64) | 42,
                              ~(count_t)0 - 1, ~(count_t)0};
    msg_bulk_store_t store;
    for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
        msg_t msg;
        msg_sample(MSG_RESULT, 0, &msg, &store);
        msg.u.result.nodes = values[i];
        msg.u.result.stats.nodes = values[i];
        msg.u.result.stats.mates = values[sizeof(values) / sizeof(values[0]) - 1 - i];
        s_round_trip(&msg);
        msg_t back;
        size_t len = s_encode_ok(&msg);
        assert_int_equal(msg_decode(s_buf, len, &back, NULL, NULL, 0), MSG_OK); /* RESULT has no bulk field */
        assert_true(back.u.result.nodes == values[i]);
    }
}

static void test_heartbeat_bytes(void **state)
{
    (void)state;
    msg_t msg;
    msg_init(&msg, MSG_HEARTBEAT);
    size_t len = s_encode_ok(&msg);
    const uint8_t want[] = {0x93, 0xa4, 'O', 'C', 'T', 'P', 0x01, 0xa9, 'H', 'E', 'A', 'R', 'T', 'B', 'E', 'A', 'T'};
    assert_int_equal(len, sizeof(want));
    assert_memory_equal(s_buf, want, sizeof(want));
}

static void test_count_bytes(void **state)
{
    (void)state;
    msg_t msg;
    msg_init(&msg, MSG_RESULT);
    msg.u.result.task_id = 1;
    msg.u.result.nodes = ((count_t)2 << 64) | 3;
    size_t len = s_encode_ok(&msg);
    /* [.., "RESULT", task_id 1, job_id 0, nodes [2, 3], stats nil, elapsed 0] */
    const uint8_t tail[] = {0x01, 0x00, 0x92, 0x02, 0x03, 0xc0, 0x00};
    assert_true(len > sizeof(tail));
    assert_int_equal(s_buf[0], 0x98);
    assert_memory_equal(s_buf + len - sizeof(tail), tail, sizeof(tail));
    msg.u.result.nodes = ~(count_t)0;
    len = s_encode_ok(&msg);
    const uint8_t max[] = {0x92, 0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                           0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    assert_memory_equal(s_buf + len - 2 - sizeof(max), max, sizeof(max));
}

static void test_type_names(void **state)
{
    (void)state;
    assert_string_equal(msg_type_name(MSG_TASK), "TASK");
    assert_string_equal(msg_type_name(MSG_HEARTBEAT), "HEARTBEAT");
    assert_string_equal(msg_type_name(MSG_NONE), "NONE");
    assert_string_equal(msg_type_name((msg_type_t)99), "NONE");
    assert_int_equal(msg_type_senders(MSG_TASK), MSG_FROM_COORDINATOR);
    assert_int_equal(msg_type_senders(MSG_RESULT), MSG_FROM_WORKER);
    assert_int_equal(msg_type_senders(MSG_BYE), MSG_FROM_WORKER | MSG_FROM_COORDINATOR);
    assert_int_equal(msg_type_senders((msg_type_t)-1), 0);
}

/* Encoding msg must fail with a message containing `needle`. */
static void s_encode_fails(const msg_t *msg, const char *needle)
{
    char err[256] = "";
    size_t len = 0;
    assert_int_equal(msg_encode(msg, s_buf, sizeof(s_buf), &len, err, sizeof(err)), -1);
    if (strstr(err, needle) == NULL)
        fail_msg("error \"%s\" does not mention \"%s\"", err, needle);
}

static void test_encoder_checks_limits(void **state)
{
    (void)state;
    msg_t msg;
    msg_bulk_store_t store;
    msg_sample(MSG_HELLO, 0, &msg, &store);
    msg.u.hello.threads = 0;
    s_encode_fails(&msg, "threads");
    msg_sample(MSG_HELLO, 0, &msg, &store);
    msg.u.hello.n_variants = MSG_VARIANTS_MAX + 1;
    s_encode_fails(&msg, "variants");
    msg_sample(MSG_HELLO, 0, &msg, &store);
    msg.u.hello.name[0] = '\0';
    s_encode_fails(&msg, "name");
    msg_sample(MSG_TASK, 0, &msg, &store);
    memset(msg.u.task.position, 'p', sizeof(msg.u.task.position));
    s_encode_fails(&msg, "position");
    msg_sample(MSG_HANDBACK, 0, &msg, &store);
    ((uint64_t *)store.bytes)[1] = 0; /* the sample's task ids */
    s_encode_fails(&msg, "task_ids[1]");
    msg_sample(MSG_HANDBACK, 0, &msg, &store);
    msg.u.handback.task_ids = NULL;
    s_encode_fails(&msg, "task_ids: 3 elements and no pointer");
    msg_sample(MSG_WELCOME, 0, &msg, &store);
    msg.u.welcome.liveness = 6;
    s_encode_fails(&msg, "liveness");
    msg_init(&msg, MSG_NONE);
    s_encode_fails(&msg, "type");
    msg_init(&msg, (msg_type_t)77);
    s_encode_fails(&msg, "type");
}

static void test_encoder_small_buffer(void **state)
{
    (void)state;
    msg_t msg;
    msg_bulk_store_t store;
    msg_sample(MSG_TASK, 0, &msg, &store);
    size_t full = s_encode_ok(&msg);
    for (size_t cap = 0; cap < full; cap++) {
        size_t len = 0;
        char err[256] = "";
        assert_int_equal(msg_encode(&msg, s_buf, cap, &len, err, sizeof(err)), -1);
        assert_non_null(strstr(err, "too small"));
    }
}

static void test_largest_messages_fit(void **state)
{
    (void)state;
    /* wire.c relies on every message encoding under MSG_MAX_BYTES: a full
     * CHUNK is its data and under 100 bytes more, the rest under 10 KiB. */
    msg_bulk_store_t store;
    for (int t = MSG_NONE + 1; t < MSG_TYPE_NB; t++) {
        msg_t msg;
        msg_sample((msg_type_t)t, 2, &msg, &store);
        size_t limit = t == MSG_CHUNK ? MSG_CHUNK_MAX + 100 : 10 * 1024;
        assert_true(s_encode_ok(&msg) < limit);
    }
}

static void test_octp2_versions(void **state)
{
    (void)state;
    msg_t msg, got;
    msg_bulk_store_t store;
    char err[256] = "";
    size_t len = 0;
    /* OCTP/2 types go out as OCTP/2; one cannot be sent as OCTP/1. */
    msg_sample(MSG_SOLVE, 0, &msg, &store);
    assert_int_equal(msg.version, 2);
    msg.version = 1;
    assert_int_equal(msg_encode(&msg, s_buf, sizeof(s_buf), &len, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "cannot be sent as OCTP/1"));
    /* A perft message may travel in either version, and says which. */
    msg_sample(MSG_TASK, 0, &msg, &store);
    assert_int_equal(msg.version, 1);
    msg.version = 2;
    assert_int_equal(msg_encode(&msg, s_buf, sizeof(s_buf), &len, err, sizeof(err)), 0);
    assert_int_equal(msg_decode(s_buf, len, &got, NULL, err, sizeof(err)), MSG_OK);
    assert_int_equal(got.version, 2);
    assert_memory_equal(&got, &msg, sizeof(msg));
    msg.version = MSG_VERSION_MAX + 1;
    assert_int_equal(msg_encode(&msg, s_buf, sizeof(s_buf), &len, err, sizeof(err)), -1);
    /* OCTP/4's USAGE goes out as OCTP/4 and not in OCTP/3. */
    msg_sample(MSG_USAGE, 0, &msg, &store);
    assert_int_equal(msg.version, 4);
    msg.version = 3;
    assert_int_equal(msg_encode(&msg, s_buf, sizeof(s_buf), &len, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "cannot be sent as OCTP/3"));
    /* OCTP/3 types go out as OCTP/3 and not in OCTP/2; a perft message travels in 3 too. */
    msg_sample(MSG_ANALYSED, 0, &msg, &store);
    assert_int_equal(msg.version, 3);
    msg.version = 2;
    assert_int_equal(msg_encode(&msg, s_buf, sizeof(s_buf), &len, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "cannot be sent as OCTP/2"));
    msg_sample(MSG_TASK, 0, &msg, &store);
    msg.version = 3;
    assert_int_equal(msg_encode(&msg, s_buf, sizeof(s_buf), &len, err, sizeof(err)), 0);
    assert_int_equal(msg_decode(s_buf, len, &got, NULL, err, sizeof(err)), MSG_OK);
    assert_int_equal(got.version, 3);
    /* A score outside -32000..32000 is not encoded; an ANALYSED needs a PV. */
    msg_sample(MSG_ANALYSED, 0, &msg, &store);
    msg.u.analysed.score = -32001;
    assert_int_equal(msg_encode(&msg, s_buf, sizeof(s_buf), &len, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "score: -32001 outside"));
    msg_sample(MSG_ANALYSED, 0, &msg, &store);
    msg.u.analysed.n_pv = 0;
    assert_int_equal(msg_encode(&msg, s_buf, sizeof(s_buf), &len, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "pv"));
    /* A CHUNK's data is a bin of at most MSG_CHUNK_MAX bytes. */
    msg_sample(MSG_CHUNK, 2, &msg, &store);
    msg.u.chunk.n_data = MSG_CHUNK_MAX + 1;
    assert_int_equal(msg_encode(&msg, s_buf, sizeof(s_buf), &len, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "data"));
    /* A table reference needs a name. */
    msg_sample(MSG_SOLVED, 0, &msg, &store);
    msg.u.solved.tables[1].name[0] = '\0';
    assert_int_equal(msg_encode(&msg, s_buf, sizeof(s_buf), &len, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "tables[1]"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_sample_round_trips),
        cmocka_unit_test(test_samples_encode_as_recorded),
        cmocka_unit_test(test_counts_round_trip),
        cmocka_unit_test(test_heartbeat_bytes),
        cmocka_unit_test(test_count_bytes),
        cmocka_unit_test(test_type_names),
        cmocka_unit_test(test_encoder_checks_limits),
        cmocka_unit_test(test_encoder_small_buffer),
        cmocka_unit_test(test_largest_messages_fit),
        cmocka_unit_test(test_octp2_versions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
