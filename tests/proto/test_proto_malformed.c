/* test_proto_malformed.c: for every message type, table-driven malformed inputs are rejected with a message naming the problem. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <msgpack.h>

#include "msg.h"
#include "msg_samples.h"
#include "msg_table.h"

enum { ELEMS_MAX = 16, BIG = MSG_HANDBACK_MAX + 2 };

static uint8_t s_buf[MSG_MAX_BYTES];

/* A message as editable msgpack objects: the envelope's elements. */
typedef struct {
    msgpack_unpacked up;
    msgpack_object elems[ELEMS_MAX];
    uint32_t n;
} s_parts_t;

static void s_parts_from_sample(s_parts_t *p, msg_type_t type, int which)
{
    msg_t msg;
    size_t len = 0, off = 0;
    msg_bulk_store_t *store = malloc(sizeof *store);
    assert_non_null(store);
    msg_sample(type, which, &msg, store);
    assert_int_equal(msg_encode(&msg, s_buf, sizeof(s_buf), &len, NULL, 0), 0);
    free(store);
    msgpack_unpacked_init(&p->up);
    assert_int_equal(msgpack_unpack_next(&p->up, (const char *)s_buf, len, &off), MSGPACK_UNPACK_SUCCESS);
    assert_int_equal(p->up.data.type, MSGPACK_OBJECT_ARRAY);
    p->n = p->up.data.via.array.size;
    assert_true(p->n <= ELEMS_MAX - 1);
    memcpy(p->elems, p->up.data.via.array.ptr, p->n * sizeof(msgpack_object));
}

/* Packs the (edited) parts and decodes them; returns the decoder's result and its message. */
static int s_parts_decode(s_parts_t *p, char *err, size_t errlen)
{
    msgpack_object root = {.type = MSGPACK_OBJECT_ARRAY};
    root.via.array.size = p->n;
    root.via.array.ptr = p->elems;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    assert_int_equal(msgpack_pack_object(&pk, root), 0);
    msg_t out;
    msg_bulk_store_t *store = malloc(sizeof *store);
    assert_non_null(store);
    msg_bulk_t bulk = msg_bulk_of(store); /* room for any message: the field checks are tested, not the room */
    int rc = msg_decode(sb.data, sb.size, &out, &bulk, err, errlen);
    if (rc != MSG_OK)
        assert_int_equal(out.type, MSG_NONE);
    free(store);
    msgpack_sbuffer_destroy(&sb);
    msgpack_unpacked_destroy(&p->up);
    return rc;
}

static void s_expect(s_parts_t *p, int want, const char *needle, const char *what)
{
    char err[256] = "";
    int rc = s_parts_decode(p, err, sizeof(err));
    if (rc != want)
        fail_msg("%s: decode gave %d, expected %d (%s)", what, rc, want, err);
    if (needle != NULL && strstr(err, needle) == NULL)
        fail_msg("%s: error \"%s\" does not mention \"%s\"", what, err, needle);
}

static msgpack_object s_uint(uint64_t v)
{
    msgpack_object o = {.type = MSGPACK_OBJECT_POSITIVE_INTEGER};
    o.via.u64 = v;
    return o;
}

static msgpack_object s_str(const char *s, uint32_t n)
{
    msgpack_object o = {.type = MSGPACK_OBJECT_STR};
    o.via.str.ptr = s;
    o.via.str.size = n;
    return o;
}

static msgpack_object s_other(msgpack_object_type t)
{
    msgpack_object o = {.type = t};
    if (t == MSGPACK_OBJECT_FLOAT64)
        o.via.f64 = 1.5;
    if (t == MSGPACK_OBJECT_NEGATIVE_INTEGER)
        o.via.i64 = -1;
    return o;
}

static void test_truncated_at_every_offset(void **state)
{
    (void)state;
    msg_bulk_store_t *store = malloc(sizeof *store);
    assert_non_null(store);
    msg_bulk_t bulk = msg_bulk_of(store);
    for (int t = MSG_NONE + 1; t < MSG_TYPE_NB; t++)
        for (int which = 0; which < MSG_SAMPLES_PER_TYPE; which++) {
            msg_t msg, out;
            size_t len = 0;
            char err[256];
            msg_sample((msg_type_t)t, which, &msg, store);
            assert_int_equal(msg_encode(&msg, s_buf, sizeof(s_buf), &len, NULL, 0), 0);
            for (size_t cut = 0; cut < len; cut++) {
                err[0] = '\0';
                assert_int_equal(msg_decode(s_buf, cut, &out, &bulk, err, sizeof(err)), MSG_EBADMSG);
                assert_int_equal(out.type, MSG_NONE);
                assert_true(strlen(err) > 0);
            }
            s_buf[len] = 0xc0; /* one trailing nil */
            assert_int_equal(msg_decode(s_buf, len + 1, &out, &bulk, err, sizeof(err)), MSG_EBADMSG);
            assert_non_null(strstr(err, "trailing"));
        }
    free(store);
}

/* Values of the wrong MessagePack type for a field of kind k. */
static int s_wrong_values(field_kind_t k, msgpack_object *out)
{
    int n = 0;
    out[n++] = s_other(MSGPACK_OBJECT_FLOAT64);
    out[n++] = s_other(MSGPACK_OBJECT_MAP);
    if (k != FIELD_STATS)
        out[n++] = s_other(MSGPACK_OBJECT_NIL);
    if (k == FIELD_STR || k == FIELD_STATS)
        out[n++] = s_uint(1);
    else
        out[n++] = s_str("1", 1);
    if (k == FIELD_BOOL || k == FIELD_U8 || k == FIELD_U32 || k == FIELD_U64)
        out[n++] = s_other(MSGPACK_OBJECT_NEGATIVE_INTEGER);
    if (k == FIELD_U8 || k == FIELD_U32 || k == FIELD_U64 || k == FIELD_I32) {
        out[n] = s_other(MSGPACK_OBJECT_BOOLEAN);
        out[n++].via.boolean = true;
    }
    return n;
}

static void test_wrong_field_types(void **state)
{
    (void)state;
    for (int t = MSG_NONE + 1; t < MSG_TYPE_NB; t++) {
        const msg_desc_t *d = msg_table_get((msg_type_t)t);
        for (size_t i = 0; i < d->n_fields; i++) {
            msgpack_object bad[8];
            int nbad = s_wrong_values(d->fields[i].kind, bad);
            for (int b = 0; b < nbad; b++) {
                s_parts_t p;
                s_parts_from_sample(&p, (msg_type_t)t, 0);
                p.elems[3 + i] = bad[b];
                s_expect(&p, MSG_EBADMSG, d->fields[i].name, d->name);
            }
        }
    }
}

static void test_missing_and_extra_fields(void **state)
{
    (void)state;
    for (int t = MSG_NONE + 1; t < MSG_TYPE_NB; t++) {
        const msg_desc_t *d = msg_table_get((msg_type_t)t);
        s_parts_t p;
        s_parts_from_sample(&p, (msg_type_t)t, 0);
        p.elems[p.n++] = s_other(MSGPACK_OBJECT_NIL);
        s_expect(&p, MSG_EBADMSG, "fields, expected", "extra field");
        for (size_t keep = 0; keep < d->n_fields; keep++) {
            s_parts_from_sample(&p, (msg_type_t)t, 0);
            p.n = (uint32_t)(3 + keep);
            s_expect(&p, MSG_EBADMSG, d->name, "missing field");
        }
    }
}

static void test_envelope(void **state)
{
    (void)state;
    for (int t = MSG_NONE + 1; t < MSG_TYPE_NB; t++) {
        s_parts_t p;
        s_parts_from_sample(&p, (msg_type_t)t, 0);
        p.elems[1] = s_uint(MSG_VERSION_MAX + 1);
        s_expect(&p, MSG_EVERSION, "OCTP/5 not supported", "version 5");
        for (uint32_t older = 1; older < msg_type_version((msg_type_t)t); older++) {
            char want[32]; /* an OCTP/2, /3 or /4 type does not exist in an older envelope */
            snprintf(want, sizeof want, "not in OCTP/%u", older);
            s_parts_from_sample(&p, (msg_type_t)t, 0);
            p.elems[1] = s_uint(older);
            s_expect(&p, MSG_EBADMSG, want, "newer type in an older envelope");
        }
        s_parts_from_sample(&p, (msg_type_t)t, 0);
        p.elems[1] = s_uint(0);
        s_expect(&p, MSG_EVERSION, "OCTP/0", "version 0");
        s_parts_from_sample(&p, (msg_type_t)t, 0);
        p.elems[1] = s_other(MSGPACK_OBJECT_NEGATIVE_INTEGER);
        s_expect(&p, MSG_EVERSION, "OCTP/-1", "version -1");
        s_parts_from_sample(&p, (msg_type_t)t, 0);
        p.elems[1] = s_str("1", 1);
        s_expect(&p, MSG_EBADMSG, "version", "version as str");
        s_parts_from_sample(&p, (msg_type_t)t, 0);
        p.elems[0] = s_str("OCTQ", 4);
        s_expect(&p, MSG_EBADMSG, "protocol", "protocol name");
        s_parts_from_sample(&p, (msg_type_t)t, 0);
        p.elems[0] = s_str("OCTP\0", 5);
        s_expect(&p, MSG_EBADMSG, "protocol", "protocol name with NUL");
        s_parts_from_sample(&p, (msg_type_t)t, 0);
        p.elems[2] = s_str("task", 4);
        s_expect(&p, MSG_EBADMSG, "unknown message type", "lower-case type");
        s_parts_from_sample(&p, (msg_type_t)t, 0);
        p.elems[2] = s_uint((uint64_t)t);
        s_expect(&p, MSG_EBADMSG, "type", "numeric type");
        s_parts_from_sample(&p, (msg_type_t)t, 0);
        p.n = 2;
        s_expect(&p, MSG_EBADMSG, "type", "no type");
    }
}

/* A field's value made one over its limit, if the table gives it a limit. */
static int s_oversize(const field_desc_t *f, msgpack_object *o, msgpack_object *items, char *text)
{
    switch (f->kind) {
    case FIELD_U8:
    case FIELD_U32:
    case FIELD_U64:
        if (f->max == UINT64_MAX) {
            if (f->min == 0)
                return 0;
            *o = s_uint(f->min - 1);
            return 1;
        }
        *o = s_uint(f->max + 1);
        return 1;
    case FIELD_I32:
        *o = s_uint((uint64_t)f->imax + 1);
        return 1;
    case FIELD_STR:
        memset(text, 'x', f->max + 1);
        *o = s_str(text, (uint32_t)f->max + 1);
        return 1;
    case FIELD_STR_LIST:
    case FIELD_U64_LIST:
        for (uint64_t i = 0; i < f->max + 1; i++)
            items[i] = f->kind == FIELD_U64_LIST ? s_uint(1) : s_str("octad", 5);
        o->type = MSGPACK_OBJECT_ARRAY;
        o->via.array.size = (uint32_t)f->max + 1;
        o->via.array.ptr = items;
        return 1;
    default: return 0;
    }
}

static void test_oversized_and_out_of_range(void **state)
{
    (void)state;
    msgpack_object *items = malloc(BIG * sizeof *items);
    char *text = malloc(MSG_MAX_BYTES);
    assert_non_null(items);
    assert_non_null(text);
    int checked = 0;
    for (int t = MSG_NONE + 1; t < MSG_TYPE_NB; t++) {
        const msg_desc_t *d = msg_table_get((msg_type_t)t);
        for (size_t i = 0; i < d->n_fields; i++) {
            s_parts_t p;
            msgpack_object o;
            s_parts_from_sample(&p, (msg_type_t)t, 0);
            if (!s_oversize(&d->fields[i], &o, items, text)) {
                msgpack_unpacked_destroy(&p.up);
                continue;
            }
            p.elems[3 + i] = o;
            s_expect(&p, MSG_EBADMSG, d->fields[i].name, d->name);
            checked++;
        }
    }
    assert_true(checked >= 15);
    free(text);
    free(items);
}

/* The one signed field: both ends of its range, and one beyond each. */
static void test_signed_score(void **state)
{
    (void)state;
    s_parts_t p;
    msgpack_object low = s_other(MSGPACK_OBJECT_NEGATIVE_INTEGER);
    low.via.i64 = -MSG_SCORE_MAX - 1;
    s_parts_from_sample(&p, MSG_ANALYSED, 0);
    p.elems[3 + 3] = low;
    s_expect(&p, MSG_EBADMSG, "ANALYSED field 4 score: -32001 outside -32000..32000", "score below range");
    low.via.i64 = -MSG_SCORE_MAX;
    s_parts_from_sample(&p, MSG_ANALYSED, 0);
    p.elems[3 + 3] = low;
    s_expect(&p, MSG_OK, NULL, "score at its minimum");
    s_parts_from_sample(&p, MSG_ANALYSED, 0);
    p.elems[3 + 3] = s_uint(MSG_SCORE_MAX);
    s_expect(&p, MSG_OK, NULL, "score at its maximum, unsigned format");
    s_parts_from_sample(&p, MSG_ANALYSED, 0);
    p.elems[3 + 3] = s_uint(UINT64_MAX);
    s_expect(&p, MSG_EBADMSG, "score", "score beyond int64");
    s_parts_from_sample(&p, MSG_ANALYSE, 0);
    p.elems[3 + 6] = s_uint(0);
    s_expect(&p, MSG_EBADMSG, "ANALYSE field 7 depth", "depth 0");
    s_parts_from_sample(&p, MSG_ANALYSED, 0);
    p.elems[3 + 5] = s_other(MSGPACK_OBJECT_ARRAY); /* an empty PV */
    s_expect(&p, MSG_EBADMSG, "ANALYSED field 6 pv: 0 elements", "empty pv");
    s_parts_from_sample(&p, MSG_ANALYSE, 0);
    p.elems[3 + 5] = s_str("e2e4qqqq", 8);
    s_expect(&p, MSG_EBADMSG, "ANALYSE field 6 move", "long move");
}

static void test_bad_list_elements(void **state)
{
    (void)state;
    msgpack_object items[2] = {s_str("octad", 5), s_str("", 0)};
    msgpack_object list = {.type = MSGPACK_OBJECT_ARRAY};
    list.via.array.size = 2;
    list.via.array.ptr = items;
    s_parts_t p;
    s_parts_from_sample(&p, MSG_HELLO, 0);
    p.elems[3 + 2] = list;
    s_expect(&p, MSG_EBADMSG, "variants: element 1", "empty variant");
    items[1] = s_str("octad-with-a-long-name", 22);
    s_parts_from_sample(&p, MSG_HELLO, 0);
    p.elems[3 + 2] = list;
    s_expect(&p, MSG_EBADMSG, "variants: element 1", "long variant");
    items[0] = s_uint(5);
    items[1] = s_uint(0);
    s_parts_from_sample(&p, MSG_HANDBACK, 0);
    p.elems[3] = list;
    s_expect(&p, MSG_EBADMSG, "task_ids: element 1", "task id 0");
    s_parts_from_sample(&p, MSG_TASK, 0);
    p.elems[3 + 3] = s_str("8/8\0/8", 6);
    s_expect(&p, MSG_EBADMSG, "NUL", "NUL in position");
}

static void test_bad_counts(void **state)
{
    (void)state;
    msgpack_object three[3] = {s_uint(1), s_uint(2), s_uint(3)};
    msgpack_object neg[2] = {s_uint(1), s_other(MSGPACK_OBJECT_NEGATIVE_INTEGER)};
    msgpack_object count = {.type = MSGPACK_OBJECT_ARRAY};
    const struct {
        msgpack_object *items;
        uint32_t n;
    } cases[] = {{three, 1}, {three, 3}, {neg, 2}, {three, 0}};
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        s_parts_t p;
        count.via.array.ptr = cases[c].items;
        count.via.array.size = cases[c].n;
        s_parts_from_sample(&p, MSG_RESULT, 0);
        p.elems[3 + 2] = count;
        s_expect(&p, MSG_EBADMSG, "nodes", "bad nodes count");
        /* the same bad count inside stats, and stats of the wrong length */
        s_parts_from_sample(&p, MSG_RESULT, 0);
        msgpack_object stats[MSG_STATS_NB];
        memcpy(stats, p.elems[3 + 3].via.array.ptr, sizeof(stats));
        stats[MSG_STATS_NB - 1] = count;
        p.elems[3 + 3].via.array.ptr = stats;
        char last[32];
        snprintf(last, sizeof last, "stats: element %d", MSG_STATS_NB - 1);
        s_expect(&p, MSG_EBADMSG, last, "bad count in stats");
    }
    s_parts_t p;
    s_parts_from_sample(&p, MSG_RESULT, 0);
    p.elems[3 + 3].via.array.size = MSG_STATS_NB - 1;
    s_expect(&p, MSG_EBADMSG, "stats", "one stats count short");
}

/* Raw byte strings that no valid message can be. */
static void test_raw_inputs(void **state)
{
    (void)state;
    static const struct {
        const char *bytes;
        size_t len;
        const char *needle;
    } cases[] = {
        {"", 0, "empty"},
        {"\xc1", 1, "0xc1"},
        {"\x81\xa1k\x01", 4, "expected array"},
        {"\xa4OCTP", 5, "expected array"},
        {"\x91\x91\x91\x91\x01", 5, "nested deeper"},
        {"\xdd\xff\xff\xff\xff\x01", 6, "elements"},    /* array32 of 2^32-1: no allocation */
        {"\xdf\xff\xff\xff\xff\x01", 6, "elements"},    /* map32 */
        {"\xdb\xff\xff\xff\xff" "ab", 7, "payload"},   /* str32 */
        {"\xc9\x7f\xff\xff\xff\x01", 6, "payload"},     /* ext32 */
        {"\x93\xa4OCTP\x01\xa4TASK\xc0", 13, "trailing"},
        {"\x90", 1, "protocol"},
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        msg_t out;
        char err[256] = "";
        assert_int_equal(msg_decode(cases[c].bytes, cases[c].len, &out, NULL, err, sizeof(err)), MSG_EBADMSG);
        if (strstr(err, cases[c].needle) == NULL)
            fail_msg("case %zu: error \"%s\" does not mention \"%s\"", c, err, cases[c].needle);
    }
}

static void test_message_too_long(void **state)
{
    (void)state;
    /* A valid-looking str32 of MSG_MAX_BYTES bytes: too long before any parsing. */
    size_t len = MSG_MAX_BYTES + 5;
    uint8_t *big = calloc(1, len);
    assert_non_null(big);
    big[0] = 0xdb;
    big[2] = 0x01; /* 0x00010000 = 65536 */
    msg_t out;
    char err[256] = "";
    assert_int_equal(msg_decode(big, len, &out, NULL, err, sizeof(err)), MSG_EBADMSG);
    assert_non_null(strstr(err, "exceeds"));
    free(big);
}

static void test_null_err_buffer(void **state)
{
    (void)state;
    msg_t out;
    assert_int_equal(msg_decode("\xc1", 1, &out, NULL, NULL, 0), MSG_EBADMSG);
    char tiny[4] = "zzz";
    assert_int_equal(msg_decode("\xc1", 1, &out, NULL, tiny, sizeof(tiny)), MSG_EBADMSG);
    assert_int_equal(tiny[3], '\0');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truncated_at_every_offset),
        cmocka_unit_test(test_wrong_field_types),
        cmocka_unit_test(test_missing_and_extra_fields),
        cmocka_unit_test(test_envelope),
        cmocka_unit_test(test_oversized_and_out_of_range),
        cmocka_unit_test(test_signed_score),
        cmocka_unit_test(test_bad_list_elements),
        cmocka_unit_test(test_bad_counts),
        cmocka_unit_test(test_raw_inputs),
        cmocka_unit_test(test_message_too_long),
        cmocka_unit_test(test_null_err_buffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
