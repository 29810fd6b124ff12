/* verify_journal.c: the journal of octad verify-tables, a jfile of kind verify-tables (see
 * verify_journal.h), and the conversion of the format before it. */
#include "verify_journal.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jfile.h"

static const char s_kind[] = "verify-tables";

typedef struct {
    char name[32];
    unsigned long long size, mtime_ns;
} s_entry_t;

struct verify_journal_s {
    jfile_t *file;
    s_entry_t *e;
    size_t n, cap;
};

/* The size and modification time of dir/name.otb; false if it cannot be read. */
static bool s_stat(const char *dir, const char *name, unsigned long long *size, unsigned long long *mtime_ns)
{
    char path[4200];
    struct stat sb;
    snprintf(path, sizeof path, "%s/%s.otb", dir, name);
    if (stat(path, &sb) != 0)
        return false;
    *size = (unsigned long long)sb.st_size;
    *mtime_ns = (unsigned long long)sb.st_mtim.tv_sec * 1000000000ull + (unsigned long long)sb.st_mtim.tv_nsec;
    return true;
}

static int s_push(verify_journal_t *self, const s_entry_t *e)
{
    if (self->n == self->cap) {
        size_t cap = self->cap ? 2 * self->cap : 64;
        s_entry_t *grown = realloc(self->e, cap * sizeof *grown);
        if (!grown)
            return -1;
        self->e = grown, self->cap = cap;
    }
    self->e[self->n++] = *e;
    return 0;
}

/* A decimal 64-bit number, the whole text; -1 if not. */
static int s_parse_u64(const char *text, unsigned long long *out)
{
    char *end;
    errno = 0;
    if (text[0] < '0' || text[0] > '9')
        return -1;
    *out = strtoull(text, &end, 10);
    return errno == 0 && *end == '\0' ? 0 : -1;
}

/* jfile's visitor: a V record. */
static int s_visit(void *ctx, jfile_rec_t *rec, char *err, size_t errlen)
{
    verify_journal_t *self = ctx;
    s_entry_t e;
    if (rec->type != 'V' || rec->field_nb != 3) {
        snprintf(err, errlen, "record %c with %d fields: verify-tables keeps V records of 3 fields (name, size, "
                 "mtime_ns)", rec->type, rec->field_nb);
        return -1;
    }
    if (jfile_unescape(rec->field[0], e.name, sizeof e.name) != 0 || e.name[0] == '\0') {
        snprintf(err, errlen, "V: name \"%.40s\" is empty, badly escaped or longer than %zu bytes", rec->field[0],
                 sizeof e.name - 1);
        return -1;
    }
    if (s_parse_u64(rec->field[1], &e.size) != 0) {
        snprintf(err, errlen, "V: size \"%.40s\" is not a decimal number", rec->field[1]);
        return -1;
    }
    if (s_parse_u64(rec->field[2], &e.mtime_ns) != 0) {
        snprintf(err, errlen, "V: mtime_ns \"%.40s\" is not a decimal number", rec->field[2]);
        return -1;
    }
    if (s_push(self, &e) == 0)
        return 0;
    snprintf(err, errlen, "out of memory");
    return -1;
}

/* Appends and syncs e's record. 0, or -1 with errno. */
static int s_append(verify_journal_t *self, const s_entry_t *e)
{
    char size[24], mtime[24], line[JFILE_LINE_MAX];
    snprintf(size, sizeof size, "%llu", e->size);
    snprintf(mtime, sizeof mtime, "%llu", e->mtime_ns);
    const char *f[3] = {e->name, size, mtime};
    size_t n = jfile_format(line, sizeof line, 'V', 3, f);
    if (n == 0)
        return errno = EINVAL, -1;
    return jfile_append(self->file, line, n);
}

/* Whether path holds text that is not a journal: the format before it (a missing or empty
 * file, or the start of a journal's header, is not). */
static bool s_is_old_format(const char *path)
{
    static const char magic[] = "OCTAD-JOURNAL\t";
    char head[sizeof magic - 1];
    FILE *in = fopen(path, "r");
    size_t n = in != NULL ? fread(head, 1, sizeof head, in) : 0;
    if (in != NULL)
        fclose(in);
    return n > 0 && memcmp(head, magic, n) != 0;
}

/* Reads the lines of the old format (`NAME SIZE MTIME_NS ok`) into self; a line that does
 * not parse (a torn last line) is skipped, as that format's reader did. */
static int s_read_old(verify_journal_t *self, const char *path, char *err, size_t errlen)
{
    FILE *in = fopen(path, "r");
    char line[256], status[8], tail;
    s_entry_t e;
    if (in == NULL) {
        snprintf(err, errlen, "--journal %.300s: %s", path, strerror(errno));
        return -1;
    }
    while (fgets(line, sizeof line, in))
        if (sscanf(line, "%31s %llu %llu %7s %c", e.name, &e.size, &e.mtime_ns, status, &tail) == 4 &&
            strcmp(status, "ok") == 0 && strchr(line, '\n') && s_push(self, &e) != 0) {
            fclose(in);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    fclose(in);
    return 0;
}

/* Converts the old file at path: its entries are written to a new journal under PATH.new,
 * the old file is linked as PATH.old, then the journal takes PATH's name (rename(2)), so
 * that PATH is at every moment either the old file or the whole new journal. */
static int s_convert(verify_journal_t *self, const char *path, jfile_spec_t spec, char *err, size_t errlen)
{
    char tmp[PATH_MAX + 8], old[PATH_MAX + 8];
    snprintf(tmp, sizeof tmp, "%s.new", path);
    snprintf(old, sizeof old, "%s.old", path);
    if (s_read_old(self, path, err, errlen) != 0)
        return -1;
    spec.fresh = true; /* a conversion that a crash interrupted starts again */
    spec.visit = NULL;
    if ((self->file = jfile_open(tmp, &spec, err, errlen)) == NULL)
        return -1;
    for (size_t i = 0; i < self->n; i++)
        if (s_append(self, &self->e[i]) != 0) {
            snprintf(err, errlen, "journal %.300s: %s", tmp, strerror(errno));
            return -1;
        }
    if ((unlink(old) != 0 && errno != ENOENT) || link(path, old) != 0 || jfile_rename(self->file, path) != 0) {
        snprintf(err, errlen, "journal %.300s: cannot keep the old file as %.300s and take its place: %s", path, old,
                 strerror(errno));
        return -1;
    }
    fprintf(stderr, "octad verify-tables: %s: %zu tables of the format before the journal converted; the old "
            "file is kept as %s\n", path, self->n, old);
    return 0;
}

verify_journal_t *verify_journal_open(const char *path, const char *dir, char *err, size_t errlen)
{
    verify_journal_t *self = calloc(1, sizeof *self);
    char real[PATH_MAX], jerr[1200];
    if (!self) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    /* The key is the directory's real path: the same tables however they are named. */
    jfile_spec_t spec = {.kind = s_kind, .key = realpath(dir, real) ? real : dir, .visit = s_visit, .ctx = self};
    int rc = s_is_old_format(path) ? s_convert(self, path, spec, jerr, sizeof jerr)
                                   : (self->file = jfile_open(path, &spec, jerr, sizeof jerr)) != NULL ? 0 : -1;
    if (rc != 0) {
        snprintf(err, errlen, "--journal: %s", jerr);
        verify_journal_close(&self);
        return NULL;
    }
    return self;
}

bool verify_journal_done(const verify_journal_t *self, const char *dir, const char *name)
{
    unsigned long long size, mtime;
    if (!s_stat(dir, name, &size, &mtime))
        return false;
    for (size_t i = 0; i < self->n; i++)
        if (strcmp(self->e[i].name, name) == 0 && self->e[i].size == size && self->e[i].mtime_ns == mtime)
            return true;
    return false;
}

int verify_journal_add(verify_journal_t *self, const char *dir, const char *name, char *err, size_t errlen)
{
    s_entry_t e;
    if (!s_stat(dir, name, &e.size, &e.mtime_ns)) {
        snprintf(err, errlen, "%s: %s", name, strerror(errno));
        return -1;
    }
    snprintf(e.name, sizeof e.name, "%s", name);
    if (s_append(self, &e) != 0 || s_push(self, &e) != 0) {
        snprintf(err, errlen, "--journal %s: %s", jfile_path(self->file), strerror(errno));
        return -1;
    }
    return 0;
}

void verify_journal_close(verify_journal_t **self_p)
{
    verify_journal_t *self = *self_p;
    if (!self)
        return;
    jfile_destroy(&self->file);
    free(self->e);
    free(self);
    *self_p = NULL;
}
