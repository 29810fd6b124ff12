/* verify_fixup.c: see verify_fixup.h (uses the verifier's CRC-32C). */
#include "verify_fixup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vt_blocks.h"
#include "vt_crc.h"

static uint32_t s_le32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void s_put32(uint8_t *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

uint32_t verify_fixup_rec(int code, int dtz, int dtm)
{
    return (uint32_t)code | (uint32_t)dtz << 3 | (uint32_t)dtm << 16;
}

int verify_fixup_record(const char *path, uint64_t slot, uint32_t rec)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = n >= 128 ? malloc((size_t)n) : NULL;
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(buf);
        return -1;
    }
    fclose(f);
    uint32_t nslices = s_le32(buf + 20);
    size_t head = 128 + 16 * (size_t)nslices;
    if (s_le32(buf + 8) == 2) { /* decode, and go on with a version-1 image */
        uint64_t nr = s_le32(buf + 24) | (uint64_t)s_le32(buf + 28) << 32;
        uint8_t *recs, *img;
        char err[256];
        if (vt_blocks_decode(buf + head, (size_t)n - head, nr, &recs, err, sizeof err) < 0
            || !(img = malloc(head + 4 * nr))) {
            free(buf);
            return -1;
        }
        memcpy(img, buf, head);
        memcpy(img + head, recs, 4 * nr);
        free(recs);
        free(buf);
        buf = img;
        n = (long)(head + 4 * nr);
        s_put32(buf + 8, 1);
    }
    uint8_t *records = buf + head;
    uint64_t nrec = ((uint64_t)n - head) / 4, counts[8] = {0};
    s_put32(records + 4 * slot, rec);
    uint32_t max_dtz = 0, max_dtm = 0;
    for (uint64_t i = 0; i < nrec; i++) {
        uint32_t r = s_le32(records + 4 * i);
        counts[r & 7]++;
        if ((r & 7) <= 4) {
            max_dtz = ((r >> 3) & 0x1FFF) > max_dtz ? (r >> 3) & 0x1FFF : max_dtz;
            max_dtm = (r >> 16) > max_dtm ? r >> 16 : max_dtm;
        }
    }
    for (int c = 0; c < 8; c++) {
        s_put32(buf + 32 + 8 * c, (uint32_t)counts[c]);
        s_put32(buf + 36 + 8 * c, (uint32_t)(counts[c] >> 32));
    }
    s_put32(buf + 96, max_dtz);
    s_put32(buf + 100, max_dtm);
    s_put32(buf + 104, vt_crc32c(0, buf + 128, (size_t)n - 128));
    s_put32(buf + 124, vt_crc32c(0, buf, 124));
    f = fopen(path, "wb");
    int rc = f && fwrite(buf, 1, (size_t)n, f) == (size_t)n ? 0 : -1;
    if (f && fclose(f) != 0)
        rc = -1;
    free(buf);
    return rc;
}
