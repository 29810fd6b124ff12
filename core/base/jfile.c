/* jfile.c: the one journal file: header, sealed lines, torn tail, synced appends, the lock
 * (format in docs/journal.md, contract in jfile.h). */
#include "jfile.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hash.h"

static const char s_magic[] = "OCTAD-JOURNAL";

struct jfile_s {
    char *path;
    int fd;
    int version;
    bool created; /* this open wrote the header: no earlier run used the file */
    off_t size;   /* bytes of complete, checked lines */
};

size_t jfile_escape(const char *src, char *dst, size_t cap)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = 0;
    for (const unsigned char *s = (const unsigned char *)src; *s; s++) {
        bool plain = *s >= 0x20 && *s != 0x7f && *s != '%';
        size_t need = plain ? 1 : 3;
        if (n + need >= cap)
            return SIZE_MAX;
        if (plain) {
            dst[n++] = (char)*s;
        } else {
            dst[n++] = '%';
            dst[n++] = hex[*s >> 4];
            dst[n++] = hex[*s & 15];
        }
    }
    if (n >= cap)
        return SIZE_MAX;
    dst[n] = '\0';
    return n;
}

int jfile_unescape(const char *in, char *out, size_t cap)
{
    size_t o = 0;
    for (; *in != '\0'; in++) {
        unsigned v = (unsigned char)*in;
        if (*in == '%') {
            if (!isxdigit((unsigned char)in[1]) || !isxdigit((unsigned char)in[2]) || sscanf(in + 1, "%2x", &v) != 1)
                return -1;
            in += 2;
        }
        if (o + 1 >= cap)
            return -1;
        out[o++] = (char)v;
    }
    if (cap == 0)
        return -1;
    out[o] = '\0';
    return 0;
}

/* Appends "\t<crc of buf[0..len)>\n"; returns the new length, or 0 past cap or a line. */
static size_t s_seal(char *buf, size_t len, size_t cap)
{
    uint32_t crc = hash_crc32(buf, len);
    int n = snprintf(buf + len, cap - len, "\t%08x\n", (unsigned)crc);
    if (n < 0 || (size_t)n >= cap - len || len + (size_t)n > JFILE_LINE_MAX)
        return 0;
    return len + (size_t)n;
}

/* Checks and strips a line's trailing "\t<8 hex crc>"; -1 with the problem in err. */
static int s_unseal(char *line, char *err, size_t errlen)
{
    char *tab = strrchr(line, '\t');
    if (tab == NULL) {
        snprintf(err, errlen, "no checksum field");
        return -1;
    }
    const char *crc_text = tab + 1;
    if (strlen(crc_text) != 8 || strspn(crc_text, "0123456789abcdef") != 8) {
        snprintf(err, errlen, "checksum field \"%.16s\" is not 8 lower-case hex digits", crc_text);
        return -1;
    }
    unsigned long want = strtoul(crc_text, NULL, 16);
    uint32_t got = hash_crc32(line, (size_t)(tab - line));
    if (got != (uint32_t)want) {
        snprintf(err, errlen, "checksum mismatch (line says %s, content gives %08x): corrupt line", crc_text,
                 (unsigned)got);
        return -1;
    }
    *tab = '\0';
    return 0;
}

/* Appends text at buf+*len (NUL kept); false if it does not fit. */
static bool s_put(char *buf, size_t *len, size_t cap, const char *text)
{
    size_t n = strlen(text);
    if (*len + n >= cap)
        return false;
    memcpy(buf + *len, text, n + 1);
    *len += n;
    return true;
}

/* Appends "\t" and text escaped; false if it does not fit. */
static bool s_put_field(char *buf, size_t *len, size_t cap, const char *text)
{
    if (!s_put(buf, len, cap, "\t"))
        return false;
    size_t k = jfile_escape(text, buf + *len, cap - *len);
    if (k == SIZE_MAX)
        return false;
    *len += k;
    return true;
}

size_t jfile_format(char *buf, size_t cap, char type, int field_nb, const char *const *field)
{
    assert(type >= 'A' && type <= 'Z' && field_nb >= 0 && field_nb <= JFILE_FIELD_MAX);
    if (cap < 2)
        return 0;
    buf[0] = type, buf[1] = '\0';
    size_t len = 1;
    for (int i = 0; i < field_nb; i++)
        if (!s_put_field(buf, &len, cap, field[i]))
            return 0;
    return s_seal(buf, len, cap);
}

/* The header this build writes for spec, with its '\n'; 0 if the key does not fit. */
static size_t s_format_header(const jfile_spec_t *spec, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "%s\t%d\t%s", s_magic, JFILE_VERSION, spec->kind);
    size_t len = (size_t)n;
    if (n < 0 || len >= cap || !s_put_field(buf, &len, cap, spec->key))
        return 0;
    return s_seal(buf, len, cap);
}

/* Splits line at TABs into at most max fields; returns the count, max + 1 if there are more. */
static int s_split(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        fields[n++] = p;
        char *tab = strchr(p, '\t');
        if (tab == NULL)
            return n;
        *tab = '\0';
        p = tab + 1;
    }
    return max + 1;
}

/* Checks the header (line 1, no '\n') against spec; sets self->version. */
static int s_check_header(jfile_t *self, char *line, const jfile_spec_t *spec, char *err, size_t errlen)
{
    char why[256], key[3 * JFILE_KEY_MAX + 1], *f[5] = {NULL};
    if (strncmp(line, s_magic, sizeof s_magic - 1) != 0 || line[sizeof s_magic - 1] != '\t') {
        snprintf(err, errlen, "journal %s: not an octad journal (the first line does not start with %s)", self->path,
                 s_magic);
        return -1;
    }
    if (s_unseal(line, why, sizeof why) != 0) {
        snprintf(err, errlen, "journal %s:1: %s", self->path, why);
        return -1;
    }
    int n = s_split(line, f, 4);
    bool v1 = n == 3 && strcmp(f[1], "1") == 0;
    if (!v1 && strcmp(f[1], "2") != 0) {
        snprintf(err, errlen, "journal %s:1: header: format version \"%.16s\" is not one this build reads (%s)",
                 self->path, f[1], spec->accept_v1 ? "1 or 2" : "2");
        return -1;
    }
    if (v1 && !spec->accept_v1) {
        snprintf(err, errlen, "journal %s:1: header: format version 1 (the cluster journal's old format) is not "
                 "read for kind \"%s\"", self->path, spec->kind);
        return -1;
    }
    if (n != (v1 ? 3 : 4)) {
        snprintf(err, errlen, "journal %s:1: header: expected %s", self->path,
                 v1 ? "OCTAD-JOURNAL, 1, key" : "OCTAD-JOURNAL, 2, kind, key");
        return -1;
    }
    if (!v1 && strcmp(f[2], spec->kind) != 0) {
        snprintf(err, errlen, "journal %s:1: header: kind \"%.40s\" is not this job's \"%s\": the file belongs to "
                 "another kind of job; use another journal file", self->path, f[2], spec->kind);
        return -1;
    }
    const char *found = f[v1 ? 2 : 3];
    if (jfile_escape(spec->key, key, sizeof key) == SIZE_MAX || strcmp(found, key) != 0) {
        snprintf(err, errlen, "journal %s belongs to another job (header field key \"%.200s\", not \"%.200s\"): "
                 "use another journal file or remove this one", self->path, found, key);
        return -1;
    }
    self->version = v1 ? 1 : JFILE_VERSION;
    return 0;
}

/* Checks one record line (no '\n') and hands it to the visitor. */
static int s_record(jfile_t *self, char *line, size_t line_no, const jfile_spec_t *spec, char *err, size_t errlen)
{
    char why[512];
    jfile_rec_t rec = {.line_no = line_no, .type = line[0]};
    int rc = s_unseal(line, why, sizeof why);
    if (rc == 0 && (rec.type < 'A' || rec.type > 'Z' || (line[1] != '\t' && line[1] != '\0'))) {
        snprintf(why, sizeof why, "record type \"%.*s\" is not one capital letter", (int)strcspn(line, "\t"), line);
        rc = -1;
    }
    if (rc == 0 && line[1] != '\0' && (rec.field_nb = s_split(line + 2, rec.field, JFILE_FIELD_MAX)) > JFILE_FIELD_MAX) {
        snprintf(why, sizeof why, "record %c: more than %d fields", rec.type, JFILE_FIELD_MAX);
        rc = -1;
    }
    if (rc == 0 && spec->visit == NULL) {
        snprintf(why, sizeof why, "record %c where none was expected", rec.type);
        rc = -1;
    }
    if (rc == 0)
        rc = spec->visit(spec->ctx, &rec, why, sizeof why);
    if (rc != 0)
        snprintf(err, errlen, "journal %s:%zu: %s", self->path, line_no, why);
    return rc;
}

/* Whether an unterminated first line is a torn copy of the header we would write. */
static bool s_is_torn_header(const char *buf, size_t len, const jfile_spec_t *spec)
{
    char want[JFILE_LINE_MAX + 1];
    size_t n = s_format_header(spec, want, sizeof want);
    return n > 0 && len < n && memcmp(buf, want, len) == 0;
}

/* Reads buf (the whole file, len bytes, NUL-terminated); sets self->size to the end of the
 * last complete line (0: the header is to be written). */
static int s_load(jfile_t *self, char *buf, size_t len, const jfile_spec_t *spec, char *err, size_t errlen)
{
    size_t pos = 0, line_no = 0;
    self->size = 0;
    while (pos < len) {
        char *line = buf + pos, *nl = memchr(line, '\n', len - pos);
        line_no++;
        if (nl == NULL) { /* a torn last line: cut off by the caller */
            if (line_no == 1 && !s_is_torn_header(buf, len, spec)) {
                snprintf(err, errlen, "journal %s: not an octad journal (one line without a newline)", self->path);
                return -1;
            }
            return 0;
        }
        *nl = '\0';
        if ((size_t)(nl - line) + 1 > JFILE_LINE_MAX) {
            snprintf(err, errlen, "journal %s:%zu: line longer than %d bytes", self->path, line_no, JFILE_LINE_MAX);
            return -1;
        }
        int rc = line_no == 1 ? s_check_header(self, line, spec, err, errlen)
                              : s_record(self, line, line_no, spec, err, errlen);
        if (rc != 0)
            return -1;
        pos = (size_t)(nl - buf) + 1;
        self->size = (off_t)pos;
    }
    return 0;
}

/* Reads the whole file into a NUL-terminated buffer the caller frees; NULL with errno. */
static char *s_read_all(int fd, size_t *len)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return NULL;
    size_t size = (size_t)st.st_size, got = 0;
    char *buf = malloc(size + 1);
    while (buf != NULL && got < size) {
        ssize_t n = pread(fd, buf + got, size - got, (off_t)got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO; /* shrunk under us: the lock is advisory */
            free(buf);
            return NULL;
        }
        got += (size_t)n;
    }
    if (buf != NULL) {
        buf[got] = '\0';
        *len = got;
    }
    return buf;
}

/* Writes len bytes at self->size and syncs; on failure cuts the file back, keeps errno. */
static int s_write_synced(jfile_t *self, const char *data, size_t len)
{
    size_t done = 0;
    errno = 0;
    while (done < len) {
        ssize_t n = pwrite(self->fd, data + done, len - done, self->size + (off_t)done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    if (done == len && fdatasync(self->fd) == 0) {
        self->size += (off_t)len;
        return 0;
    }
    int saved = errno ? errno : EIO;
    if (ftruncate(self->fd, self->size) != 0) {
        /* the torn line stays; the next open cuts it off */
    }
    errno = saved;
    return -1;
}

/* Makes a directory entry durable (best effort: some file systems refuse). */
static void s_sync_dir(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    int n = slash ? snprintf(dir, sizeof dir, "%.*s", (int)(slash - path + (slash == path)), path)
                  : snprintf(dir, sizeof dir, ".");
    if (n < 0 || (size_t)n >= sizeof dir)
        return;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

/* Cuts a torn tail and writes a new journal's header. */
static int s_prepare_tail(jfile_t *self, off_t file_size, const jfile_spec_t *spec, char *err, size_t errlen)
{
    if (self->size < file_size && (ftruncate(self->fd, self->size) != 0 || fdatasync(self->fd) != 0)) {
        snprintf(err, errlen, "journal %s: cannot cut off the torn last line: %s", self->path, strerror(errno));
        return -1;
    }
    if (self->size > 0)
        return 0;
    char line[JFILE_LINE_MAX + 1];
    size_t n = s_format_header(spec, line, sizeof line);
    if (n == 0 || s_write_synced(self, line, n) != 0) {
        snprintf(err, errlen, "journal %s: cannot write the header: %s", self->path,
                 n == 0 ? "key too long" : strerror(errno));
        return -1;
    }
    self->version = JFILE_VERSION;
    self->created = true;
    s_sync_dir(self->path);
    return 0;
}

/* Opens and locks the file; -1 with err and errno. */
static int s_open_locked(jfile_t *self, const jfile_spec_t *spec, char *err, size_t errlen)
{
    self->fd = open(self->path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (self->fd < 0) {
        snprintf(err, errlen, "journal %s: cannot open: %s", self->path, strerror(errno));
        return -1;
    }
    if (flock(self->fd, LOCK_EX | LOCK_NB) != 0) {
        int saved = errno;
        snprintf(err, errlen, "journal %s: cannot lock (%s): another process (a coordinator or octad) is using it",
                 self->path, strerror(saved));
        errno = saved;
        return -1;
    }
    if (spec->fresh && ftruncate(self->fd, 0) != 0) {
        snprintf(err, errlen, "journal %s: cannot empty: %s", self->path, strerror(errno));
        return -1;
    }
    if (strlen(spec->key) > JFILE_KEY_MAX) {
        snprintf(err, errlen, "journal %s: key longer than %d bytes", self->path, JFILE_KEY_MAX);
        errno = EINVAL;
        return -1;
    }
    return 0;
}

jfile_t *jfile_open(const char *path, const jfile_spec_t *spec, char *err, size_t errlen)
{
    assert(path && spec && spec->kind && spec->key && err);
    assert(spec->kind[0] != '\0' && strspn(spec->kind, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(spec->kind));
    jfile_t *self = calloc(1, sizeof *self);
    if (self == NULL || (self->path = strdup(path)) == NULL) {
        snprintf(err, errlen, "journal %s: out of memory", path);
        free(self);
        errno = ENOMEM;
        return NULL;
    }
    self->fd = -1;
    char *buf = NULL;
    size_t len = 0;
    if (s_open_locked(self, spec, err, errlen) != 0)
        goto err;
    if ((buf = s_read_all(self->fd, &len)) == NULL) {
        snprintf(err, errlen, "journal %s: cannot read: %s", path, strerror(errno));
        goto err;
    }
    if (s_load(self, buf, len, spec, err, errlen) != 0) {
        errno = EINVAL; /* the content is not this job's journal */
        goto err;
    }
    if (s_prepare_tail(self, (off_t)len, spec, err, errlen) != 0)
        goto err;
    free(buf);
    return self;
err:;
    int saved = errno;
    free(buf);
    jfile_destroy(&self);
    errno = saved;
    return NULL;
}

int jfile_version(const jfile_t *self)
{
    return self->version;
}

bool jfile_created(const jfile_t *self)
{
    return self->created;
}

const char *jfile_path(const jfile_t *self)
{
    return self->path;
}

int jfile_append(jfile_t *self, const char *lines, size_t len)
{
    assert(len > 0 && lines[len - 1] == '\n');
    return s_write_synced(self, lines, len);
}

int jfile_rename(jfile_t *self, const char *path)
{
    char *copy = strdup(path);
    if (copy == NULL)
        return errno = ENOMEM, -1;
    if (rename(self->path, path) != 0) {
        int saved = errno;
        free(copy);
        return errno = saved, -1;
    }
    free(self->path);
    self->path = copy;
    s_sync_dir(self->path);
    return 0;
}

/* Visits the complete lines of buf (len bytes, NUL-terminated); a last line without '\n' is not
 * visited. 0, or -1 with "path:line: message" in err. */
static int s_visit_lines(const char *path, char *buf, size_t len, jfile_line_fn visit, void *ctx, char *err,
                         size_t errlen)
{
    char why[512];
    size_t pos = 0, line_no = 0;
    while (pos < len) {
        char *line = buf + pos, *nl = memchr(line, '\n', len - pos);
        if (nl == NULL)
            return 0; /* torn by a crash: never acted upon */
        line_no++;
        *nl = '\0';
        why[0] = '\0';
        bool bad = true;
        if ((size_t)(nl - line) + 1 > JFILE_LINE_MAX)
            snprintf(why, sizeof why, "line longer than %d bytes", JFILE_LINE_MAX);
        else if (strlen(line) != (size_t)(nl - line))
            snprintf(why, sizeof why, "a NUL byte at column %zu", strlen(line) + 1);
        else
            bad = visit(ctx, line, line_no, why, sizeof why) != 0;
        if (bad) {
            snprintf(err, errlen, "%s:%zu: %s", path, line_no, why);
            return -1;
        }
        pos = (size_t)(nl - buf) + 1;
    }
    return 0;
}

int jfile_read_lines(const char *path, jfile_line_fn visit, void *ctx, char *err, size_t errlen)
{
    assert(path && visit && err);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT)
        return 1;
    size_t len = 0;
    char *buf = fd >= 0 ? s_read_all(fd, &len) : NULL;
    int saved = errno;
    if (fd >= 0)
        close(fd);
    if (buf == NULL) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(saved));
        errno = saved;
        return -1;
    }
    int rc = s_visit_lines(path, buf, len, visit, ctx, err, errlen);
    free(buf);
    if (rc != 0)
        errno = EINVAL;
    return rc;
}

void jfile_destroy(jfile_t **self_p)
{
    assert(self_p);
    jfile_t *self = *self_p;
    if (self == NULL)
        return;
    if (self->fd >= 0)
        close(self->fd);
    free(self->path);
    free(self);
    *self_p = NULL;
}
