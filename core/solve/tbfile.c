/* tbfile.c: writing and reading table files. */
#include "tbfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crc32c.h"
#include "le.h"
#include "sig.h"
#include "tbblocks.h"

static const char MAGIC[8] = {'O', 'C', 'T', 'A', 'D', 'T', 'B', '\n'};

void tbfile_name(int table, char *buf, size_t len)
{
    char name[SIG_NAME_MAX];
    sig_table_name(table, name, sizeof name);
    snprintf(buf, len, "%s.otb", name);
}


void tbfile_summarise(const layout_table_t *t, const rec_t *recs, tbfile_info_t *info)
{
    memset(info, 0, sizeof *info);
    info->table = (uint32_t)t->table;
    info->nslices = (uint32_t)t->nslices;
    info->nrecords = t->size;
    for (uint64_t i = 0; i < t->size; i++) {
        rec_t r = recs[i];
        info->counts[rec_wdl(r)]++;
        if (rec_wdl(r) != REC_INVALID) {
            if ((uint32_t)rec_dtz(r) > info->max_dtz)
                info->max_dtz = (uint32_t)rec_dtz(r);
            if ((uint32_t)rec_dtm(r) > info->max_dtm)
                info->max_dtm = (uint32_t)rec_dtm(r);
        }
    }
}

/* Directory entry: per side king file (0xFF none), partner and knight files;
 * pcfg; half; stm pawns; other pawns. */
void tbfile_slice_entry(const layout_slice_t *s, unsigned char *e)
{
    memset(e, 0, TBFILE_SLICE);
    for (int c = 0; c < 2; c++) {
        const rights_cfg_t *r = rights_cfg(s->rights[c]);
        e[3 * c] = s->rights[c] == RIGHTS_NONE ? 0xFF : (unsigned char)r->king;
        e[3 * c + 1] = r->partners;
        e[3 * c + 2] = r->knights;
    }
    e[6] = (unsigned char)(s->pcfg & 0xFF);
    e[7] = (unsigned char)(s->pcfg >> 8);
    e[8] = s->half;
    e[10] = (unsigned char)(s->pawns[0] & 0xFF);
    e[11] = (unsigned char)(s->pawns[0] >> 8);
    e[12] = (unsigned char)(s->pawns[1] & 0xFF);
    e[13] = (unsigned char)(s->pawns[1] >> 8);
}

static void s_header(const tbfile_info_t *info, unsigned char *h)
{
    char name[SIG_NAME_MAX];
    memset(h, 0, TBFILE_HEADER);
    memcpy(h, MAGIC, 8);
    le_put32(h + 8, info->version);
    le_put32(h + 12, TBFILE_SCHEME);
    le_put32(h + 16, info->table);
    le_put32(h + 20, info->nslices);
    le_put64(h + 24, info->nrecords);
    for (int i = 0; i < 8; i++)
        le_put64(h + 32 + 8 * i, info->counts[i]);
    le_put32(h + 96, info->max_dtz);
    le_put32(h + 100, info->max_dtm);
    le_put32(h + 104, info->crc);
    sig_table_name((int)info->table, name, sizeof name);
    memcpy(h + 108, name, strlen(name) < 16 ? strlen(name) : 15);
    le_put32(h + 124, crc32c(0, h, 124));
}

static int s_write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

int tbfile_write(const char *dir, const layout_table_t *t, const rec_t *recs, tbfile_info_t *info,
                 char *err, size_t errlen)
{
    return tbfile_write_as(dir, t, recs, TBFILE_VERSION, info, err, errlen);
}

int tbfile_write_as(const char *dir, const layout_table_t *t, const rec_t *recs, int version,
                    tbfile_info_t *info, char *err, size_t errlen)
{
    char name[64], path[4096], tmp[4200];
    tbfile_name(t->table, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid());
    if (version < 1 || version > TBFILE_VERSION) {
        snprintf(err, errlen, "%s: cannot write format version %d", path, version);
        return -1;
    }
    tbfile_summarise(t, recs, info);
    info->version = (uint32_t)version;
    info->scheme = TBFILE_SCHEME;
    size_t dirlen = (size_t)t->nslices * TBFILE_SLICE;
    unsigned char *d = calloc(dirlen ? dirlen : 1, 1);
    if (!d) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    for (int i = 0; i < t->nslices; i++)
        tbfile_slice_entry(&t->slices[i], d + (size_t)i * TBFILE_SLICE);
    _Static_assert(sizeof(rec_t) == 4, "records are 32 bits");
    uint32_t crc = crc32c(0, d, dirlen);
    info->crc = crc32c(crc, recs, (size_t)t->size * sizeof(rec_t)); /* little-endian host (x86-64) */
    unsigned char h[TBFILE_HEADER];
    s_header(info, h);
    tbblocks_t blocks = {(unsigned char *)recs, (size_t)t->size * sizeof(rec_t)};
    char why[160];
    if (version == 2 && tbblocks_pack(recs, t->size, &blocks, why, sizeof why) < 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        free(d);
        return -1;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    int rc = -1;
    if (fd < 0 || s_write_all(fd, h, sizeof h) < 0 || s_write_all(fd, d, dirlen) < 0
        || s_write_all(fd, blocks.bytes, blocks.len) < 0 || fsync(fd) < 0) {
        snprintf(err, errlen, "%s: cannot write: %s", tmp, strerror(errno));
    } else if (close(fd) < 0 || (fd = -1, rename(tmp, path) < 0)) {
        snprintf(err, errlen, "%s: cannot rename into place: %s", path, strerror(errno));
    } else {
        int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) {
            fsync(dfd);
            close(dfd);
        }
        rc = 0;
    }
    if (fd >= 0)
        close(fd);
    if (rc < 0)
        unlink(tmp);
    if (version == 2)
        tbblocks_free(&blocks);
    free(d);
    return rc;
}

int tbfile_parse_header(const unsigned char *h, tbfile_info_t *info, const char *path, char *err, size_t errlen)
{
    if (memcmp(h, MAGIC, 8) != 0) {
        snprintf(err, errlen, "%s: not an octad table file (bad magic)", path);
        return -1;
    }
    if (le_get32(h + 124) != crc32c(0, h, 124)) {
        snprintf(err, errlen, "%s: header checksum mismatch (the file is corrupted)", path);
        return -1;
    }
    memset(info, 0, sizeof *info);
    info->version = le_get32(h + 8);
    info->scheme = le_get32(h + 12);
    info->table = le_get32(h + 16);
    info->nslices = le_get32(h + 20);
    info->nrecords = le_get64(h + 24);
    for (int i = 0; i < 8; i++)
        info->counts[i] = le_get64(h + 32 + 8 * i);
    info->max_dtz = le_get32(h + 96);
    info->max_dtm = le_get32(h + 100);
    info->crc = le_get32(h + 104);
    if (info->version < 1 || info->version > TBFILE_VERSION || info->scheme != TBFILE_SCHEME) {
        snprintf(err, errlen, "%s: format version %u, index scheme %u: this program reads versions 1-%d, scheme %d",
                 path, info->version, info->scheme, TBFILE_VERSION, TBFILE_SCHEME);
        return -1;
    }
    if (info->table >= SIG_TABLE_NB) {
        snprintf(err, errlen, "%s: table id %u out of range", path, info->table);
        return -1;
    }
    return 0;
}

int tbfile_read_info(const char *path, tbfile_info_t *out, char *err, size_t errlen)
{
    unsigned char h[TBFILE_HEADER];
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    size_t n = fread(h, 1, sizeof h, f);
    fclose(f);
    if (n != sizeof h) {
        snprintf(err, errlen, "%s: truncated header (%zu of %d bytes)", path, n, TBFILE_HEADER);
        return -1;
    }
    return tbfile_parse_header(h, out, path, err, errlen);
}

int tbfile_layout(const unsigned char *d, const tbfile_info_t *info, layout_table_t *out, const char *path, char *err,
                  size_t errlen)
{
    int n = (int)info->nslices;
    layout_slice_t *slices = calloc((size_t)(n ? n : 1), sizeof *slices);
    if (!slices) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        const unsigned char *e = d + (size_t)i * TBFILE_SLICE;
        int r[2];
        for (int c = 0; c < 2; c++)
            r[c] = e[3 * c] == 0xFF ? (e[3 * c + 1] ? -1 : RIGHTS_NONE) : rights_id(e[3 * c], e[3 * c + 1], e[3 * c + 2]);
        if (r[0] < 0 || r[1] < 0) {
            snprintf(err, errlen, "%s: slice %d: invalid castling rights", path, i);
            free(slices);
            return -1;
        }
        slices[i].rights[0] = (uint16_t)r[0];
        slices[i].rights[1] = (uint16_t)r[1];
        slices[i].pcfg = (uint16_t)(e[6] | e[7] << 8);
        slices[i].half = e[8];
    }
    char why[160];
    if (layout_table_build((int)info->table, slices, n, out, why, sizeof why) < 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        return -1;
    }
    if (out->size != info->nrecords) {
        snprintf(err, errlen, "%s: directory gives %llu records, header %llu", path,
                 (unsigned long long)out->size, (unsigned long long)info->nrecords);
        layout_table_free(out);
        return -1;
    }
    return 0;
}

/* Maps dir/NAME.otb of `table` and checks its header, its table and its
 * size; fills *info, *map, *len (and `path`). 0, or -1 with a message (nothing
 * mapped). */
static int s_map(const char *dir, int table, char *path, size_t pathlen, void **map, size_t *len,
                 tbfile_info_t *info, char *err, size_t errlen)
{
    char name[64];
    tbfile_name(table, name, sizeof name);
    snprintf(path, pathlen, "%s/%s", dir, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (st.st_size < TBFILE_HEADER) {
        snprintf(err, errlen, "%s: truncated (%lld bytes, the header alone is %d)", path, (long long)st.st_size,
                 TBFILE_HEADER);
        close(fd);
        return -1;
    }
    *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (*map == MAP_FAILED) {
        snprintf(err, errlen, "%s: cannot map: %s", path, strerror(errno));
        return -1;
    }
    *len = (size_t)st.st_size;
    if (tbfile_parse_header(*map, info, path, err, errlen) < 0)
        goto fail;
    if (info->table != (uint32_t)table) {
        snprintf(err, errlen, "%s: holds table %u, not %d", path, info->table, table);
        goto fail;
    }
    size_t dirlen = (size_t)info->nslices * TBFILE_SLICE;
    if (info->nrecords > (SIZE_MAX - TBFILE_HEADER - dirlen) / 4 || *len < TBFILE_HEADER + dirlen
        || (info->version == 1 && *len != TBFILE_HEADER + dirlen + info->nrecords * 4)) {
        snprintf(err, errlen, "%s: size %lld does not match its header (%u slices, %llu records): truncated?",
                 path, (long long)*len, info->nslices, (unsigned long long)info->nrecords);
        goto fail;
    }
    return 0;
fail:
    munmap(*map, *len);
    return -1;
}

int tbfile_read(const char *dir, int table, tbfile_t *out, char *err, size_t errlen)
{
    char path[4096];
    memset(out, 0, sizeof *out);
    if (s_map(dir, table, path, sizeof path, &out->map, &out->map_len, &out->info, err, errlen) < 0) {
        out->map = NULL;
        return -1;
    }
    const unsigned char *p = out->map;
    size_t dirlen = (size_t)out->info.nslices * TBFILE_SLICE;
    const rec_t *recs = (const rec_t *)(p + TBFILE_HEADER + dirlen);
    if (out->info.version == 2) {
        char why[192];
        out->owned = malloc(out->info.nrecords ? out->info.nrecords * sizeof(rec_t) : 1);
        if (!out->owned) {
            snprintf(err, errlen, "%s: out of memory for %llu records", path, (unsigned long long)out->info.nrecords);
            goto fail;
        }
        if (tbblocks_unpack(p + TBFILE_HEADER + dirlen, out->map_len - TBFILE_HEADER - dirlen,
                            out->info.nrecords, out->owned, why, sizeof why) < 0) {
            snprintf(err, errlen, "%s: %s", path, why);
            goto fail;
        }
        recs = out->owned;
    }
    uint32_t crc = crc32c(0, p + TBFILE_HEADER, dirlen);
    crc = crc32c(crc, recs, out->info.nrecords * 4);
    if (crc != out->info.crc) {
        snprintf(err, errlen, "%s: checksum mismatch (the records are corrupted; regenerate the table)", path);
        goto fail;
    }
    if (tbfile_layout(p + TBFILE_HEADER, &out->info, &out->layout, path, err, errlen) < 0)
        goto fail;
    out->recs = recs;
    if (out->owned) { /* everything is in memory now */
        munmap(out->map, out->map_len);
        out->map = NULL;
        out->map_len = 0;
    }
    return 0;
fail:
    munmap(out->map, out->map_len);
    free(out->owned);
    memset(out, 0, sizeof *out);
    return -1;
}

int tbfile_check(const char *dir, int table, char *err, size_t errlen)
{
    char path[4096];
    tbfile_t t;
    memset(&t, 0, sizeof t);
    if (s_map(dir, table, path, sizeof path, &t.map, &t.map_len, &t.info, err, errlen) < 0)
        return -1;
    const unsigned char *p = t.map;
    size_t dirlen = (size_t)t.info.nslices * TBFILE_SLICE;
    uint32_t crc = crc32c(0, p + TBFILE_HEADER, dirlen);
    int rc = 0;
    char why[192];
    if (t.info.version == 1)
        crc = crc32c(crc, p + TBFILE_HEADER + dirlen, t.info.nrecords * 4);
    else if (tbblocks_crc(p + TBFILE_HEADER + dirlen, t.map_len - TBFILE_HEADER - dirlen, t.info.nrecords, &crc,
                          why, sizeof why) < 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        rc = -1;
    }
    if (rc == 0 && crc != t.info.crc) {
        snprintf(err, errlen, "%s: checksum mismatch (the records are corrupted; regenerate the table)", path);
        rc = -1;
    }
    if (rc == 0 && tbfile_layout(p + TBFILE_HEADER, &t.info, &t.layout, path, err, errlen) < 0)
        rc = -1;
    else if (rc == 0)
        layout_table_free(&t.layout);
    munmap(t.map, t.map_len);
    return rc;
}

bool tbfile_complete(const char *path, int table)
{
    tbfile_info_t info;
    char err[256];
    struct stat sb;
    if (tbfile_read_info(path, &info, err, sizeof err) < 0 || info.table != (uint32_t)table || stat(path, &sb) < 0)
        return false;
    uint64_t head = TBFILE_HEADER + (uint64_t)info.nslices * TBFILE_SLICE;
    if (info.version == 1)
        return (uint64_t)sb.st_size == head + info.nrecords * 4;
    uint64_t nb = (info.nrecords + (1u << TBBLOCK_SHIFT) - 1) >> TBBLOCK_SHIFT;
    size_t len = TBBLOCK_HEADER + 8 * (size_t)(nb + 1);
    unsigned char *b = malloc(len);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    uint64_t span = b && fd >= 0 && pread(fd, b, len, (off_t)head) == (ssize_t)len
                        ? tbblocks_span(b, len, info.nrecords) : 0;
    bool ok = span != 0 && head + span == (uint64_t)sb.st_size;
    if (fd >= 0)
        close(fd);
    free(b);
    return ok;
}

void tbfile_close(tbfile_t *f)
{
    layout_table_free(&f->layout);
    if (f->map)
        munmap(f->map, f->map_len);
    free(f->owned);
    memset(f, 0, sizeof *f);
}
