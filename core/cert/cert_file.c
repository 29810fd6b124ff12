/* cert_file.c: a certificate's bytes: header lines, checksum over header and body, zstd. */
#include "cert_file.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

enum { CERT_ZSTD_LEVEL = 19 };

static uint64_t s_fnv(uint64_t h, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static int s_err(char *err, size_t len, const char *what, const char *path)
{
    snprintf(err, len, "%s: %s", path, what);
    return -1;
}

int cert_write(const char *path, const cert_doc_t *d, size_t *bytes, char hex[17], char *err, size_t errlen)
{
    size_t total = 0;
    for (int s = 0; s < d->nsections; s++)
        total += d->count[s];
    uint8_t *body = malloc(total * CERT_REC_BYTES + 1);
    size_t zcap = ZSTD_compressBound(total * CERT_REC_BYTES);
    uint8_t *z = malloc(zcap);
    if (!body || !z) {
        free(body), free(z);
        return s_err(err, errlen, "out of memory", path);
    }
    uint8_t *at = body;
    for (int s = 0; s < d->nsections; s++)
        for (size_t i = 0; i < d->count[s]; i++, at += CERT_REC_BYTES)
            cert_rec_bytes(&d->recs[s][i], at);
    size_t zn = ZSTD_compress(z, zcap, body, total * CERT_REC_BYTES, CERT_ZSTD_LEVEL);
    if (ZSTD_isError(zn)) {
        free(body), free(z);
        return s_err(err, errlen, "zstd could not compress the body", path);
    }
    char head[1024];
    int n = snprintf(head, sizeof head, "octad-certificate 1\nstart %s\nclaim %s\n", d->start, d->claim);
    for (int s = 0; s < d->nsections; s++)
        n += snprintf(head + n, sizeof head - (size_t)n, "count %s %zu\n", d->name[s], d->count[s]);
    n += snprintf(head + n, sizeof head - (size_t)n, "body zstd %zu\n", zn);
    uint64_t sum = s_fnv(s_fnv(0xcbf29ce484222325ull, (const uint8_t *)head, (size_t)n), body, total * CERT_REC_BYTES);
    snprintf(hex, 17, "%016llx", (unsigned long long)sum);
    n += snprintf(head + n, sizeof head - (size_t)n, "checksum %s\n", hex);
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    int ok = f && fwrite(head, 1, (size_t)n, f) == (size_t)n && fwrite(z, 1, zn, f) == zn;
    ok = f && fclose(f) == 0 && ok;
    free(body), free(z);
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        return s_err(err, errlen, "cannot write the file", path);
    }
    *bytes = (size_t)n + zn;
    return 0;
}
