/* test_proto_bulk.c: bulk fields (CHUNK data, HANDBACK ids, needs, moves, PV) decode into the caller's storage:
 * exactly as much as they need, never past it, refused with the field named when it is too small or they are
 * too long. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <msgpack.h>

#include "msg.h"
#include "msg_samples.h"
#include "msg_table.h"

enum { CANARY = 0xa5, SLACK = 64 };

/* Storage for one test: a sample's bulk, its encoding, and room to decode into with a canary after it. */
typedef struct {
    msg_bulk_store_t sample;
    uint8_t enc[MSG_MAX_BYTES], again[MSG_MAX_BYTES];
    _Alignas(8) unsigned char room[MSG_BULK_MAX + SLACK];
} s_fix_t;

static int s_setup(void **state)
{
    *state = malloc(sizeof(s_fix_t));
    return *state == NULL ? -1 : 0;
}

static int s_teardown(void **state)
{
    free(*state);
    return 0;
}

/* The bulk field of type t (every type has at most one), or NULL. */
static const field_desc_t *s_bulk_field(msg_type_t t, size_t *index)
{
    const msg_desc_t *d = msg_table_get(t);
    for (size_t i = 0; i < d->n_fields; i++)
        if (d->fields[i].bulk) {
            *index = i;
            return &d->fields[i];
        }
    return NULL;
}

/* Bytes the bulk field f of msg holds. */
static size_t s_need(const msg_t *msg, const field_desc_t *f)
{
    uint32_t n;
    memcpy(&n, (const char *)msg + f->count_offset, sizeof n);
    return (size_t)n * msg_field_elem_size(f);
}

/* Sample `which` of t, encoded into x->enc; returns its length. */
static size_t s_encode_sample(s_fix_t *x, msg_type_t t, int which, msg_t *msg)
{
    size_t len = 0;
    char err[256] = "";
    msg_sample(t, which, msg, &x->sample);
    if (msg_encode(msg, x->enc, sizeof x->enc, &len, err, sizeof err) != 0)
        fail_msg("encode %s-%d: %s", msg_type_name(t), which, err);
    return len;
}

/* Decodes x->enc into cap bytes of x->room (at offset off), the rest a canary that must stay. */
static int s_decode_into(s_fix_t *x, size_t len, size_t off, size_t cap, msg_t *out, char *err, size_t errlen)
{
    memset(x->room, CANARY, sizeof x->room);
    msg_bulk_t bulk = {x->room + off, cap};
    int rc = msg_decode(x->enc, len, out, &bulk, err, errlen);
    for (size_t k = 0; k < sizeof x->room; k++)
        if ((k < off || k >= off + cap) && x->room[k] != CANARY)
            fail_msg("byte %zu outside the storage (offset %zu, %zu bytes) was written", k, off, cap);
    return rc;
}

/* One sample encoded into x->enc: its length, its bulk field (NULL if none), that field's place and bytes. */
typedef struct {
    msg_t msg;
    size_t len, index, need;
    const field_desc_t *f;
} s_case_t;

static s_case_t s_case(s_fix_t *x, msg_type_t t, int which)
{
    s_case_t c = {.f = NULL};
    c.len = s_encode_sample(x, t, which, &c.msg);
    c.f = s_bulk_field(t, &c.index);
    c.need = c.f ? s_need(&c.msg, c.f) : 0;
    return c;
}

/* out encodes to the len bytes of x->enc. */
static void s_same_encoding(s_fix_t *x, const msg_t *out, size_t len)
{
    size_t n = 0;
    assert_int_equal(msg_encode(out, x->again, sizeof x->again, &n, NULL, 0), 0);
    assert_int_equal(n, len);
    assert_memory_equal(x->again, x->enc, len);
}

/* Every sample decodes into storage of exactly the bytes its bulk field needs, at an aligned
 * and at an odd address, points into that storage, and encodes back to the same bytes. */
static void test_exact_storage_round_trips(void **state)
{
    s_fix_t *x = *state;
    int bulky = 0;
    for (int t = MSG_NONE + 1; t < MSG_TYPE_NB; t++)
        for (int which = 0; which < MSG_SAMPLES_PER_TYPE; which++) {
            msg_t out;
            s_case_t c = s_case(x, (msg_type_t)t, which);
            size_t len = c.len, need = c.need;
            const field_desc_t *f = c.f;
            for (size_t off = 0; off < 2; off++) {
                char err[256] = "";
                size_t pad = off == 0 ? 0 : 8 - off; /* the decoder aligns what it places */
                int rc = s_decode_into(x, len, off, need + pad, &out, err, sizeof err);
                if (rc != MSG_OK)
                    fail_msg("%s-%d with %zu bytes at offset %zu: %s", msg_type_name((msg_type_t)t), which,
                             need + pad, off, err);
                s_same_encoding(x, &out, len);
                if (f != NULL && need > 0) {
                    const unsigned char *p = msg_field_elems(&out, f);
                    assert_true(p >= x->room + off && p + need <= x->room + off + need + pad);
                    assert_int_equal((uintptr_t)p % 8, 0);
                    bulky++;
                }
            }
        }
    assert_int_equal(bulky, 2 * 13); /* two offsets; 13 samples with bulk elements: ANALYSED's 3 (a PV is never empty), 2 of each other bulky type */
}

/* One byte less than a sample's bulk field needs (or no storage) is refused, naming the type and field. */
static void test_too_small_storage_is_refused(void **state)
{
    s_fix_t *x = *state;
    int checked = 0;
    for (int t = MSG_NONE + 1; t < MSG_TYPE_NB; t++)
        for (int which = 0; which < MSG_SAMPLES_PER_TYPE; which++) {
            msg_t out;
            s_case_t c = s_case(x, (msg_type_t)t, which);
            size_t len = c.len;
            char err[256] = "", want[96];
            if (c.need == 0) { /* nothing to place: no storage is needed at all */
                assert_int_equal(msg_decode(x->enc, len, &out, NULL, err, sizeof err), MSG_OK);
                continue;
            }
            snprintf(want, sizeof want, "%s field %zu %s: ", msg_type_name((msg_type_t)t), c.index + 1, c.f->name);
            assert_int_equal(s_decode_into(x, len, 0, c.need - 1, &out, err, sizeof err), MSG_EBADMSG);
            assert_int_equal(out.type, MSG_NONE);
            if (strstr(err, want) == NULL || strstr(err, "bulk storage") == NULL)
                fail_msg("error \"%s\" does not name \"%s\" and the bulk storage", err, want);
            assert_int_equal(msg_decode(x->enc, len, &out, NULL, err, sizeof err), MSG_EBADMSG);
            assert_non_null(strstr(err, want));
            msg_bulk_t none = {x->room, 0};
            assert_int_equal(msg_decode(x->enc, len, &out, &none, err, sizeof err), MSG_EBADMSG);
            assert_non_null(strstr(err, "0 left"));
            checked++;
        }
    assert_int_equal(checked, 13);
}

/* A bulk field of one element (or byte) more than its limit. */
static void s_too_long(const field_desc_t *f, msgpack_packer *pk, char *bytes)
{
    uint32_t n = (uint32_t)f->max + 1;
    if (f->kind == FIELD_BIN) {
        memset(bytes, 'b', n);
        msgpack_pack_bin(pk, n);
        msgpack_pack_bin_body(pk, bytes, n);
        return;
    }
    msgpack_pack_array(pk, n);
    for (uint32_t i = 0; i < n; i++) {
        if (f->kind == FIELD_U64_LIST) {
            msgpack_pack_uint64(pk, 1 + i);
        } else if (f->kind == FIELD_STR_LIST) {
            msgpack_pack_str(pk, 4);
            msgpack_pack_str_body(pk, "e2e4", 4);
        } else { /* FIELD_TABLES */
            msgpack_pack_array(pk, 3);
            msgpack_pack_str(pk, 4);
            msgpack_pack_str_body(pk, "KQvK", 4);
            msgpack_pack_uint64(pk, 4096);
            msgpack_pack_uint64(pk, 7);
        }
    }
}

/* Every bulk field one over its limit is refused before any storage is used, naming the field and the limit. */
static void test_too_long_fields_are_refused(void **state)
{
    s_fix_t *x = *state;
    int checked = 0;
    for (int t = MSG_NONE + 1; t < MSG_TYPE_NB; t++) {
        size_t index = 0;
        const field_desc_t *f = s_bulk_field((msg_type_t)t, &index);
        if (f == NULL)
            continue;
        /* Sample 0 re-packed field by field, the bulk field replaced. */
        msg_t msg, out;
        size_t len = s_encode_sample(x, (msg_type_t)t, 0, &msg), off = 0;
        msgpack_unpacked up;
        msgpack_unpacked_init(&up);
        assert_int_equal(msgpack_unpack_next(&up, (const char *)x->enc, len, &off), MSGPACK_UNPACK_SUCCESS);
        msgpack_sbuffer sb;
        msgpack_packer pk;
        msgpack_sbuffer_init(&sb);
        msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
        msgpack_pack_array(&pk, up.data.via.array.size);
        for (uint32_t e = 0; e < up.data.via.array.size; e++) {
            if (e == 3 + index)
                s_too_long(f, &pk, (char *)x->again);
            else
                msgpack_pack_object(&pk, up.data.via.array.ptr[e]);
        }
        char err[256] = "", want[96], limit[64];
        assert_true(sb.size <= MSG_MAX_BYTES);
        msg_bulk_t bulk = {x->room, sizeof x->room}; /* more than enough: the limit refuses it */
        assert_int_equal(msg_decode(sb.data, sb.size, &out, &bulk, err, sizeof err), MSG_EBADMSG);
        snprintf(want, sizeof want, "%s field %zu %s: ", msg_type_name((msg_type_t)t), index + 1, f->name);
        snprintf(limit, sizeof limit, "%llu", (unsigned long long)f->max + 1);
        if (strstr(err, want) == NULL || strstr(err, limit) == NULL || strstr(err, "allowed") == NULL)
            fail_msg("error \"%s\" does not name \"%s\" with %s and its limit", err, want, limit);
        assert_int_equal(out.type, MSG_NONE);
        msgpack_sbuffer_destroy(&sb);
        msgpack_unpacked_destroy(&up);
        checked++;
    }
    assert_int_equal(checked, 6); /* HANDBACK, SOLVE, VERIFY, CHUNK, ANALYSE, ANALYSED */
}

/* A message that is small on the stack, and storage that holds the largest of every bulk field. */
static void test_bounds(void **state)
{
    s_fix_t *x = *state;
    assert_true(sizeof(msg_t) <= MSG_T_BOUND);
    for (int t = MSG_NONE + 1; t < MSG_TYPE_NB; t++) {
        msg_t msg, out;
        char err[256] = "";
        size_t len = s_encode_sample(x, (msg_type_t)t, 2, &msg); /* every list at its limit */
        if (s_decode_into(x, len, 0, MSG_BULK_MAX, &out, err, sizeof err) != MSG_OK)
            fail_msg("%s at its limits does not fit MSG_BULK_MAX: %s", msg_type_name((msg_type_t)t), err);
    }
    /* An encoder never follows a NULL bulk pointer. */
    msg_t msg;
    msg_init(&msg, MSG_CHUNK);
    strcpy(msg.u.chunk.table, "KQvK");
    msg.u.chunk.n_data = 1;
    char err[256] = "";
    size_t len = 0;
    assert_int_equal(msg_encode(&msg, x->enc, sizeof x->enc, &len, err, sizeof err), -1);
    assert_non_null(strstr(err, "CHUNK field 4 data: 1 elements and no pointer"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_storage_round_trips),
        cmocka_unit_test(test_too_small_storage_is_refused),
        cmocka_unit_test(test_too_long_fields_are_refused),
        cmocka_unit_test(test_bounds),
    };
    return cmocka_run_group_tests(tests, s_setup, s_teardown);
}
