/* verify_journal.c: the journal of octad verify-tables (see verify_journal.h). */
#include "verify_journal.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    char name[32];
    unsigned long long size, mtime_ns;
} s_entry_t;

struct verify_journal_s {
    FILE *f;
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

verify_journal_t *verify_journal_open(const char *path, char *err, size_t errlen)
{
    verify_journal_t *self = calloc(1, sizeof *self);
    if (!self) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    FILE *in = fopen(path, "r");
    char line[256], status[8], tail;
    s_entry_t e;
    while (in && fgets(line, sizeof line, in))
        if (sscanf(line, "%31s %llu %llu %7s %c", e.name, &e.size, &e.mtime_ns, status, &tail) == 4 &&
            strcmp(status, "ok") == 0 && strchr(line, '\n') && s_push(self, &e) != 0)
            break;
    if (in)
        fclose(in);
    self->f = fopen(path, "a");
    if (!self->f) {
        snprintf(err, errlen, "--journal %.300s: %s", path, strerror(errno));
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
    unsigned long long size, mtime;
    if (!s_stat(dir, name, &size, &mtime)) {
        snprintf(err, errlen, "%s: %s", name, strerror(errno));
        return -1;
    }
    if (fprintf(self->f, "%s %llu %llu ok\n", name, size, mtime) < 0 || fflush(self->f) != 0 ||
        fsync(fileno(self->f)) != 0) {
        snprintf(err, errlen, "--journal: %s", strerror(errno));
        return -1;
    }
    return 0;
}

void verify_journal_close(verify_journal_t **self_p)
{
    verify_journal_t *self = *self_p;
    if (!self)
        return;
    if (self->f)
        fclose(self->f);
    free(self->e);
    free(self);
    *self_p = NULL;
}
