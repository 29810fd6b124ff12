/* xfer_file.c: table files' references, answering FETCH, and directory ids (see xfer.h). */
#include "xfer.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "crc32c.h"
#include "sig.h"

enum { CACHE_NB = 4096, READ_BLOCK = 1 << 20 };

/* Known files' CRCs, keyed by what changes when a file is replaced. */
typedef struct {
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
    uint32_t crc;
    bool used;
} s_cached_t;

static s_cached_t s_cache[CACHE_NB];
static pthread_mutex_t s_lock = PTHREAD_MUTEX_INITIALIZER;

static s_cached_t *s_slot(const struct stat *sb)
{
    size_t h = ((size_t)sb->st_ino * 2654435761u ^ (size_t)sb->st_dev) % CACHE_NB;
    return &s_cache[h];
}

static bool s_same(const s_cached_t *c, const struct stat *sb)
{
    return c->used && c->dev == sb->st_dev && c->ino == sb->st_ino && c->size == sb->st_size &&
           c->mtime.tv_sec == sb->st_mtim.tv_sec && c->mtime.tv_nsec == sb->st_mtim.tv_nsec;
}

/* CRC-32C of an open file's size bytes. 0, or -1 with errno. */
static int s_crc_fd(int fd, uint64_t size, uint32_t *crc)
{
    uint8_t *buf = malloc(READ_BLOCK);
    uint32_t c = 0;
    uint64_t at = 0;
    if (buf == NULL)
        return -1;
    while (at < size) {
        size_t want = size - at < READ_BLOCK ? (size_t)(size - at) : READ_BLOCK;
        ssize_t n = pread(fd, buf, want, (off_t)at);
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            free(buf);
            return -1;
        }
        c = crc32c(c, buf, (size_t)n);
        at += (uint64_t)n;
    }
    free(buf);
    *crc = c;
    return 0;
}

int xfer_file_ref(const char *dir, const char *name, msg_tableref_t *out, char *err, size_t errlen)
{
    char path[XFER_PATH_MAX + 64];
    struct stat sb;
    snprintf(path, sizeof path, "%s/%s.otb", dir, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &sb) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", name);
    out->size = (uint64_t)sb.st_size;
    pthread_mutex_lock(&s_lock);
    s_cached_t *c = s_slot(&sb);
    bool hit = s_same(c, &sb);
    if (hit)
        out->crc = c->crc;
    pthread_mutex_unlock(&s_lock);
    if (!hit) {
        if (s_crc_fd(fd, out->size, &out->crc) != 0) {
            snprintf(err, errlen, "%s: cannot read it: %s", path, strerror(errno));
            close(fd);
            return -1;
        }
        pthread_mutex_lock(&s_lock);
        *c = (s_cached_t){sb.st_dev, sb.st_ino, sb.st_size, sb.st_mtim, out->crc, true};
        pthread_mutex_unlock(&s_lock);
    }
    close(fd);
    return 0;
}

bool xfer_table_name_ok(const char *name, int *table)
{
    char err[128], canon[SIG_NAME_MAX];
    sig_init();
    if (sig_table_parse(name, table, err, sizeof err) < 0)
        return false;
    sig_table_name(*table, canon, sizeof canon);
    return strcmp(canon, name) == 0; /* one spelling per table, so one file name */
}

int xfer_serve(const char *dir, const msg_fetch_t *f, msg_t *chunk, uint8_t data[MSG_CHUNK_MAX], char *err,
               size_t errlen)
{
    char path[XFER_PATH_MAX + 64];
    struct stat sb;
    int table;
    if (!xfer_table_name_ok(f->table, &table)) {
        snprintf(err, errlen, "%s: not a table name", f->table);
        return -1;
    }
    snprintf(path, sizeof path, "%s/%s.otb", dir, f->table);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &sb) != 0) {
        snprintf(err, errlen, "%s: cannot open its file: %s", f->table, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    msg_init(chunk, MSG_CHUNK);
    msg_chunk_t *c = &chunk->u.chunk;
    snprintf(c->table, sizeof c->table, "%s", f->table);
    c->offset = f->offset;
    c->size = (uint64_t)sb.st_size;
    uint32_t want = f->length > MSG_CHUNK_MAX ? MSG_CHUNK_MAX : f->length;
    if (f->offset < c->size) {
        if (c->size - f->offset < want)
            want = (uint32_t)(c->size - f->offset);
        ssize_t n = pread(fd, data, want, (off_t)f->offset);
        if (n != (ssize_t)want) {
            snprintf(err, errlen, "%s: cannot read its file: %s", f->table, n < 0 ? strerror(errno) : "short read");
            close(fd);
            return -1;
        }
        c->n_data = want;
    }
    close(fd);
    c->data = data;
    c->crc = crc32c(0, data, c->n_data);
    return 0;
}

/* A new random id: 16 hex digits from /dev/urandom (time and pid if unreadable). */
static void s_new_id(char *id, size_t len)
{
    uint64_t v = 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0 || read(fd, &v, sizeof v) != (ssize_t)sizeof v)
        v = (uint64_t)time(NULL) * 6364136223846793005u ^ (uint64_t)getpid();
    if (fd >= 0)
        close(fd);
    snprintf(id, len, "%016llx", (unsigned long long)v);
}

int xfer_dir_id(const char *dir, bool create, char *id, size_t len, char *err, size_t errlen)
{
    char path[XFER_PATH_MAX + 64], tmp[XFER_PATH_MAX + 80], buf[MSG_TABLE_NAME_MAX] = "";
    snprintf(path, sizeof path, "%s/%s", dir, XFER_DIR_ID_FILE);
    id[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f != NULL) {
        bool ok = fgets(buf, sizeof buf, f) != NULL;
        fclose(f);
        buf[strcspn(buf, "\r\n")] = '\0';
        if (!ok || buf[0] == '\0') {
            snprintf(err, errlen, "%s: empty or unreadable (delete it to make a new id)", path);
            return -1;
        }
        snprintf(id, len, "%s", buf);
        return 0;
    }
    if (!create)
        return 1;
    s_new_id(buf, sizeof buf);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    f = fopen(tmp, "w");
    if (f == NULL || fprintf(f, "%s\n", buf) < 0 || fflush(f) != 0 || fsync(fileno(f)) != 0 || fclose(f) != 0 ||
        rename(tmp, path) != 0) {
        snprintf(err, errlen, "%s: cannot write it: %s", path, strerror(errno));
        return -1;
    }
    snprintf(id, len, "%s", buf);
    return 0;
}
