/* xfer_recv.c: receiving one table file in checksummed chunks (see xfer.h). */
#include "xfer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crc32c.h"
#include "tbfile.h"

int xfer_start(xfer_t *x, const char *dir, const msg_tableref_t *ref, bool resumable, char *err, size_t errlen)
{
    struct stat sb;
    memset(x, 0, sizeof *x);
    x->fd = -1;
    if (!xfer_table_name_ok(ref->name, &x->table)) {
        snprintf(err, errlen, "%s: not a table name", ref->name);
        return -1;
    }
    if (ref->size == 0 || ref->size > XFER_FILE_MAX) {
        snprintf(err, errlen, "%s: file size %llu outside 1..2^40", ref->name, (unsigned long long)ref->size);
        return -1;
    }
    snprintf(x->dir, sizeof x->dir, "%s", dir);
    x->ref = *ref;
    x->resumable = resumable;
    snprintf(x->part, sizeof x->part, "%s/.%s.otb.part-%08x", dir, ref->name, ref->crc);
    x->fd = open(x->part, O_RDWR | O_CREAT | O_CLOEXEC | (resumable ? 0 : O_TRUNC), 0644);
    if (x->fd < 0 || fstat(x->fd, &sb) != 0) {
        snprintf(err, errlen, "%s: %s", x->part, strerror(errno));
        xfer_abort(x);
        return -1;
    }
    /* A resumed part file holds whole pieces that passed their CRC. */
    uint64_t have = (uint64_t)sb.st_size / MSG_CHUNK_MAX * MSG_CHUNK_MAX;
    x->next = have < ref->size ? have : 0;
    return 0;
}

static int s_ask(xfer_t *x, uint64_t offset, xfer_send_fn send, void *ctx)
{
    msg_t m;
    msg_init(&m, MSG_FETCH);
    snprintf(m.u.fetch.table, sizeof m.u.fetch.table, "%s", x->ref.name);
    m.u.fetch.offset = offset;
    uint64_t left = x->ref.size - offset;
    m.u.fetch.length = left < MSG_CHUNK_MAX ? (uint32_t)left : MSG_CHUNK_MAX;
    return send(ctx, &m);
}

int xfer_pump(xfer_t *x, xfer_send_fn send, void *ctx)
{
    while (x->nout < XFER_WINDOW && x->next < x->ref.size) {
        if (s_ask(x, x->next, send, ctx) != 0)
            return -1;
        x->out[x->nout] = x->next;
        x->tries[x->nout++] = 0;
        x->next += MSG_CHUNK_MAX;
    }
    return 0;
}

/* The bytes before the first piece not yet in: what a resumed attempt keeps. */
static uint64_t s_prefix(const xfer_t *x)
{
    uint64_t p = x->next < x->ref.size ? x->next : x->ref.size;
    for (uint32_t k = 0; k < x->nout; k++)
        if (x->out[k] < p)
            p = x->out[k];
    return p;
}

void xfer_abort(xfer_t *x)
{
    if (x->fd >= 0) {
        if (x->resumable && ftruncate(x->fd, (off_t)s_prefix(x)) == 0) {
            close(x->fd);
        } else {
            close(x->fd);
            unlink(x->part);
        }
    }
    x->fd = -1;
    x->nout = 0;
}

/* Every byte is in: checks size, CRC and header, then renames into place. */
static xfer_status_t s_finish(xfer_t *x, char *err, size_t errlen)
{
    char path[XFER_PATH_MAX + 64], herr[256];
    uint32_t crc = 0;
    tbfile_info_t info;
    msg_tableref_t got;
    if (fsync(x->fd) != 0) {
        snprintf(err, errlen, "%s: fsync: %s", x->ref.name, strerror(errno));
        goto fail;
    }
    close(x->fd);
    x->fd = -1;
    snprintf(path, sizeof path, "%s/%s.otb", x->dir, x->ref.name);
    /* The whole file's CRC, read back from disk, not from the chunks in memory. */
    int fd = open(x->part, O_RDONLY | O_CLOEXEC);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0) {
        snprintf(err, errlen, "%s: %s", x->part, strerror(errno));
        if (fd >= 0)
            close(fd);
        goto fail;
    }
    uint8_t buf[1 << 16];
    for (off_t at = 0; at < sb.st_size;) {
        ssize_t n = pread(fd, buf, sizeof buf, at);
        if (n <= 0)
            break;
        crc = crc32c(crc, buf, (size_t)n);
        at += n;
    }
    close(fd);
    got.size = (uint64_t)sb.st_size;
    got.crc = crc;
    if (got.size != x->ref.size || got.crc != x->ref.crc) {
        snprintf(err, errlen, "%s: the file received has %llu bytes and CRC-32C %08x, expected %llu and %08x",
                 x->ref.name, (unsigned long long)got.size, got.crc, (unsigned long long)x->ref.size, x->ref.crc);
        goto fail;
    }
    if (tbfile_read_info(x->part, &info, herr, sizeof herr) < 0 || info.table != (uint32_t)x->table) {
        snprintf(err, errlen, "%s: the file received is not that table: %s", x->ref.name,
                 info.table != (uint32_t)x->table ? "another table's header" : herr);
        goto fail;
    }
    if (rename(x->part, path) != 0) {
        snprintf(err, errlen, "%s: rename: %s", path, strerror(errno));
        goto fail;
    }
    int dfd = open(x->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    return XFER_DONE;
fail:
    x->resumable = false; /* a whole file that fails is not kept */
    if (x->fd < 0)
        unlink(x->part);
    xfer_abort(x);
    return XFER_FAILED;
}

/* Index of offset among the outstanding pieces, or -1. */
static int s_find(const xfer_t *x, uint64_t offset)
{
    for (uint32_t k = 0; k < x->nout; k++)
        if (x->out[k] == offset)
            return (int)k;
    return -1;
}

xfer_status_t xfer_on_chunk(xfer_t *x, const msg_chunk_t *c, xfer_send_fn send, void *ctx, char *err,
                            size_t errlen)
{
    int k = s_find(x, c->offset);
    if (k < 0)
        return XFER_MORE; /* not asked for (a stale answer): ignored */
    uint64_t left = x->ref.size - c->offset;
    uint32_t want = left < MSG_CHUNK_MAX ? (uint32_t)left : MSG_CHUNK_MAX;
    if (c->size != x->ref.size || c->n_data != want || crc32c(0, c->data, c->n_data) != c->crc) {
        x->rejected++;
        if (++x->tries[k] >= XFER_TRIES) {
            snprintf(err, errlen, "%s: the chunk at offset %llu was rejected %d times (%s)", x->ref.name,
                     (unsigned long long)c->offset, XFER_TRIES,
                     c->size != x->ref.size ? "wrong file size" : c->n_data != want ? "wrong length" : "CRC mismatch");
            xfer_abort(x);
            return XFER_FAILED;
        }
        if (s_ask(x, c->offset, send, ctx) != 0) {
            snprintf(err, errlen, "%s: cannot ask for a chunk again", x->ref.name);
            xfer_abort(x);
            return XFER_FAILED;
        }
        return XFER_MORE;
    }
    if (pwrite(x->fd, c->data, c->n_data, (off_t)c->offset) != (ssize_t)c->n_data) {
        snprintf(err, errlen, "%s: write: %s", x->part, strerror(errno));
        x->resumable = false;
        xfer_abort(x);
        return XFER_FAILED;
    }
    x->out[k] = x->out[x->nout - 1];
    x->tries[k] = x->tries[x->nout - 1];
    x->nout--;
    if (x->nout == 0 && x->next >= x->ref.size)
        return s_finish(x, err, errlen);
    if (xfer_pump(x, send, ctx) != 0) {
        snprintf(err, errlen, "%s: cannot ask for more chunks", x->ref.name);
        xfer_abort(x);
        return XFER_FAILED;
    }
    return XFER_MORE;
}
