/* tbblocks.c: zstd blocks of records. */
#include "tbblocks.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "crc32c.h"
#include "le.h"


static uint64_t s_nblocks(uint64_t n) { return (n + (1u << TBBLOCK_SHIFT) - 1) >> TBBLOCK_SHIFT; }

void tbblocks_free(tbblocks_t *b)
{
    free(b->bytes);
    b->bytes = NULL;
    b->len = 0;
}

int tbblocks_pack(const rec_t *recs, uint64_t n, tbblocks_t *out, char *err, size_t errlen)
{
    uint64_t nb = s_nblocks(n);
    size_t block = (size_t)1 << TBBLOCK_SHIFT, bound = ZSTD_compressBound(block * sizeof(rec_t));
    size_t head = TBBLOCK_HEADER + 8 * (size_t)(nb + 1), cap = head + bound * (size_t)(nb ? nb : 1);
    /* Frames are ~1/10 of the records: grow from a guess rather than reserve the bound. */
    size_t guess = head + (size_t)(n * sizeof(rec_t) / 4) + bound;
    out->len = 0;
    out->bytes = malloc(guess < cap ? guess : cap);
    size_t have = guess < cap ? guess : cap;
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    if (!out->bytes || !cc) {
        ZSTD_freeCCtx(cc);
        tbblocks_free(out);
        snprintf(err, errlen, "out of memory compressing %llu records", (unsigned long long)n);
        return -1;
    }
    ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 1);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 1);
    size_t at = head;
    for (uint64_t b = 0; b < nb; b++) {
        le_put64(out->bytes + TBBLOCK_HEADER + 8 * b, at - head);
        if (have - at < bound) {
            size_t want = have * 2 > at + bound ? have * 2 : at + bound;
            unsigned char *nbuf = realloc(out->bytes, want);
            if (!nbuf) {
                ZSTD_freeCCtx(cc);
                tbblocks_free(out);
                snprintf(err, errlen, "out of memory compressing %llu records", (unsigned long long)n);
                return -1;
            }
            out->bytes = nbuf;
            have = want;
        }
        uint64_t first = b << TBBLOCK_SHIFT, count = n - first < block ? n - first : block;
        size_t z = ZSTD_compress2(cc, out->bytes + at, have - at, recs + first, (size_t)count * sizeof(rec_t));
        if (ZSTD_isError(z)) {
            snprintf(err, errlen, "block %llu: zstd: %s", (unsigned long long)b, ZSTD_getErrorName(z));
            ZSTD_freeCCtx(cc);
            tbblocks_free(out);
            return -1;
        }
        at += z;
    }
    ZSTD_freeCCtx(cc);
    le_put64(out->bytes + TBBLOCK_HEADER + 8 * nb, at - head);
    le_put32(out->bytes, TBBLOCK_SHIFT);
    le_put32(out->bytes + 4, (uint32_t)nb);
    le_put32(out->bytes + 8, TBBLOCK_CODEC_ZSTD);
    uint32_t crc = crc32c(0, out->bytes, 12);
    le_put32(out->bytes + 12, crc32c(crc, out->bytes + TBBLOCK_HEADER, 8 * (size_t)(nb + 1)));
    out->len = at;
    return 0;
}

uint64_t tbblocks_check(const unsigned char *p, size_t len, uint64_t n, char *err, size_t errlen)
{
    uint64_t nb = s_nblocks(n);
    if (len < TBBLOCK_HEADER) {
        snprintf(err, errlen, "truncated block header");
        return 0;
    }
    if (le_get32(p) != TBBLOCK_SHIFT || le_get32(p + 4) != nb || le_get32(p + 8) != TBBLOCK_CODEC_ZSTD) {
        snprintf(err, errlen, "block header says shift %u, %u blocks, codec %u; expected %d, %llu, %d",
                 le_get32(p), le_get32(p + 4), le_get32(p + 8), TBBLOCK_SHIFT, (unsigned long long)nb,
                 TBBLOCK_CODEC_ZSTD);
        return 0;
    }
    size_t head = TBBLOCK_HEADER + 8 * (size_t)(nb + 1);
    if (len < head) {
        snprintf(err, errlen, "truncated block offsets");
        return 0;
    }
    if (crc32c(crc32c(0, p, 12), p + TBBLOCK_HEADER, head - TBBLOCK_HEADER) != le_get32(p + 12)) {
        snprintf(err, errlen, "block header checksum mismatch (the file is corrupted)");
        return 0;
    }
    uint64_t prev = 0;
    for (uint64_t b = 0; b <= nb; b++) {
        uint64_t o = le_get64(p + TBBLOCK_HEADER + 8 * b);
        if ((b == 0 && o != 0) || o < prev) {
            snprintf(err, errlen, "block %llu: offset %llu out of order", (unsigned long long)b,
                     (unsigned long long)o);
            return 0;
        }
        prev = o;
    }
    return head + prev;
}

uint64_t tbblocks_span(const unsigned char *p, size_t len, uint64_t n)
{
    char err[128];
    return tbblocks_check(p, len, n, err, sizeof err);
}

/* Decompresses block b's frame (flen bytes) with dc into `count` records
 * at `to`, checking the frame's declared size and its checksum. */
static int s_decode(ZSTD_DCtx *dc, const unsigned char *frame, size_t flen, uint64_t b, uint64_t count, rec_t *to,
                    char *err, size_t errlen)
{
    size_t want = (size_t)count * sizeof(rec_t);
    unsigned long long size = ZSTD_getFrameContentSize(frame, flen);
    if (size != want) {
        snprintf(err, errlen, "block %llu: frame holds %lld bytes, not %zu", (unsigned long long)b,
                 size >= ZSTD_CONTENTSIZE_ERROR ? -1LL : (long long)size, want);
        return -1;
    }
    /* RFC 8878: bit 2 of the frame header descriptor (after the 4-byte magic)
     * says the frame ends with a checksum of its content; every frame is
     * written with one, and a reader that checks nothing else at open
     * (tbsource's quick check) relies on it. */
    if (flen < 5 || !(frame[4] & 0x04)) {
        snprintf(err, errlen, "block %llu: frame without a content checksum (corrupted)", (unsigned long long)b);
        return -1;
    }
    size_t z = ZSTD_decompressDCtx(dc, to, want, frame, flen);
    if (ZSTD_isError(z) || z != want) {
        snprintf(err, errlen, "block %llu: corrupted records (zstd: %s); regenerate the table", (unsigned long long)b,
                 ZSTD_isError(z) ? ZSTD_getErrorName(z) : "short frame");
        return -1;
    }
    return 0;
}

/* Decompresses every block into out (or, out NULL, one block at a time into
 * a buffer of its own) and, crc given, extends *crc over the records. */
static int s_unpack(const unsigned char *p, size_t len, uint64_t n, rec_t *out, uint32_t *crc, char *err,
                    size_t errlen)
{
    uint64_t span = tbblocks_check(p, len, n, err, errlen);
    if (!span)
        return -1;
    if (span != len) {
        snprintf(err, errlen, "the blocks take %llu bytes, the file has %zu after the directory: truncated?",
                 (unsigned long long)span, len);
        return -1;
    }
    uint64_t nb = s_nblocks(n);
    const unsigned char *frames = p + TBBLOCK_HEADER + 8 * (size_t)(nb + 1);
    ZSTD_DCtx *dc = ZSTD_createDCtx();
    rec_t *tmp = out ? NULL : malloc(sizeof(rec_t) << TBBLOCK_SHIFT);
    if (!dc || (!out && !tmp)) {
        ZSTD_freeDCtx(dc);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    for (uint64_t b = 0; b < nb && rc == 0; b++) {
        uint64_t o = le_get64(p + TBBLOCK_HEADER + 8 * b), e = le_get64(p + TBBLOCK_HEADER + 8 * (b + 1));
        uint64_t count = tbblocks_count(n, b);
        rec_t *to = out ? out + (b << TBBLOCK_SHIFT) : tmp;
        rc = s_decode(dc, frames + o, (size_t)(e - o), b, count, to, err, errlen);
        if (rc == 0 && crc)
            *crc = crc32c(*crc, to, (size_t)count * sizeof(rec_t));
    }
    ZSTD_freeDCtx(dc);
    free(tmp);
    return rc;
}

/* The calling thread's decompression context (freed when the thread ends). */
static pthread_key_t s_dctx_key;
static pthread_once_t s_dctx_once = PTHREAD_ONCE_INIT;

static void s_dctx_free(void *dc) { ZSTD_freeDCtx(dc); }

static void s_dctx_init(void) { pthread_key_create(&s_dctx_key, s_dctx_free); }

int tbblocks_decode(const unsigned char *frame, size_t flen, uint64_t b, uint64_t count, rec_t *out, char *err,
                    size_t errlen)
{
    pthread_once(&s_dctx_once, s_dctx_init);
    ZSTD_DCtx *dc = pthread_getspecific(s_dctx_key);
    if (!dc && (!(dc = ZSTD_createDCtx()) || pthread_setspecific(s_dctx_key, dc) != 0)) {
        ZSTD_freeDCtx(dc);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return s_decode(dc, frame, flen, b, count, out, err, errlen);
}

uint64_t tbblocks_count(uint64_t n, uint64_t b)
{
    uint64_t first = b << TBBLOCK_SHIFT;
    return n - first < (1u << TBBLOCK_SHIFT) ? n - first : 1u << TBBLOCK_SHIFT;
}

int tbblocks_unpack(const unsigned char *p, size_t len, uint64_t n, rec_t *out, char *err, size_t errlen)
{
    return s_unpack(p, len, n, out, NULL, err, errlen);
}

int tbblocks_crc(const unsigned char *p, size_t len, uint64_t n, uint32_t *crc, char *err, size_t errlen)
{
    return s_unpack(p, len, n, NULL, crc, err, errlen);
}
