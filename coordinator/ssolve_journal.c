/* ssolve_journal.c: DIR/solve.journal, the pairs made and verified (see ssolve_journal.h). */
#include "ssolve_journal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfile.h"
#include "xfer.h"

/* What the journal says of one pair of the graph. */
typedef struct {
    msg_tableref_t made[2], verified[2];
    int made_nb, verified_nb;             /* 0: no record */
    char maker[SSOLVE_PRINCIPAL_MAX];
} s_pair_t;

struct ssolve_journal_s {
    jfile_t *file;
    const sdag_t *g;
    s_pair_t *pairs;                      /* g->n */
    char dir[XFER_PATH_MAX];
};

/* The index of the pair whose primary table is name, -1 if none of this graph. */
static int s_find(const sdag_t *g, const char *name)
{
    for (int k = 0; k < g->n; k++)
        if (strcmp(g->pairs[k].name, name) == 0)
            return k;
    return -1;
}

static bool s_same(const msg_tableref_t *a, int na, const msg_tableref_t *b, int nb)
{
    if (na != nb || na == 0)
        return false;
    for (int c = 0; c < na; c++)
        if (strcmp(a[c].name, b[c].name) != 0 || a[c].size != b[c].size || a[c].crc != b[c].crc)
            return false;
    return true;
}

/* Keeps what an M or V record of a pair says: the last one counts. */
static void s_keep(s_pair_t *p, char type, const char *who, const msg_tableref_t *refs, int n)
{
    if (type == 'M') {
        memcpy(p->made, refs, (size_t)n * sizeof *refs);
        p->made_nb = n;
        snprintf(p->maker, sizeof p->maker, "%s", who);
    } else {
        memcpy(p->verified, refs, (size_t)n * sizeof *refs);
        p->verified_nb = n;
    }
}

/* Parses the files of an M or V record (fields 2.. of rec) into refs; their count, or -1 with err. */
static int s_parse_refs(const jfile_rec_t *rec, msg_tableref_t *refs, char *err, size_t errlen)
{
    int n = (rec->field_nb - 2) / 3;
    if (rec->field_nb < 5 || (rec->field_nb - 2) % 3 != 0 || n > 2) {
        snprintf(err, errlen, "record %c with %d fields: expected pair, worker and 1 or 2 files (name, size, crc)",
                 rec->type, rec->field_nb);
        return -1;
    }
    for (int c = 0; c < n; c++) {
        char *const *f = &rec->field[2 + 3 * c], *end;
        if (jfile_unescape(f[0], refs[c].name, sizeof refs[c].name) != 0 || refs[c].name[0] == '\0') {
            snprintf(err, errlen, "%c: file %d: name \"%.40s\" is empty or too long", rec->type, c + 1, f[0]);
            return -1;
        }
        errno = 0;
        refs[c].size = strtoull(f[1], &end, 10);
        if (f[1][0] < '0' || f[1][0] > '9' || *end != '\0' || errno != 0) {
            snprintf(err, errlen, "%c: file %d: size \"%.40s\" is not a decimal number", rec->type, c + 1, f[1]);
            return -1;
        }
        unsigned long crc = strtoul(f[2], &end, 16);
        if (strlen(f[2]) != 8 || strspn(f[2], "0123456789abcdef") != 8 || *end != '\0') {
            snprintf(err, errlen, "%c: file %d: crc \"%.40s\" is not 8 lower-case hex digits", rec->type, c + 1, f[2]);
            return -1;
        }
        refs[c].crc = (uint32_t)crc;
    }
    return n;
}

/* jfile's visitor: an M or a V record; the last one of a pair counts. */
static int s_visit(void *ctx, jfile_rec_t *rec, char *err, size_t errlen)
{
    ssolve_journal_t *self = ctx;
    msg_tableref_t refs[2];
    char pair[MSG_TABLE_NAME_MAX], who[SSOLVE_PRINCIPAL_MAX];
    if (rec->type != 'M' && rec->type != 'V') {
        snprintf(err, errlen, "record type %c is not one of the solve journal's (M, V)", rec->type);
        return -1;
    }
    int n = s_parse_refs(rec, refs, err, errlen);
    if (n < 0)
        return -1;
    if (jfile_unescape(rec->field[0], pair, sizeof pair) != 0 || pair[0] == '\0') {
        snprintf(err, errlen, "%c: pair \"%.40s\" is empty or too long", rec->type, rec->field[0]);
        return -1;
    }
    if (jfile_unescape(rec->field[1], who, sizeof who) != 0 || who[0] == '\0') {
        snprintf(err, errlen, "%c: worker \"%.70s\" is empty or too long", rec->type, rec->field[1]);
        return -1;
    }
    int k = s_find(self->g, pair);
    if (k >= 0) /* else a pair of another job in this directory */
        s_keep(&self->pairs[k], rec->type, who, refs, n);
    return 0;
}

ssolve_journal_t *ssolve_journal_open(const char *dir, const char *dir_id, const sdag_t *g, char *err, size_t errlen)
{
    char path[XFER_PATH_MAX + 32];
    ssolve_journal_t *self = calloc(1, sizeof *self);
    if (self == NULL || (self->pairs = calloc((size_t)g->n + 1, sizeof *self->pairs)) == NULL) {
        free(self);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    self->g = g;
    snprintf(self->dir, sizeof self->dir, "%s", dir);
    snprintf(path, sizeof path, "%s/solve.journal", dir);
    jfile_spec_t spec = {.kind = "solve", .key = dir_id, .visit = s_visit, .ctx = self};
    if ((self->file = jfile_open(path, &spec, err, errlen)) == NULL) {
        int saved = errno;
        ssolve_journal_destroy(&self);
        errno = saved;
    }
    return self;
}

/* Whether DIR/VERIFIED (an earlier coordinator's list) names this file with its size and CRC. */
static bool s_listed_before(const char *dir, const msg_tableref_t *ref)
{
    char path[XFER_PATH_MAX + 16], line[512], name[MSG_TABLE_NAME_MAX];
    unsigned long long size;
    unsigned crc;
    snprintf(path, sizeof path, "%s/VERIFIED", dir);
    FILE *f = fopen(path, "r");
    bool found = false;
    while (f != NULL && !found && fgets(line, sizeof line, f) != NULL)
        found = sscanf(line, "%31s %llu %x", name, &size, &crc) == 3 && strcmp(name, ref->name) == 0 &&
                size == ref->size && crc == ref->crc;
    if (f != NULL)
        fclose(f);
    return found;
}

bool ssolve_journal_verified(const ssolve_journal_t *self, int k, const msg_tableref_t *refs, int n)
{
    const s_pair_t *p = &self->pairs[k];
    if (s_same(p->verified, p->verified_nb, refs, n))
        return true;
    bool listed = n > 0;
    for (int c = 0; c < n && listed; c++)
        listed = s_listed_before(self->dir, &refs[c]);
    return listed;
}

const char *ssolve_journal_maker(const ssolve_journal_t *self, int k, const msg_tableref_t *refs, int n)
{
    const s_pair_t *p = &self->pairs[k];
    return s_same(p->made, p->made_nb, refs, n) ? p->maker : NULL;
}

/* Appends one M or V record of pair k and keeps it. */
static int s_append(ssolve_journal_t *self, char type, int k, const char *who, const msg_tableref_t *refs, int n,
                    char *err, size_t errlen)
{
    char size[2][24], crc[2][12], line[JFILE_LINE_MAX];
    const char *f[8] = {self->g->pairs[k].name, who};
    for (int c = 0; c < n; c++) {
        snprintf(size[c], sizeof size[c], "%llu", (unsigned long long)refs[c].size);
        snprintf(crc[c], sizeof crc[c], "%08x", (unsigned)refs[c].crc);
        f[2 + 3 * c] = refs[c].name, f[3 + 3 * c] = size[c], f[4 + 3 * c] = crc[c];
    }
    size_t len = jfile_format(line, sizeof line, type, 2 + 3 * n, f);
    if (len == 0 || jfile_append(self->file, line, len) != 0) {
        snprintf(err, errlen, "journal %.300s: cannot record pair %s: %s", jfile_path(self->file),
                 self->g->pairs[k].name, len == 0 ? "record too long" : strerror(errno));
        return -1;
    }
    s_keep(&self->pairs[k], type, who, refs, n);
    return 0;
}

int ssolve_journal_made(ssolve_journal_t *self, int k, const char *who, const msg_tableref_t *refs, int n, char *err,
                        size_t errlen)
{
    return s_append(self, 'M', k, who, refs, n, err, errlen);
}

int ssolve_journal_checked(ssolve_journal_t *self, int k, const char *who, const msg_tableref_t *refs, int n,
                           char *err, size_t errlen)
{
    return s_append(self, 'V', k, who, refs, n, err, errlen);
}

void ssolve_journal_destroy(ssolve_journal_t **self_p)
{
    ssolve_journal_t *self = *self_p;
    if (self == NULL)
        return;
    jfile_destroy(&self->file);
    free(self->pairs);
    free(self);
    *self_p = NULL;
}
