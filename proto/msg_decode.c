/* msg_decode.c: table-driven, strict decoder of OCTP messages; copies everything out of the msgpack zone. */
#include <msgpack.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "msg.h"
#include "msg_scan.h"
#include "msg_table.h"

static const char *s_kind(const msgpack_object *o)
{
    switch (o->type) {
    case MSGPACK_OBJECT_NIL: return "nil";
    case MSGPACK_OBJECT_BOOLEAN: return "bool";
    case MSGPACK_OBJECT_POSITIVE_INTEGER: return "unsigned integer";
    case MSGPACK_OBJECT_NEGATIVE_INTEGER: return "negative integer";
    case MSGPACK_OBJECT_FLOAT32:
    case MSGPACK_OBJECT_FLOAT64: return "float";
    case MSGPACK_OBJECT_STR: return "str";
    case MSGPACK_OBJECT_BIN: return "bin";
    case MSGPACK_OBJECT_ARRAY: return "array";
    case MSGPACK_OBJECT_MAP: return "map";
    case MSGPACK_OBJECT_EXT: return "ext";
    }
    return "unknown";
}

static int s_get_uint(const msgpack_object *o, uint64_t lo, uint64_t hi, uint64_t *out, char *err,
                      size_t errlen)
{
    if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
        return err_printf(err, errlen, "expected unsigned integer, got %s", s_kind(o));
    if (o->via.u64 < lo || o->via.u64 > hi)
        return err_printf(err, errlen, "%llu outside %llu..%llu", (unsigned long long)o->via.u64,
                      (unsigned long long)lo, (unsigned long long)hi);
    *out = o->via.u64;
    return 0;
}

/* A signed integer in [lo, hi]: a MessagePack int of either sign (a
 * non-negative value may come in any format, as the encoders choose). */
static int s_get_int(const msgpack_object *o, int64_t lo, int64_t hi, int64_t *out, char *err, size_t errlen)
{
    int64_t v;
    if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER) {
        if (o->via.u64 > (uint64_t)INT64_MAX)
            return err_printf(err, errlen, "%llu outside %lld..%lld", (unsigned long long)o->via.u64, (long long)lo,
                              (long long)hi);
        v = (int64_t)o->via.u64;
    } else if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER) {
        v = o->via.i64;
    } else {
        return err_printf(err, errlen, "expected integer, got %s", s_kind(o));
    }
    if (v < lo || v > hi)
        return err_printf(err, errlen, "%lld outside %lld..%lld", (long long)v, (long long)lo, (long long)hi);
    *out = v;
    return 0;
}

/* Copies a str of min..max bytes without NUL into dst (max + 1 bytes). */
static int s_get_str(const msgpack_object *o, uint64_t min, uint64_t max, char *dst, char *err, size_t errlen)
{
    if (o->type != MSGPACK_OBJECT_STR)
        return err_printf(err, errlen, "expected str, got %s", s_kind(o));
    uint32_t n = o->via.str.size;
    if (n < min || n > max)
        return err_printf(err, errlen, "str of %u bytes, allowed %llu..%llu", n, (unsigned long long)min,
                      (unsigned long long)max);
    if (n > 0 && memchr(o->via.str.ptr, '\0', n) != NULL)
        return err_printf(err, errlen, "str contains a NUL byte");
    if (n > 0)
        memcpy(dst, o->via.str.ptr, n);
    dst[n] = '\0';
    return 0;
}

static int s_get_count(const msgpack_object *o, count_t *out, char *err, size_t errlen)
{
    if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != 2)
        return err_printf(err, errlen, "count: expected [hi, lo], got %s", s_kind(o));
    uint64_t hi = 0, lo = 0;
    if (s_get_uint(&o->via.array.ptr[0], 0, UINT64_MAX, &hi, err, errlen) != 0 ||
        s_get_uint(&o->via.array.ptr[1], 0, UINT64_MAX, &lo, err, errlen) != 0)
        return -1;
    *out = ((count_t)hi << 64) | lo;
    return 0;
}

static int s_get_stats(const msgpack_object *o, char *stats, bool *present, char *err, size_t errlen)
{
    if (o->type == MSGPACK_OBJECT_NIL) {
        *present = false;
        return 0;
    }
    if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != MSG_STATS_NB)
        return err_printf(err, errlen, "expected nil or %d counts, got %s", MSG_STATS_NB, s_kind(o));
    for (int i = 0; i < MSG_STATS_NB; i++) {
        char cerr[160];
        count_t c;
        if (s_get_count(&o->via.array.ptr[i], &c, cerr, sizeof(cerr)) != 0)
            return err_printf(err, errlen, "element %d: %s", i, cerr);
        memcpy(stats + msg_stats_offsets[i], &c, sizeof(c));
    }
    *present = true;
    return 0;
}

/* The caller's bulk storage as msg_decode fills it. */
typedef struct {
    unsigned char *buf;
    size_t cap, used;
} s_store_t;

enum { S_BULK_ALIGN = 8 }; /* enough for every bulk element (uint64_t, msg_tableref_t, bytes) */

/* Where the n elements of list or bin field f go: inside out, or (a bulk
 * field) the next aligned place in the caller's storage, whose address is
 * stored in out (NULL when n is 0). NULL with a message if they do not fit. */
static void *s_dest(const field_desc_t *f, uint32_t n, msg_t *out, s_store_t *st, char *err, size_t errlen)
{
    char *at = (char *)out + f->offset;
    size_t need = (size_t)n * msg_field_elem_size(f);
    if (!f->bulk || need == 0)
        return at;
    size_t pad = st->buf == NULL ? 0 : (size_t)(-((uintptr_t)st->buf + st->used) & (S_BULK_ALIGN - 1));
    size_t left = st->used + pad <= st->cap ? st->cap - st->used - pad : 0;
    if (st->buf == NULL || need > left) {
        err_printf(err, errlen, "%u elements of %zu bytes need %zu bytes of bulk storage, %zu left", n,
                   msg_field_elem_size(f), need, st->buf == NULL ? (size_t)0 : left);
        return NULL;
    }
    void *p = st->buf + st->used + pad;
    st->used += pad + need;
    memcpy(at, &p, sizeof p);
    return p;
}

static int s_get_list(const msgpack_object *o, const field_desc_t *f, msg_t *out, s_store_t *st, uint32_t *count,
                      char *err, size_t errlen)
{
    if (o->type != MSGPACK_OBJECT_ARRAY)
        return err_printf(err, errlen, "expected array, got %s", s_kind(o));
    uint32_t n = o->via.array.size;
    if (n < f->min || n > f->max)
        return err_printf(err, errlen, "%u elements, allowed %llu..%llu", n, (unsigned long long)f->min,
                      (unsigned long long)f->max);
    char *base = s_dest(f, n, out, st, err, errlen);
    if (base == NULL)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        char eerr[160];
        int rc;
        if (f->kind == FIELD_U64_LIST) {
            uint64_t v = 0;
            rc = s_get_uint(&o->via.array.ptr[i], f->elem_min, UINT64_MAX, &v, eerr, sizeof(eerr));
            if (rc == 0)
                memcpy(base + (size_t)i * sizeof(uint64_t), &v, sizeof(v));
        } else {
            rc = s_get_str(&o->via.array.ptr[i], 1, f->cap - 1, base + (size_t)i * f->cap, eerr, sizeof(eerr));
        }
        if (rc != 0)
            return err_printf(err, errlen, "element %u: %s", i, eerr);
    }
    *count = n;
    return 0;
}

static int s_get_bin(const msgpack_object *o, const field_desc_t *f, msg_t *out, s_store_t *st, uint32_t *len,
                     char *err, size_t errlen)
{
    if (o->type != MSGPACK_OBJECT_BIN)
        return err_printf(err, errlen, "expected bin, got %s", s_kind(o));
    uint32_t n = o->via.bin.size;
    if (n < f->min || n > f->max)
        return err_printf(err, errlen, "bin of %u bytes, allowed %llu..%llu", n, (unsigned long long)f->min,
                          (unsigned long long)f->max);
    uint8_t *dst = s_dest(f, n, out, st, err, errlen);
    if (dst == NULL)
        return -1;
    if (n > 0)
        memcpy(dst, o->via.bin.ptr, n);
    *len = n;
    return 0;
}

/* One table reference: [name str(31), size u64, crc u32]. */
static int s_get_tableref(const msgpack_object *o, msg_tableref_t *out, char *err, size_t errlen)
{
    uint64_t crc = 0;
    if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != 3)
        return err_printf(err, errlen, "expected [name, size, crc], got %s", s_kind(o));
    const msgpack_object *e = o->via.array.ptr;
    if (s_get_str(&e[0], 1, MSG_TABLE_NAME_MAX - 1, out->name, err, errlen) != 0 ||
        s_get_uint(&e[1], 0, UINT64_MAX, &out->size, err, errlen) != 0 ||
        s_get_uint(&e[2], 0, UINT32_MAX, &crc, err, errlen) != 0)
        return -1;
    out->crc = (uint32_t)crc;
    return 0;
}

static int s_get_tables(const msgpack_object *o, const field_desc_t *f, msg_t *out, s_store_t *st, uint32_t *count,
                        char *err, size_t errlen)
{
    if (o->type != MSGPACK_OBJECT_ARRAY)
        return err_printf(err, errlen, "expected array, got %s", s_kind(o));
    uint32_t n = o->via.array.size;
    if (n < f->min || n > f->max)
        return err_printf(err, errlen, "%u tables, allowed %llu..%llu", n, (unsigned long long)f->min,
                          (unsigned long long)f->max);
    msg_tableref_t *dst = s_dest(f, n, out, st, err, errlen);
    if (dst == NULL)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        char eerr[160];
        if (s_get_tableref(&o->via.array.ptr[i], &dst[i], eerr, sizeof(eerr)) != 0)
            return err_printf(err, errlen, "element %u: %s", i, eerr);
    }
    *count = n;
    return 0;
}

static int s_get_field(const msgpack_object *o, const field_desc_t *f, msg_t *out, s_store_t *st, char *err,
                       size_t errlen)
{
    char *p = (char *)out + f->offset;
    uint64_t v = 0;
    switch (f->kind) {
    case FIELD_U8:
    case FIELD_U32:
    case FIELD_U64:
        if (s_get_uint(o, f->min, f->max, &v, err, errlen) != 0)
            return -1;
        if (f->kind == FIELD_U8)
            *(uint8_t *)p = (uint8_t)v;
        else if (f->kind == FIELD_U32)
            *(uint32_t *)p = (uint32_t)v;
        else
            *(uint64_t *)p = v;
        return 0;
    case FIELD_BOOL:
        if (o->type != MSGPACK_OBJECT_BOOLEAN)
            return err_printf(err, errlen, "expected bool, got %s", s_kind(o));
        *(bool *)p = o->via.boolean;
        return 0;
    case FIELD_STR: return s_get_str(o, f->min, f->max, p, err, errlen);
    case FIELD_STR_LIST:
    case FIELD_U64_LIST: return s_get_list(o, f, out, st, (uint32_t *)((char *)out + f->count_offset), err, errlen);
    case FIELD_COUNT: return s_get_count(o, (count_t *)p, err, errlen);
    case FIELD_STATS: return s_get_stats(o, p, (bool *)((char *)out + f->count_offset), err, errlen);
    case FIELD_BIN: return s_get_bin(o, f, out, st, (uint32_t *)((char *)out + f->count_offset), err, errlen);
    case FIELD_I32: {
        int64_t iv = 0;
        if (s_get_int(o, f->imin, f->imax, &iv, err, errlen) != 0)
            return -1;
        *(int32_t *)p = (int32_t)iv;
        return 0;
    }
    case FIELD_TABLES:
        return s_get_tables(o, f, out, st, (uint32_t *)((char *)out + f->count_offset), err, errlen);
    }
    return err_printf(err, errlen, "unknown field kind");
}

/* Checks the envelope ["OCTP", version, type, ...] and finds the type's descriptor. */
static int s_envelope(const msgpack_object *root, msg_type_t *type, uint32_t *version, char *err, size_t errlen)
{
    if (root->type != MSGPACK_OBJECT_ARRAY)
        return err_printf(err, errlen, "message: expected array, got %s", s_kind(root));
    const msgpack_object *e = root->via.array.ptr;
    uint32_t n = root->via.array.size;
    if (n < 1 || e[0].type != MSGPACK_OBJECT_STR || e[0].via.str.size != 4 ||
        memcmp(e[0].via.str.ptr, MSG_PROTOCOL_NAME, 4) != 0)
        return err_printf(err, errlen, "element 1 (protocol): expected \"%s\"", MSG_PROTOCOL_NAME);
    if (n < 2 || (e[1].type != MSGPACK_OBJECT_POSITIVE_INTEGER && e[1].type != MSGPACK_OBJECT_NEGATIVE_INTEGER))
        return err_printf(err, errlen, "element 2 (version): expected an integer");
    if (e[1].type == MSGPACK_OBJECT_NEGATIVE_INTEGER || e[1].via.u64 < MSG_VERSION_MIN ||
        e[1].via.u64 > MSG_VERSION_MAX) {
        char v[32];
        if (e[1].type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
            snprintf(v, sizeof(v), "%lld", (long long)e[1].via.i64);
        else
            snprintf(v, sizeof(v), "%llu", (unsigned long long)e[1].via.u64);
        err_printf(err, errlen, "protocol %s/%s not supported; this peer speaks %s/%d to %s/%d", MSG_PROTOCOL_NAME,
                   v, MSG_PROTOCOL_NAME, MSG_VERSION_MIN, MSG_PROTOCOL_NAME, MSG_VERSION_MAX);
        return MSG_EVERSION;
    }
    *version = (uint32_t)e[1].via.u64;
    if (n < 3 || e[2].type != MSGPACK_OBJECT_STR)
        return err_printf(err, errlen, "element 3 (type): expected str");
    msg_type_t t = msg_table_find(e[2].via.str.ptr, e[2].via.str.size);
    if (t == MSG_NONE)
        return err_printf(err, errlen, "element 3 (type): unknown message type \"%.*s\"",
                      (int)(e[2].via.str.size > 32 ? 32 : e[2].via.str.size), e[2].via.str.ptr);
    const msg_desc_t *d = msg_table_get(t);
    if (d->since > *version)
        return err_printf(err, errlen, "element 3 (type): %s is an %s/%u message, not in %s/%u", d->name,
                          MSG_PROTOCOL_NAME, d->since, MSG_PROTOCOL_NAME, *version);
    if (n - 3 != d->n_fields)
        return err_printf(err, errlen, "%s: %u fields, expected %zu", d->name, n - 3, d->n_fields);
    *type = t;
    return 0;
}

static int s_decode_root(const msgpack_object *root, msg_t *out, s_store_t *st, char *err, size_t errlen)
{
    msg_type_t t = MSG_NONE;
    uint32_t version = 0;
    int rc = s_envelope(root, &t, &version, err, errlen);
    if (rc != 0)
        return rc;
    const msg_desc_t *d = msg_table_get(t);
    for (size_t i = 0; i < d->n_fields; i++) {
        char ferr[200];
        if (s_get_field(&root->via.array.ptr[3 + i], &d->fields[i], out, st, ferr, sizeof(ferr)) != 0)
            return err_printf(err, errlen, "%s field %zu %s: %s", d->name, i + 1, d->fields[i].name, ferr);
    }
    out->type = t;
    out->version = version;
    return 0;
}

int msg_decode(const void *data, size_t len, msg_t *out, const msg_bulk_t *bulk, char *err, size_t errlen)
{
    s_store_t st = {bulk != NULL && bulk->cap > 0 ? bulk->buf : NULL, bulk != NULL ? bulk->cap : 0, 0};
    msg_init(out, MSG_NONE);
    if (errlen > 0)
        err[0] = '\0';
    if (len > MSG_MAX_BYTES)
        return err_printf(err, errlen, "message of %zu bytes exceeds %d", len, MSG_MAX_BYTES);
    if (len == 0)
        return err_printf(err, errlen, "empty message");
    if (msg_scan(data, len, err, errlen) != 0)
        return MSG_EBADMSG;
    msgpack_unpacked up;
    msgpack_unpacked_init(&up);
    size_t off = 0;
    int rc = MSG_EBADMSG;
    msgpack_unpack_return ur = msgpack_unpack_next(&up, data, len, &off);
    if (ur != MSGPACK_UNPACK_SUCCESS || off != len)
        err_printf(err, errlen, "MessagePack unpack failed (%d) at byte %zu", (int)ur, off);
    else
        rc = s_decode_root(&up.data, out, &st, err, errlen);
    msgpack_unpacked_destroy(&up);
    if (rc != MSG_OK) {
        msg_init(out, MSG_NONE);
        return rc == MSG_EVERSION ? MSG_EVERSION : MSG_EBADMSG;
    }
    return MSG_OK;
}
