/* msg_encode.c: table-driven MessagePack encoder of OCTP messages into a caller's buffer. */
#include <msgpack.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "msg.h"
#include "msg_table.h"

/* The packer's destination: a fixed buffer that refuses to overflow. */
typedef struct {
    char *buf;
    size_t cap;
    size_t len;
} s_sink_t;

static int s_sink_write(void *data, const char *src, size_t n)
{
    s_sink_t *sink = data;
    if (n > sink->cap - sink->len)
        return -1;
    memcpy(sink->buf + sink->len, src, n);
    sink->len += n;
    return 0;
}

static uint64_t s_read_uint(const msg_t *msg, const field_desc_t *f)
{
    const char *p = (const char *)msg + f->offset;
    switch (f->kind) {
    case FIELD_U8: return *(const uint8_t *)p;
    case FIELD_U32: return *(const uint32_t *)p;
    default: return *(const uint64_t *)p;
    }
}

static int s_pack_count(msgpack_packer *pk, const count_t *c)
{
    if (msgpack_pack_array(pk, 2) != 0)
        return -1;
    if (msgpack_pack_uint64(pk, (uint64_t)(*c >> 64)) != 0)
        return -1;
    return msgpack_pack_uint64(pk, (uint64_t)*c);
}

static int s_pack_str(msgpack_packer *pk, const char *s, size_t n)
{
    if (msgpack_pack_str(pk, n) != 0)
        return -1;
    return msgpack_pack_str_body(pk, s, n);
}

/* Length of the string in a cap-byte buffer, or -1 if it has no NUL. */
static long s_strlen(const char *s, size_t cap)
{
    const char *nul = memchr(s, '\0', cap);
    return nul ? (long)(nul - s) : -1;
}

/* The n elements of list or bin field f, or NULL with a message if a bulk field has elements and no pointer. */
static const void *s_elems(const msg_t *msg, const field_desc_t *f, uint32_t n, char *err, size_t errlen)
{
    const void *base = msg_field_elems(msg, f);
    if (base == NULL && n > 0)
        err_printf(err, errlen, "%s: %u elements and no pointer to them", f->name, n);
    return base != NULL || n > 0 ? base : (const void *)"";
}

static int s_pack_list(msgpack_packer *pk, const msg_t *msg, const field_desc_t *f, char *err, size_t errlen)
{
    uint32_t n = *(const uint32_t *)((const char *)msg + f->count_offset);
    if (n < f->min || n > f->max)
        return err_printf(err, errlen, "%s: %u elements, allowed %llu..%llu", f->name, n,
                      (unsigned long long)f->min, (unsigned long long)f->max);
    const char *base = s_elems(msg, f, n, err, errlen);
    if (base == NULL)
        return -1;
    if (msgpack_pack_array(pk, n) != 0)
        return err_printf(err, errlen, "%s: output buffer too small", f->name);
    for (uint32_t i = 0; i < n; i++) {
        int rc;
        if (f->kind == FIELD_U64_LIST) {
            uint64_t v;
            memcpy(&v, base + (size_t)i * sizeof v, sizeof v);
            if (v < f->elem_min)
                return err_printf(err, errlen, "%s[%u]: %llu below minimum %llu", f->name, i,
                              (unsigned long long)v, (unsigned long long)f->elem_min);
            rc = msgpack_pack_uint64(pk, v);
        } else {
            const char *s = base + (size_t)i * f->cap;
            long sl = s_strlen(s, f->cap);
            if (sl < 1)
                return err_printf(err, errlen, "%s[%u]: %s", f->name, i, sl < 0 ? "not terminated" : "empty");
            rc = s_pack_str(pk, s, (size_t)sl);
        }
        if (rc != 0)
            return err_printf(err, errlen, "%s: output buffer too small", f->name);
    }
    return 0;
}

static int s_pack_stats(msgpack_packer *pk, const msg_t *msg, const field_desc_t *f)
{
    const char *stats = (const char *)msg + f->offset;
    if (!*((const char *)msg + f->count_offset))
        return msgpack_pack_nil(pk);
    if (msgpack_pack_array(pk, MSG_STATS_NB) != 0)
        return -1;
    for (int i = 0; i < MSG_STATS_NB; i++)
        if (s_pack_count(pk, (const count_t *)(stats + msg_stats_offsets[i])) != 0)
            return -1;
    return 0;
}

static int s_pack_tables(msgpack_packer *pk, const msg_t *msg, const field_desc_t *f, char *err, size_t errlen)
{
    uint32_t n = *(const uint32_t *)((const char *)msg + f->count_offset);
    if (n < f->min || n > f->max)
        return err_printf(err, errlen, "%s: %u tables, allowed %llu..%llu", f->name, n, (unsigned long long)f->min,
                          (unsigned long long)f->max);
    const msg_tableref_t *t = s_elems(msg, f, n, err, errlen);
    if (t == NULL)
        return -1;
    if (msgpack_pack_array(pk, n) != 0)
        return err_printf(err, errlen, "%s: output buffer too small", f->name);
    for (uint32_t i = 0; i < n; i++) {
        long sl = s_strlen(t[i].name, sizeof t[i].name);
        if (sl < 1)
            return err_printf(err, errlen, "%s[%u]: name %s", f->name, i, sl < 0 ? "not terminated" : "empty");
        if (msgpack_pack_array(pk, 3) != 0 || s_pack_str(pk, t[i].name, (size_t)sl) != 0 ||
            msgpack_pack_uint64(pk, t[i].size) != 0 || msgpack_pack_uint64(pk, t[i].crc) != 0)
            return err_printf(err, errlen, "%s: output buffer too small", f->name);
    }
    return 0;
}

static int s_pack_bin(msgpack_packer *pk, const msg_t *msg, const field_desc_t *f, char *err, size_t errlen)
{
    uint32_t n = *(const uint32_t *)((const char *)msg + f->count_offset);
    if (n < f->min || n > f->max)
        return err_printf(err, errlen, "%s: %u bytes, allowed %llu..%llu", f->name, n, (unsigned long long)f->min,
                          (unsigned long long)f->max);
    const char *data = s_elems(msg, f, n, err, errlen);
    if (data == NULL)
        return -1;
    if (msgpack_pack_bin(pk, n) != 0 || msgpack_pack_bin_body(pk, data, n) != 0)
        return err_printf(err, errlen, "%s: output buffer too small", f->name);
    return 0;
}

static int s_pack_field(msgpack_packer *pk, const msg_t *msg, const field_desc_t *f, char *err, size_t errlen)
{
    const char *p = (const char *)msg + f->offset;
    int rc = 0;
    switch (f->kind) {
    case FIELD_U8:
    case FIELD_U32:
    case FIELD_U64: {
        uint64_t v = s_read_uint(msg, f);
        if (v < f->min || v > f->max)
            return err_printf(err, errlen, "%s: %llu outside %llu..%llu", f->name, (unsigned long long)v,
                          (unsigned long long)f->min, (unsigned long long)f->max);
        rc = msgpack_pack_uint64(pk, v);
        break;
    }
    case FIELD_BOOL: rc = *(const unsigned char *)p ? msgpack_pack_true(pk) : msgpack_pack_false(pk); break;
    case FIELD_STR: {
        long sl = s_strlen(p, f->cap);
        if (sl < 0)
            return err_printf(err, errlen, "%s: not terminated within %zu bytes", f->name, f->cap);
        if ((uint64_t)sl < f->min)
            return err_printf(err, errlen, "%s: empty", f->name);
        rc = s_pack_str(pk, p, (size_t)sl);
        break;
    }
    case FIELD_STR_LIST:
    case FIELD_U64_LIST: return s_pack_list(pk, msg, f, err, errlen);
    case FIELD_COUNT: rc = s_pack_count(pk, (const count_t *)p); break;
    case FIELD_STATS: rc = s_pack_stats(pk, msg, f); break;
    case FIELD_BIN: return s_pack_bin(pk, msg, f, err, errlen);
    case FIELD_TABLES: return s_pack_tables(pk, msg, f, err, errlen);
    case FIELD_I32: {
        int32_t v = *(const int32_t *)p;
        if (v < f->imin || v > f->imax)
            return err_printf(err, errlen, "%s: %d outside %lld..%lld", f->name, (int)v, (long long)f->imin,
                              (long long)f->imax);
        rc = msgpack_pack_int32(pk, v);
        break;
    }
    }
    return rc == 0 ? 0 : err_printf(err, errlen, "%s: output buffer too small", f->name);
}

int msg_encode(const msg_t *msg, void *buf, size_t cap, size_t *len, char *err, size_t errlen)
{
    return msg_encode_as(msg, 0, buf, cap, len, err, errlen);
}

int msg_encode_as(const msg_t *msg, uint32_t version, void *buf, size_t cap, size_t *len, char *err, size_t errlen)
{
    const msg_desc_t *d = msg_table_get(msg->type);
    if (d == NULL)
        return err_printf(err, errlen, "cannot encode message type %d", (int)msg->type);
    if (version == 0)
        version = msg->version != 0 ? msg->version : d->since;
    if (version < MSG_VERSION_MIN || version > MSG_VERSION_MAX || version < d->since)
        return err_printf(err, errlen, "%s: cannot be sent as %s/%u", d->name, MSG_PROTOCOL_NAME, version);
    s_sink_t sink = {buf, cap < MSG_MAX_BYTES ? cap : MSG_MAX_BYTES, 0};
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sink, s_sink_write);
    if (msgpack_pack_array(&pk, 3 + d->n_fields) != 0 || s_pack_str(&pk, MSG_PROTOCOL_NAME, 4) != 0 ||
        msgpack_pack_uint64(&pk, version) != 0 || s_pack_str(&pk, d->name, strlen(d->name)) != 0)
        return err_printf(err, errlen, "%s: output buffer too small", d->name);
    for (size_t i = 0; i < d->n_fields; i++) {
        char ferr[200];
        if (s_pack_field(&pk, msg, &d->fields[i], ferr, sizeof(ferr)) != 0)
            return err_printf(err, errlen, "%s field %zu %s", d->name, i + 1, ferr);
    }
    *len = sink.len;
    return 0;
}
