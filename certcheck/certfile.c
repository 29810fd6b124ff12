/* certfile.c: a certificate file read whole, its header parsed strictly, its body
 * decompressed and checked for size, checksum and strict order before any proof begins. */
#include "certfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "record.h"

/* err = what: detail, the detail's bytes outside printable ASCII shown as '?' (it may be
 * a damaged header line). Returns -1. */
static int s_fail(char *err, int len, const char *what, const char *detail)
{
    char clean[96] = "";
    for (size_t i = 0; detail && detail[i] && i + 1 < sizeof clean; i++)
        clean[i] = detail[i] >= 32 && detail[i] < 127 ? detail[i] : '?', clean[i + 1] = '\0';
    snprintf(err, (size_t)len, "%s%s%s", what, detail ? ": " : "", clean);
    return -1;
}

static uint64_t s_fnv(uint64_t h, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

/* The next header line (without its \n) into line; NULL at the end of data. */
static const char *s_line(const uint8_t *data, size_t size, size_t *at, char *line, size_t cap)
{
    size_t i = *at, n = 0;
    while (i < size && data[i] != '\n' && n + 1 < cap)
        line[n++] = (char)data[i++];
    if (i >= size || data[i] != '\n')
        return NULL;
    line[n] = '\0';
    *at = i + 1;
    return line;
}

/* Parses the header into c; *at ends past it, *zsize is B, *sum the FNV state over the header
 * bytes before the checksum line, hex the checksum's digits. */
static int s_header(cc_cert_t *c, const uint8_t *data, size_t size, size_t *at, size_t *zsize,
                    uint64_t *sum, char *hex, char *err, int len)
{
    char line[256], perr[160];
    int used = -1;
    unsigned long long n;
    if (!s_line(data, size, at, line, sizeof line) || strcmp(line, "octad-certificate 1"))
        return s_fail(err, len, "header line 1: not `octad-certificate 1` (not a certificate, or another version)", NULL);
    if (!s_line(data, size, at, line, sizeof line) || strncmp(line, "start ", 6))
        return s_fail(err, len, "header line 2: not `start OFEN`", NULL);
    snprintf(c->start_text, sizeof c->start_text, "%s", line + 6);
    if (cc_parse_ofen(c->start_text, &c->start, perr, sizeof perr))
        return s_fail(err, len, "header line 2 (start)", perr);
    if (!s_line(data, size, at, line, sizeof line) || strncmp(line, "claim ", 6))
        return s_fail(err, len, "header line 3: not `claim C`", NULL);
    const char *claims[] = {"draw", "white-wins", "black-wins"};
    c->claim = -1;
    for (int i = 0; i < 3; i++)
        if (!strcmp(line + 6, claims[i]))
            c->claim = i;
    if (c->claim < 0)
        return s_fail(err, len, "header line 3 (claim): not draw, white-wins or black-wins", NULL);
    c->nsections = c->claim == CC_CLAIM_DRAW ? 2 : 1;
    const char *names[] = {c->claim == CC_CLAIM_DRAW ? "white" : "nodes", "black"};
    for (int s = 0; s < c->nsections; s++) {
        char want[32];
        snprintf(want, sizeof want, "count %s %%llu%%n", names[s]);
        used = -1;
        if (!s_line(data, size, at, line, sizeof line) || sscanf(line, want, &n, &used) != 1 ||
            used != (int)strlen(line) || n > (1ull << 32))
            return s_fail(err, len, "header: a `count` line missing, misnamed or out of range for this claim", line);
        snprintf(c->name[s], sizeof c->name[s], "%s", names[s]);
        c->count[s] = (size_t)n;
    }
    used = -1;
    if (!s_line(data, size, at, line, sizeof line) || sscanf(line, "body zstd %llu%n", &n, &used) != 1 ||
        used != (int)strlen(line))
        return s_fail(err, len, "header: not `body zstd B`", line);
    *zsize = (size_t)n;
    *sum = s_fnv(0xcbf29ce484222325ull, data, *at);
    if (!s_line(data, size, at, line, sizeof line) || sscanf(line, "checksum %16[0-9a-f]%n", hex, &used) != 1 ||
        used != (int)strlen(line) || strlen(hex) != 16)
        return s_fail(err, len, "header: not `checksum H` with 16 hex digits", line);
    return 0;
}

static int s_body(cc_cert_t *c, const uint8_t *z, size_t zsize, uint64_t sum, const char *hex,
                  char *err, int len)
{
    size_t records = 0;
    for (int s = 0; s < c->nsections; s++)
        records += c->count[s];
    size_t want = records * CC_REC_BYTES;
    unsigned long long framed = ZSTD_getFrameContentSize(z, zsize);
    if (framed == ZSTD_CONTENTSIZE_ERROR || (framed != ZSTD_CONTENTSIZE_UNKNOWN && framed != want))
        return s_fail(err, len, "body: not zstd data of 16 bytes per counted record (damaged, or counts wrong)", NULL);
    c->body = malloc(want + 1);
    if (!c->body)
        return s_fail(err, len, "body: out of memory", NULL);
    size_t out = ZSTD_decompress(c->body, want + 1, z, zsize); /* one byte more: a longer body shows */
    if (ZSTD_isError(out))
        return s_fail(err, len, "body: zstd cannot decompress it (damaged)", ZSTD_getErrorName(out));
    if (out != want)
        return s_fail(err, len, "body: it does not hold 16 bytes per counted record (damaged, or counts wrong)", NULL);
    char mine[17];
    snprintf(mine, sizeof mine, "%016llx", (unsigned long long)s_fnv(sum, c->body, want));
    if (strcmp(mine, hex))
        return s_fail(err, len, "checksum: the header says another value than the file holds (damaged)", mine);
    const uint8_t *at = c->body;
    for (int s = 0; s < c->nsections; s++) {
        c->section[s] = at;
        for (size_t i = 1; i < c->count[s]; i++) {
            cc_rec_t a = cc_rec_read(at + (i - 1) * CC_REC_BYTES), b = cc_rec_read(at + i * CC_REC_BYTES);
            if (cc_rec_cmp(&a, &b) >= 0) {
                snprintf(err, (size_t)len, "section %s, record %zu: not after the record before it (the order is strict)",
                         c->name[s], i);
                return -1;
            }
        }
        at += c->count[s] * CC_REC_BYTES;
    }
    return 0;
}

int cc_cert_read(const char *path, cc_cert_t *c, char *err, int errlen)
{
    memset(c, 0, sizeof *c);
    FILE *f = fopen(path, "rb");
    if (!f)
        return s_fail(err, errlen, path, "cannot open");
    uint8_t *data = NULL;
    size_t size = 0, cap = 0, n;
    do {
        if (size == cap) {
            uint8_t *bigger = realloc(data, cap = cap ? cap * 2 : 1 << 16);
            if (!bigger) {
                free(data);
                fclose(f);
                return s_fail(err, errlen, path, "out of memory");
            }
            data = bigger;
        }
        n = fread(data + size, 1, cap - size, f);
        size += n;
    } while (n > 0);
    fclose(f);
    size_t at = 0, zsize = 0;
    uint64_t sum = 0;
    char hex[17];
    int rc = s_header(c, data, size, &at, &zsize, &sum, hex, err, errlen);
    if (rc == 0 && zsize != size - at)
        rc = s_fail(err, errlen, "body: the file does not end exactly B bytes after the header (truncated or extended)", NULL);
    if (rc == 0)
        rc = s_body(c, data + at, zsize, sum, hex, err, errlen);
    free(data);
    if (rc)
        cc_cert_free(c);
    return rc;
}

void cc_cert_free(cc_cert_t *c)
{
    free(c->body);
    c->body = NULL;
}
