/* ssolve_journal.c: DIR/solve.journal, the pairs made and verified (see ssolve_journal.h). */
#include "ssolve_journal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfile.h"
#include "sig.h"
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
    bool *has_v;                          /* by sig pair: a V record, of any graph, is in the file */
    int converted;                        /* V records made from DIR/VERIFIED when opened, -1 none */
};

/* A file as DIR/VERIFIED last listed it (version 1, `NAME SIZE CRC WORKER` lines). */
typedef struct {
    msg_tableref_t ref;
    char who[SSOLVE_PRINCIPAL_MAX];
    size_t line_no;                       /* 0: not listed */
} s_listed_t;

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
    int k = s_find(self->g, pair), table;
    char ignored[64];
    if (k >= 0) /* else a pair of another job in this directory */
        s_keep(&self->pairs[k], rec->type, who, refs, n);
    if (rec->type == 'V' && sig_table_parse(pair, &table, ignored, sizeof ignored) == 0)
        self->has_v[sig_pair_of(table)] = true;
    return 0;
}

bool ssolve_journal_verified(const ssolve_journal_t *self, int k, const msg_tableref_t *refs, int n)
{
    const s_pair_t *p = &self->pairs[k];
    return s_same(p->verified, p->verified_nb, refs, n);
}

const char *ssolve_journal_maker(const ssolve_journal_t *self, int k, const msg_tableref_t *refs, int n)
{
    const s_pair_t *p = &self->pairs[k];
    return s_same(p->made, p->made_nb, refs, n) ? p->maker : NULL;
}

/* Formats an M or V record of the pair named pair into line (JFILE_LINE_MAX bytes); its
 * length, 0 if it does not fit. */
static size_t s_format(char *line, char type, const char *pair, const char *who, const msg_tableref_t *refs, int n)
{
    char size[2][24], crc[2][12];
    const char *f[8] = {pair, who};
    for (int c = 0; c < n; c++) {
        snprintf(size[c], sizeof size[c], "%llu", (unsigned long long)refs[c].size);
        snprintf(crc[c], sizeof crc[c], "%08x", (unsigned)refs[c].crc);
        f[2 + 3 * c] = refs[c].name, f[3 + 3 * c] = size[c], f[4 + 3 * c] = crc[c];
    }
    return jfile_format(line, JFILE_LINE_MAX, type, 2 + 3 * n, f);
}

/* Appends one M or V record of pair k and keeps it. */
static int s_append(ssolve_journal_t *self, char type, int k, const char *who, const msg_tableref_t *refs, int n,
                    char *err, size_t errlen)
{
    char line[JFILE_LINE_MAX];
    size_t len = s_format(line, type, self->g->pairs[k].name, who, refs, n);
    if (len == 0 || jfile_append(self->file, line, len) != 0) {
        snprintf(err, errlen, "journal %.300s: cannot record pair %s: %s", jfile_path(self->file),
                 self->g->pairs[k].name, len == 0 ? "record too long" : strerror(errno));
        return -1;
    }
    s_keep(&self->pairs[k], type, who, refs, n);
    return 0;
}

/* Reads one line of DIR/VERIFIED into listed (by table id; the last listing of a file
 * counts): `NAME SIZE CRC WORKER`, one space apart, as the coordinator before the journal
 * wrote them (NAME a table's file name, SIZE decimal bytes, CRC its CRC-32C in 8 lower-case
 * hex digits, WORKER the verifier's name: the rest of the line). */
static int s_old_line(void *ctx, char *line, size_t line_no, char *err, size_t errlen)
{
    s_listed_t *listed = ctx;
    char *f[3], *rest = line, *end, why[128], name[SIG_NAME_MAX];
    int table;
    for (int c = 0; c < 3; c++) {
        char *sp = strchr(rest, ' ');
        if (sp == NULL) {
            snprintf(err, errlen, "%d field%s: expected NAME SIZE CRC WORKER, one space apart", c + 1,
                     c ? "s" : "");
            return -1;
        }
        *sp = '\0';
        f[c] = rest;
        rest = sp + 1;
    }
    if (sig_table_parse(f[0], &table, why, sizeof why) != 0) {
        snprintf(err, errlen, "NAME \"%.40s\": %s", f[0], why);
        return -1;
    }
    sig_table_name(table, name, sizeof name);
    if (strcmp(name, f[0]) != 0) {
        snprintf(err, errlen, "NAME \"%.40s\" is not spelt as the table's file (%s)", f[0], name);
        return -1;
    }
    s_listed_t *l = &listed[table];
    errno = 0;
    l->ref.size = strtoull(f[1], &end, 10);
    if (f[1][0] < '0' || f[1][0] > '9' || *end != '\0' || errno != 0) {
        snprintf(err, errlen, "SIZE \"%.40s\" is not a decimal number", f[1]);
        return -1;
    }
    if (strlen(f[2]) != 8 || strspn(f[2], "0123456789abcdef") != 8) {
        snprintf(err, errlen, "CRC \"%.40s\" is not 8 lower-case hex digits", f[2]);
        return -1;
    }
    l->ref.crc = (uint32_t)strtoul(f[2], NULL, 16);
    if (rest[0] == '\0' || strlen(rest) >= sizeof l->who) {
        snprintf(err, errlen, "WORKER \"%.70s\" is empty or longer than %zu bytes", rest, sizeof l->who - 1);
        return -1;
    }
    snprintf(l->ref.name, sizeof l->ref.name, "%s", name);
    snprintf(l->who, sizeof l->who, "%s", rest);
    l->line_no = line_no;
    return 0;
}

/* The V record that listed makes of sig pair i into line: when DIR/VERIFIED lists every file of
 * the pair, its files as last listed and the WORKER of the latest of those lines. Its length, 0
 * if none. */
static size_t s_old_record(ssolve_journal_t *self, const s_listed_t *listed, int i, char *line)
{
    int t = sig_pair_table(i), tables[2] = {t, sig_table_flip(t)}, n = tables[1] == t ? 1 : 2, last = 0;
    msg_tableref_t refs[2];
    char pair[SIG_NAME_MAX];
    for (int c = 0; c < n; c++) {
        if (listed[tables[c]].line_no == 0)
            return 0;
        refs[c] = listed[tables[c]].ref;
        if (listed[tables[c]].line_no > listed[tables[last]].line_no)
            last = c;
    }
    sig_table_name(t, pair, sizeof pair);
    const char *who = listed[tables[last]].who;
    size_t len = s_format(line, 'V', pair, who, refs, n);
    int k = s_find(self->g, pair);
    if (len > 0 && k >= 0)
        s_keep(&self->pairs[k], 'V', who, refs, n);
    return len;
}

/* Appends the V records of every pair the list names and the journal does not (its V records
 * are newer: the list was no longer written once the journal was) in one synced write;
 * counts them in self->converted. 0, or -1 with err and errno. */
static int s_append_old(ssolve_journal_t *self, const s_listed_t *listed, char *err, size_t errlen)
{
    char line[JFILE_LINE_MAX], *buf = NULL;
    size_t len = 0, cap = 0;
    for (int i = 0; i < sig_pair_nb(); i++) {
        size_t n = self->has_v[i] ? 0 : s_old_record(self, listed, i, line);
        if (n == 0)
            continue;
        if (len + n > cap) {
            char *grown = realloc(buf, cap = 2 * cap + 2 * JFILE_LINE_MAX);
            if (grown == NULL) {
                free(buf);
                snprintf(err, errlen, "out of memory");
                return errno = ENOMEM, -1;
            }
            buf = grown;
        }
        memcpy(buf + len, line, n);
        len += n;
        self->has_v[i] = true;
        self->converted++;
    }
    int rc = len > 0 ? jfile_append(self->file, buf, len) : 0;
    if (rc != 0)
        snprintf(err, errlen, "journal %.300s: cannot record the pairs of VERIFIED: %s", jfile_path(self->file),
                 strerror(errno));
    free(buf);
    return rc;
}

/* Converts DIR/VERIFIED, the list of verified files an earlier coordinator kept (version 1),
 * into V records, then keeps it as DIR/VERIFIED.old. A crash in between converts it again and
 * finds the records already there. No file: nothing done. 0, or -1 with err and errno (EINVAL:
 * a damaged line, named by its number). */
static int s_convert_old(ssolve_journal_t *self, const char *dir, char *err, size_t errlen)
{
    char path[XFER_PATH_MAX + 16], old[XFER_PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/VERIFIED", dir);
    snprintf(old, sizeof old, "%s/VERIFIED.old", dir);
    s_listed_t *listed = calloc(SIG_TABLE_NB, sizeof *listed);
    if (listed == NULL) {
        snprintf(err, errlen, "out of memory");
        return errno = ENOMEM, -1;
    }
    int rc = jfile_read_lines(path, s_old_line, listed, err, errlen);
    if (rc == 0) {
        self->converted = 0;
        rc = s_append_old(self, listed, err, errlen);
        if (rc == 0 && rename(path, old) != 0) {
            snprintf(err, errlen, "%.300s: cannot keep it as %.300s: %s", path, old, strerror(errno));
            rc = -1;
        }
    }
    int saved = errno;
    free(listed);
    errno = saved;
    return rc < 0 ? -1 : 0;
}

ssolve_journal_t *ssolve_journal_open(const char *dir, const char *dir_id, const sdag_t *g, char *err, size_t errlen)
{
    char path[XFER_PATH_MAX + 32];
    ssolve_journal_t *self = calloc(1, sizeof *self);
    if (self == NULL || (self->pairs = calloc((size_t)g->n + 1, sizeof *self->pairs)) == NULL ||
        (self->has_v = calloc((size_t)sig_pair_nb(), sizeof *self->has_v)) == NULL) {
        ssolve_journal_destroy(&self);
        snprintf(err, errlen, "out of memory");
        return errno = ENOMEM, NULL;
    }
    self->g = g;
    self->converted = -1;
    snprintf(path, sizeof path, "%s/solve.journal", dir);
    jfile_spec_t spec = {.kind = "solve", .key = dir_id, .visit = s_visit, .ctx = self};
    if ((self->file = jfile_open(path, &spec, err, errlen)) == NULL || s_convert_old(self, dir, err, errlen) != 0) {
        int saved = errno;
        ssolve_journal_destroy(&self);
        errno = saved;
    }
    return self;
}

int ssolve_journal_converted(const ssolve_journal_t *self)
{
    return self->converted;
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
    free(self->has_v);
    free(self);
    *self_p = NULL;
}
