/* vt_file.c: maps a table file, checks everything its header promises
 * before a record is read, and decodes the slice directory. */
#include "vt_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vt_blocks.h"
#include "vt_crc.h"

static uint32_t s_u32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint64_t s_u64(const uint8_t *b)
{
    return s_u32(b) | (uint64_t)s_u32(b + 4) << 32;
}

const char *vt_code_name(int code)
{
    static const char *names[] = {"loss", "blessed-loss", "draw", "cursed-win", "win", "code 5", "code 6", "invalid"};
    return code >= 0 && code < 8 ? names[code] : "code ?";
}

/* Maps path; 0 or -1 with err set. */
static int s_map(const char *path, vt_table_t *t, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open: %s", strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "not a regular file");
        close(fd);
        return -1;
    }
    t->size = (size_t)st.st_size;
    if (t->size < VT_HEADER_SIZE) {
        snprintf(err, errlen, "truncated: %zu bytes, the header alone is %d", t->size, VT_HEADER_SIZE);
        close(fd);
        return -1;
    }
    void *m = mmap(NULL, t->size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED) {
        snprintf(err, errlen, "cannot map: %s", strerror(errno));
        return -1;
    }
    t->map = m;
    return 0;
}

static int s_header(vt_table_t *t, int id, char *err, size_t errlen)
{
    const uint8_t *h = t->map;
    if (memcmp(h, "OCTADTB\n", 8) != 0) {
        snprintf(err, errlen, "bad magic (not an octad table file)");
        return -1;
    }
    uint32_t crc = vt_crc32c(0, h, 124);
    if (crc != s_u32(h + 124)) {
        snprintf(err, errlen, "header checksum mismatch (stored %08x, computed %08x)", s_u32(h + 124), crc);
        return -1;
    }
    uint32_t version = s_u32(h + 8);
    if ((version != 1 && version != 2) || s_u32(h + 12) != 1) {
        snprintf(err, errlen, "format version %u / index scheme %u, this reader knows 1 or 2 / 1", version,
                 s_u32(h + 12));
        return -1;
    }
    uint32_t hid = s_u32(h + 16);
    if (hid >= VT_TABLE_NB || (id >= 0 && hid != (uint32_t)id)) {
        snprintf(err, errlen, "header table id %u, the file name says %d", hid, id);
        return -1;
    }
    t->id = (int)hid;
    vt_table_name(t->id, t->name);
    char hname[17] = {0};
    memcpy(hname, h + 108, 16);
    if (strcmp(hname, t->name) != 0) {
        snprintf(err, errlen, "header name '%.16s' does not match table id %u (%s)", hname, hid, t->name);
        return -1;
    }
    t->nslices = s_u32(h + 20);
    t->nrecords = s_u64(h + 24);
    for (int c = 0; c < 8; c++)
        t->counts[c] = s_u64(h + 32 + 8 * c);
    t->max_dtz = s_u32(h + 96);
    t->max_dtm = s_u32(h + 100);
    t->crc_body = s_u32(h + 104);
    uint64_t want = VT_HEADER_SIZE + (uint64_t)VT_DIR_ENTRY * t->nslices;
    if (t->nrecords > (UINT64_MAX - want) / 4 || (version == 1 && want + 4 * t->nrecords != t->size)
        || want > t->size) {
        snprintf(err, errlen, "size %zu bytes, the header (%u slices, %llu records) needs %s%llu", t->size,
                 t->nslices, (unsigned long long)t->nrecords, version == 1 ? "" : "more than ",
                 (unsigned long long)(version == 1 ? want + 4 * t->nrecords : want));
        return -1;
    }
    t->records = h + want;
    if (version == 2) {
        char why[200];
        if (vt_blocks_decode(h + want, t->size - want, t->nrecords, &t->owned, why, sizeof why) < 0) {
            snprintf(err, errlen, "records: %s", why);
            return -1;
        }
        t->records = t->owned;
    }
    crc = vt_crc32c(vt_crc32c(0, h + VT_HEADER_SIZE, want - VT_HEADER_SIZE), t->records, 4 * t->nrecords);
    if (crc != t->crc_body) {
        snprintf(err, errlen, "records checksum mismatch (stored %08x, computed %08x)", t->crc_body, crc);
        return -1;
    }
    return 0;
}

/* Decodes one directory entry into sl (the geometry not yet built). */
static int s_entry(const uint8_t *e, vt_slice_t *sl, char *err, size_t errlen)
{
    memset(sl, 0, sizeof *sl);
    for (int s = 0; s < 2; s++) {
        const uint8_t *r = e + 3 * s;
        sl->kfile[s] = r[0] == 0xFF ? -1 : (int8_t)(r[0] > 3 ? 4 : r[0]);
        sl->partners[s] = r[1];
        sl->knights[s] = r[2];
    }
    sl->half = e[8];
    sl->pawns[0] = (uint16_t)(e[10] | e[11] << 8);
    sl->pawns[1] = (uint16_t)(e[12] | e[13] << 8);
    if (sl->half > 1 || e[9] || e[14] || e[15]) {
        snprintf(err, errlen, "nonzero padding or half = %u", sl->half);
        return -1;
    }
    return 0;
}

static int s_hash_put(vt_table_t *t, uint64_t key, int32_t val)
{
    uint32_t h = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & t->hmask;
    while (t->hvals[h] >= 0) {
        if (t->hkeys[h] == key)
            return -1;
        h = (h + 1) & t->hmask;
    }
    t->hkeys[h] = key;
    t->hvals[h] = val;
    return 0;
}

int vt_table_find(const vt_table_t *t, uint64_t key)
{
    uint32_t h = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & t->hmask;
    while (t->hvals[h] >= 0) {
        if (t->hkeys[h] == key)
            return t->hvals[h];
        h = (h + 1) & t->hmask;
    }
    return -1;
}

static int s_directory(vt_table_t *t, char *err, size_t errlen)
{
    vt_side_t stm = vt_side_of(t->id / VT_SIDE_NB), other = vt_side_of(t->id % VT_SIDE_NB);
    uint32_t cap = 4;
    while (cap < 2 * t->nslices)
        cap *= 2;
    t->slices = calloc(t->nslices ? t->nslices : 1, sizeof *t->slices);
    t->hkeys = calloc(cap, sizeof *t->hkeys);
    t->hvals = malloc(cap * sizeof *t->hvals);
    if (!t->slices || !t->hkeys || !t->hvals) {
        snprintf(err, errlen, "out of memory for %u slices", t->nslices);
        return -1;
    }
    memset(t->hvals, 0xFF, cap * sizeof *t->hvals);
    t->hmask = cap - 1;
    uint64_t offset = 0;
    char why[160];
    for (uint32_t i = 0; i < t->nslices; i++) {
        vt_slice_t *sl = &t->slices[i];
        if (s_entry(t->map + VT_HEADER_SIZE + VT_DIR_ENTRY * (size_t)i, sl, why, sizeof why) < 0
            || vt_slice_build(sl, &stm, &other, why, sizeof why) < 0) {
            snprintf(err, errlen, "directory entry %u: %s", i, why);
            return -1;
        }
        if (s_hash_put(t, vt_slice_key(sl->kfile, sl->partners, sl->knights, sl->pawns), (int32_t)i) < 0) {
            snprintf(err, errlen, "directory entry %u repeats an earlier slice's rights and pawns", i);
            return -1;
        }
        sl->offset = offset;
        offset += sl->size;
    }
    if (offset != t->nrecords) {
        snprintf(err, errlen, "the slices hold %llu slots, the header says %llu records", (unsigned long long)offset,
                 (unsigned long long)t->nrecords);
        return -1;
    }
    return 0;
}

int vt_table_open(const char *path, int id, vt_table_t **out, char *err, size_t errlen)
{
    *out = NULL;
    vt_table_t *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (s_map(path, t, err, errlen) < 0 || s_header(t, id, err, errlen) < 0 || s_directory(t, err, errlen) < 0) {
        vt_table_close(&t);
        return -1;
    }
    *out = t;
    return 0;
}

void vt_table_close(vt_table_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    vt_table_t *t = *self_p;
    if (t->map)
        munmap((void *)t->map, t->size);
    free(t->owned);
    free(t->slices);
    free(t->hkeys);
    free(t->hvals);
    free(t);
    *self_p = NULL;
}
