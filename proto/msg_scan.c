/* msg_scan.c: structural pre-check of MessagePack input, so msgpack-c never allocates for sizes the input cannot hold. */
#include "msg_scan.h"
#include "msg_table.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

/* What one MessagePack header says comes after it. */
typedef struct {
    size_t header; /* bytes of the header itself, including the type byte */
    size_t width;  /* bytes of the big-endian length/count following the type byte */
    uint64_t body; /* payload bytes after the header (fixed or read from width) */
    bool container;
    bool is_map;
} s_head_t;

/* Classifies type byte b; returns -1 for the never-used byte 0xc1. */
static int s_classify(uint8_t b, s_head_t *h)
{
    *h = (s_head_t){1, 0, 0, false, false};
    if (b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3)
        return 0;
    if (b <= 0x8f) {
        *h = (s_head_t){1, 0, (uint64_t)(b & 0x0f), true, true};
        return 0;
    }
    if (b <= 0x9f) {
        *h = (s_head_t){1, 0, (uint64_t)(b & 0x0f), true, false};
        return 0;
    }
    if (b <= 0xbf) {
        h->body = b & 0x1f;
        return 0;
    }
    switch (b) {
    case 0xc4: case 0xd9: h->width = 1; break;           /* bin8, str8 */
    case 0xc5: case 0xda: h->width = 2; break;           /* bin16, str16 */
    case 0xc6: case 0xdb: h->width = 4; break;           /* bin32, str32 */
    case 0xc7: h->width = 1; h->header = 2; break;       /* ext8: + type byte */
    case 0xc8: h->width = 2; h->header = 2; break;       /* ext16 */
    case 0xc9: h->width = 4; h->header = 2; break;       /* ext32 */
    case 0xca: h->body = 4; break;                       /* float32 */
    case 0xcb: h->body = 8; break;                       /* float64 */
    case 0xcc: case 0xd0: h->body = 1; break;            /* (u)int8 */
    case 0xcd: case 0xd1: h->body = 2; break;
    case 0xce: case 0xd2: h->body = 4; break;
    case 0xcf: case 0xd3: h->body = 8; break;
    case 0xd4: h->body = 2; break;                       /* fixext1: type + 1 */
    case 0xd5: h->body = 3; break;
    case 0xd6: h->body = 5; break;
    case 0xd7: h->body = 9; break;
    case 0xd8: h->body = 17; break;
    case 0xdc: h->width = 2; h->container = true; break; /* array16 */
    case 0xdd: h->width = 4; h->container = true; break; /* array32 */
    case 0xde: h->width = 2; h->container = h->is_map = true; break;
    case 0xdf: h->width = 4; h->container = h->is_map = true; break;
    default: return -1;
    }
    h->header += h->width;
    return 0;
}

/* Reads one header at *pos, advancing *pos past it; fills h (body = count or payload size). */
static int s_read_head(const uint8_t *p, size_t len, size_t *pos, s_head_t *h, char *err, size_t errlen)
{
    size_t at = *pos;
    if (at >= len)
        return err_printf(err, errlen, "truncated at byte %zu: value expected", at);
    if (s_classify(p[at], h) != 0)
        return err_printf(err, errlen, "byte %zu: invalid MessagePack type 0xc1", at);
    if (h->header > len - at)
        return err_printf(err, errlen, "truncated at byte %zu: header of %zu bytes", at, h->header);
    for (size_t i = 0; i < h->width; i++)
        h->body = (h->body << 8) | p[at + 1 + i];
    *pos = at + h->header;
    return 0;
}

int msg_scan(const uint8_t *data, size_t len, char *err, size_t errlen)
{
    uint64_t pending[MSG_SCAN_DEPTH_MAX + 1];
    int depth = 0;
    size_t pos = 0;
    pending[0] = 1;
    while (depth >= 0) {
        if (pending[depth] == 0) {
            depth--;
            continue;
        }
        pending[depth]--;
        size_t start = pos;
        s_head_t h = {0, 0, 0, false, false};
        if (s_read_head(data, len, &pos, &h, err, errlen) != 0)
            return -1;
        uint64_t items = h.is_map ? 2 * h.body : h.body;
        if (!h.container) {
            if (h.body > len - pos)
                return err_printf(err, errlen, "truncated at byte %zu: %llu payload bytes, %zu left", start,
                              (unsigned long long)h.body, len - pos);
            pos += (size_t)h.body;
        } else if (items > 0) {
            if (items > len - pos)
                return err_printf(err, errlen, "truncated at byte %zu: %llu elements, %zu bytes left", start,
                              (unsigned long long)items, len - pos);
            if (depth + 1 > MSG_SCAN_DEPTH_MAX)
                return err_printf(err, errlen, "byte %zu: containers nested deeper than %d", start,
                              MSG_SCAN_DEPTH_MAX);
            pending[++depth] = items;
        }
    }
    if (pos != len)
        return err_printf(err, errlen, "%zu trailing bytes after the message", len - pos);
    return 0;
}
