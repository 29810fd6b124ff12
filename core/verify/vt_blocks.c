/* vt_blocks.c: decoding the compressed records of a version-2 table file. */
#include "vt_blocks.h"

#include <stdio.h>
#include <stdlib.h>
#include <zstd.h>

#include "vt_crc.h"

enum { BLOCK_RECORDS = 65536, HEAD = 16 };

static uint32_t s_u32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint64_t s_u64(const uint8_t *b) { return s_u32(b) | (uint64_t)s_u32(b + 4) << 32; }

/* Checks the 16-byte header and the offsets; the frames' total size, or
 * UINT64_MAX with a message. */
static uint64_t s_frames(const uint8_t *p, size_t len, uint64_t blocks, char *err, size_t errlen)
{
    if (len < HEAD || (len - HEAD) / 8 < blocks + 1) {
        snprintf(err, errlen, "truncated: %zu bytes after the directory cannot hold %llu block offsets", len,
                 (unsigned long long)blocks + 1);
        return UINT64_MAX;
    }
    if (s_u32(p) != 16 || s_u32(p + 4) != blocks || s_u32(p + 8) != 1) {
        snprintf(err, errlen, "block header: shift %u, %u blocks, codec %u (want 16, %llu, 1 = zstd)", s_u32(p),
                 s_u32(p + 4), s_u32(p + 8), (unsigned long long)blocks);
        return UINT64_MAX;
    }
    size_t olen = 8 * (size_t)(blocks + 1);
    uint32_t crc = vt_crc32c(vt_crc32c(0, p, 12), p + HEAD, olen);
    if (crc != s_u32(p + 12)) {
        snprintf(err, errlen, "block header checksum mismatch (stored %08x, computed %08x)", s_u32(p + 12), crc);
        return UINT64_MAX;
    }
    uint64_t last = 0;
    for (uint64_t b = 0; b <= blocks; b++) {
        uint64_t o = s_u64(p + HEAD + 8 * b);
        if ((b == 0 && o != 0) || o < last) {
            snprintf(err, errlen, "block offset %llu (%llu) is out of order", (unsigned long long)b,
                     (unsigned long long)o);
            return UINT64_MAX;
        }
        last = o;
    }
    if (last != len - HEAD - olen) {
        snprintf(err, errlen, "the frames end at %llu, the file holds %zu bytes of frames",
                 (unsigned long long)last, len - HEAD - olen);
        return UINT64_MAX;
    }
    return last;
}

int vt_blocks_decode(const uint8_t *p, size_t len, uint64_t n, uint8_t **out, char *err, size_t errlen)
{
    *out = NULL;
    uint64_t blocks = (n + BLOCK_RECORDS - 1) / BLOCK_RECORDS;
    if (s_frames(p, len, blocks, err, errlen) == UINT64_MAX)
        return -1;
    uint8_t *buf = malloc(n ? 4 * n : 1);
    if (!buf) {
        snprintf(err, errlen, "out of memory for %llu records", (unsigned long long)n);
        return -1;
    }
    const uint8_t *frames = p + HEAD + 8 * (blocks + 1);
    for (uint64_t b = 0; b < blocks; b++) {
        uint64_t from = s_u64(p + HEAD + 8 * b), to = s_u64(p + HEAD + 8 * (b + 1));
        uint64_t recs = b + 1 < blocks ? BLOCK_RECORDS : n - b * BLOCK_RECORDS;
        size_t got = ZSTD_decompress(buf + 4 * b * BLOCK_RECORDS, 4 * recs, frames + from, to - from);
        if (ZSTD_isError(got) || got != 4 * recs) {
            snprintf(err, errlen, "block %llu: %s", (unsigned long long)b,
                     ZSTD_isError(got) ? ZSTD_getErrorName(got) : "frame holds too few records");
            free(buf);
            return -1;
        }
    }
    *out = buf;
    return 0;
}
