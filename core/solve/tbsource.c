/* tbsource.c: a table file read block by block (tbsource.h). */
#include "tbsource.h"

#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "crc32c.h"
#include "le.h"
#include "tbfile.h"

struct tbsource {
    char path[4096];
    int fd;
    tbfile_info_t info;
    layout_table_t layout;
    uint64_t nblocks;
    uint64_t records_at; /* file offset of the records (version 1) or of the frames (version 2) */
    uint64_t *offsets;   /* version 2: nblocks + 1 frame offsets, from records_at */
    size_t frame_max;    /* the largest a frame of one block can be */
};

/* Reads exactly len bytes at off; 0, or -1 with a message. */
static int s_pread(const tbsource_t *self, void *buf, size_t len, uint64_t off, char *err, size_t errlen)
{
    size_t done = 0;
    while (done < len) {
        ssize_t r = pread(self->fd, (char *)buf + done, len - done, (off_t)(off + done));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            snprintf(err, errlen, "%s: cannot read %zu bytes at %llu: %s", self->path, len,
                     (unsigned long long)off, r < 0 ? strerror(errno) : "end of file (truncated?)");
            return -1;
        }
        done += (size_t)r;
    }
    return 0;
}

/* Version 2: reads and checks the block header and the offsets; the frames
 * must end the file. */
static int s_blocks(tbsource_t *self, uint64_t at, uint64_t size, char *err, size_t errlen)
{
    size_t len = TBBLOCK_HEADER + 8 * (size_t)(self->nblocks + 1);
    unsigned char *b = malloc(len);
    self->offsets = malloc(8 * (size_t)(self->nblocks + 1));
    char why[192];
    int rc = -1;
    if (!b || !self->offsets)
        snprintf(err, errlen, "%s: out of memory", self->path);
    else if (s_pread(self, b, len, at, err, errlen) == 0) {
        uint64_t span = tbblocks_check(b, len, self->info.nrecords, why, sizeof why);
        if (!span)
            snprintf(err, errlen, "%s: %s", self->path, why);
        else if (at + span != size)
            snprintf(err, errlen, "%s: the blocks take %llu bytes, the file has %llu after the directory: truncated?",
                     self->path, (unsigned long long)span, (unsigned long long)(size - at));
        else {
            for (uint64_t i = 0; i <= self->nblocks; i++)
                self->offsets[i] = le_get64(b + TBBLOCK_HEADER + 8 * i);
            self->records_at = at + len;
            rc = 0;
        }
    }
    free(b);
    return rc;
}

/* Reads every block once: the checksum of the directory and the records
 * against the header's. */
static int s_verify(tbsource_t *self, const unsigned char *dir, size_t dirlen, char *err, size_t errlen)
{
    rec_t *tmp = malloc(sizeof(rec_t) * TBSOURCE_BLOCK);
    if (!tmp) {
        snprintf(err, errlen, "%s: out of memory", self->path);
        return -1;
    }
    uint32_t crc = crc32c(0, dir, dirlen);
    int rc = 0;
    for (uint64_t b = 0; b < self->nblocks && rc == 0; b++) {
        int64_t n = tbsource_read(self, b, tmp, err, errlen);
        if (n < 0)
            rc = -1;
        else
            crc = crc32c(crc, tmp, (size_t)n * sizeof(rec_t));
    }
    free(tmp);
    if (rc == 0 && crc != self->info.crc) {
        snprintf(err, errlen, "%s: checksum mismatch (the records are corrupted; regenerate the table)", self->path);
        rc = -1;
    }
    return rc;
}

/* The quick check of the directory (dirlen bytes at dir): entry by entry the
 * one the solver writes for this table (layout_table_expected), which then
 * becomes the source's layout. */
static int s_expected(tbsource_t *self, const unsigned char *dir, char *err, size_t errlen)
{
    layout_table_t want;
    if (layout_table_expected((int)self->info.table, &want) < 0) {
        snprintf(err, errlen, "%s: out of memory building the table's layout", self->path);
        return -1;
    }
    int bad = -1;
    unsigned char e[TBFILE_SLICE];
    for (int i = 0; i < want.nslices && bad < 0 && (uint32_t)i < self->info.nslices; i++) {
        tbfile_slice_entry(&want.slices[i], e);
        if (memcmp(e, dir + (size_t)i * TBFILE_SLICE, TBFILE_SLICE) != 0)
            bad = i;
    }
    if ((uint32_t)want.nslices != self->info.nslices)
        snprintf(err, errlen, "%s: the directory has %u slices, the layout of this table %d (corrupted?)", self->path,
                 self->info.nslices, want.nslices);
    else if (bad >= 0)
        snprintf(err, errlen, "%s: slice %d of the directory is not the one of this table's layout (corrupted)",
                 self->path, bad);
    else if (want.size != self->info.nrecords)
        snprintf(err, errlen, "%s: the directory gives %llu records, the header %llu", self->path,
                 (unsigned long long)want.size, (unsigned long long)self->info.nrecords);
    else {
        self->layout = want;
        return 0;
    }
    layout_table_free(&want);
    return -1;
}

/* Header, size and, for version 2, the block index; then the directory and
 * the records as `check` says (tbsource.h). */
static int s_open(tbsource_t *self, int table, tbsource_check_t check, char *err, size_t errlen)
{
    struct stat st;
    unsigned char h[TBFILE_HEADER];
    if ((self->fd = open(self->path, O_RDONLY | O_CLOEXEC)) < 0 || fstat(self->fd, &st) < 0) {
        snprintf(err, errlen, "%s: %s", self->path, strerror(errno));
        return -1;
    }
    uint64_t size = (uint64_t)st.st_size;
    if (size < TBFILE_HEADER) {
        snprintf(err, errlen, "%s: truncated (%llu bytes, the header alone is %d)", self->path,
                 (unsigned long long)size, TBFILE_HEADER);
        return -1;
    }
    if (s_pread(self, h, sizeof h, 0, err, errlen) < 0 || tbfile_parse_header(h, &self->info, self->path, err, errlen) < 0)
        return -1;
    if (self->info.table != (uint32_t)table) {
        snprintf(err, errlen, "%s: holds table %u, not %d", self->path, self->info.table, table);
        return -1;
    }
    uint64_t dirlen = (uint64_t)self->info.nslices * TBFILE_SLICE, at = TBFILE_HEADER + dirlen;
    self->nblocks = (self->info.nrecords + TBSOURCE_BLOCK - 1) / TBSOURCE_BLOCK;
    if (self->info.nrecords > (UINT64_MAX / 8) || size < at
        || (self->info.version == 1 && size != at + self->info.nrecords * 4)) {
        snprintf(err, errlen, "%s: size %llu does not match its header (%u slices, %llu records): truncated?",
                 self->path, (unsigned long long)size, self->info.nslices, (unsigned long long)self->info.nrecords);
        return -1;
    }
    self->records_at = at;
    if (self->info.version == 2 && s_blocks(self, at, size, err, errlen) < 0)
        return -1;
    unsigned char *dir = malloc(dirlen ? dirlen : 1);
    int rc = -1;
    if (!dir)
        snprintf(err, errlen, "%s: out of memory", self->path);
    else if (s_pread(self, dir, dirlen, TBFILE_HEADER, err, errlen) < 0)
        rc = -1;
    else if (check == TBSOURCE_CHECK_QUICK && self->info.version == 2)
        rc = s_expected(self, dir, err, errlen);
    else if (s_verify(self, dir, dirlen, err, errlen) == 0)
        rc = tbfile_layout(dir, &self->info, &self->layout, self->path, err, errlen);
    free(dir);
    return rc;
}

tbsource_t *tbsource_open(const char *dir, int table, tbsource_check_t check, char *err, size_t errlen)
{
    tbsource_t *self = calloc(1, sizeof *self);
    if (!self) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    char name[64];
    tbfile_name(table, name, sizeof name);
    snprintf(self->path, sizeof self->path, "%s/%s", dir, name);
    self->frame_max = ZSTD_compressBound(sizeof(rec_t) * TBSOURCE_BLOCK);
    self->fd = -1;
    if (s_open(self, table, check, err, errlen) < 0) {
        if (self->fd >= 0)
            close(self->fd);
        free(self->offsets);
        free(self);
        return NULL;
    }
    return self;
}

void tbsource_close(tbsource_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    tbsource_t *self = *self_p;
    layout_table_free(&self->layout);
    close(self->fd);
    free(self->offsets);
    free(self);
    *self_p = NULL;
}

const layout_table_t *tbsource_layout(const tbsource_t *self) { return &self->layout; }

uint64_t tbsource_blocks(const tbsource_t *self) { return self->nblocks; }

size_t tbsource_bytes(const tbsource_t *self)
{
    return sizeof *self + layout_table_bytes(&self->layout) + (self->offsets ? 8 * (size_t)(self->nblocks + 1) : 0);
}

uint64_t tbsource_block_records(const tbsource_t *self, uint64_t b) { return tbblocks_count(self->info.nrecords, b); }

/* The calling thread's buffer for one compressed frame (freed when the thread ends). */
static pthread_key_t s_frame_key;
static pthread_once_t s_frame_once = PTHREAD_ONCE_INIT;

static void s_frame_init(void) { pthread_key_create(&s_frame_key, free); }

static unsigned char *s_frame_buffer(size_t max)
{
    pthread_once(&s_frame_once, s_frame_init);
    unsigned char *buf = pthread_getspecific(s_frame_key);
    if (!buf && (buf = malloc(max)) && pthread_setspecific(s_frame_key, buf) != 0) {
        free(buf);
        buf = NULL;
    }
    return buf;
}

int64_t tbsource_read(tbsource_t *self, uint64_t b, rec_t *out, char *err, size_t errlen)
{
    uint64_t count = tbblocks_count(self->info.nrecords, b);
    if (self->info.version == 1)
        return s_pread(self, out, (size_t)count * sizeof(rec_t), self->records_at + b * TBSOURCE_BLOCK * sizeof(rec_t),
                       err, errlen) < 0 ? -1 : (int64_t)count;
    uint64_t o = self->offsets[b], len = self->offsets[b + 1] - o;
    if (len > self->frame_max) {
        snprintf(err, errlen, "%s: block %llu: a frame of %llu bytes, more than a block can take (corrupted)",
                 self->path, (unsigned long long)b, (unsigned long long)len);
        return -1;
    }
    unsigned char *frame = s_frame_buffer(self->frame_max); /* the same size in every source */
    char why[192];
    int rc = -1;
    if (!frame)
        snprintf(err, errlen, "%s: out of memory", self->path);
    else if (s_pread(self, frame, (size_t)len, self->records_at + o, err, errlen) == 0) {
        rc = tbblocks_decode(frame, (size_t)len, b, count, out, why, sizeof why);
        if (rc < 0)
            snprintf(err, errlen, "%s: %s", self->path, why);
    }
    return rc < 0 ? -1 : (int64_t)count;
}
