/* ssolve.c: a solve job's directory, journal and report (see ssolve.h). */
#include "ssolve.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "answer.h"
#include "hash.h"
#include "index.h"
#include "sig.h"
#include "solve.h"
#include "start.h"
#include "tbfile.h"
#include "log_line.h"

/* The refs of pair i's files in DIR; false if one cannot be read. */
static bool s_refs(const ssolve_t *self, int i, msg_tableref_t *refs)
{
    char err[600];
    const sdag_pair_t *p = &self->g.pairs[i];
    for (int k = 0; k < p->ntables; k++) {
        char name[SIG_NAME_MAX];
        sig_table_name(p->tables[k], name, sizeof name);
        if (xfer_file_ref(self->dir, name, &refs[k], err, sizeof err) != 0)
            return false;
    }
    return true;
}

/* Pairs already in DIR: done, or (--verify, not recorded as verified) made and waiting for
 * a VERIFY, with their maker as the journal recorded it. */
static void s_scan(ssolve_t *self)
{
    for (int i = 0; i < self->g.n; i++) {
        sdag_pair_t *p = &self->g.pairs[i];
        msg_tableref_t refs[2];
        if (!solve_pair_done(self->dir, p->pair))
            continue;
        bool listed = !self->opts->verify;
        if (!listed && s_refs(self, i, refs)) {
            const char *maker = ssolve_journal_maker(self->journal, i, refs, p->ntables);
            listed = ssolve_journal_verified(self->journal, i, refs, p->ntables);
            snprintf(self->makers[i], sizeof self->makers[i], "%s", maker != NULL ? maker : "");
        }
        if (listed)
            sdag_preload(&self->g, i);
        else
            p->state = SDAG_MADE; /* its deps are done: they were made first */
    }
    sdag_settle(&self->g);
}

/* The positions to answer (--ofen POS, or the deployed starts) into
 * self->texts, and their tables (white to move) into tables. n, or -1 with a
 * message (a bad position). */
static int s_roots(ssolve_t *self, const opts_t *o, int *tables, char *err, size_t errlen)
{
    int n = o->starts ? START_DEPLOYED_NB : o->text ? 1 : 0;
    self->texts = n ? calloc((size_t)n, sizeof *self->texts) : NULL;
    if (n && self->texts == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    octad_init(); /* the answers' move generation, in the coordinator's own thread */
    index_init();
    for (int k = 0; k < n; k++) {
        octad_pos_t p, w;
        char perr[256];
        if (o->starts)
            start_deployed_ofen(k, self->texts[k], sizeof self->texts[k]);
        else
            snprintf(self->texts[k], sizeof self->texts[k], "%s", o->text);
        if (octad_parse(self->texts[k], &p, perr, sizeof perr) < 0) {
            snprintf(err, errlen, "--ofen: %s", perr);
            return -1;
        }
        w = p;
        if (p.side != OCTAD_WHITE)
            index_flip(&p, &w);
        tables[k] = index_table_of(&w);
    }
    self->ntexts = n;
    return n;
}

ssolve_t *ssolve_new(const opts_t *o, char *err, size_t errlen, bool *usage)
{
    char key[XFER_PATH_MAX + 64];
    int tables[START_DEPLOYED_NB];
    *usage = false;
    ssolve_t *self = calloc(1, sizeof *self);
    if (self == NULL) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    int nroots = s_roots(self, o, tables, err, errlen);
    if (nroots < 0) {
        *usage = true;
        ssolve_destroy(&self);
        return NULL;
    }
    if ((nroots ? sdag_build_for(&self->g, tables, nroots) : sdag_build(&self->g, o->max_pieces)) != 0) {
        snprintf(err, errlen, "out of memory");
        ssolve_destroy(&self);
        return NULL;
    }
    self->opts = o;
    self->local_memory = o->memory > 0 ? o->memory : solve_default_memory();
    snprintf(self->dir, sizeof self->dir, "%s", o->tables);
    self->pulls = calloc((size_t)self->g.n, sizeof *self->pulls);
    self->ready = calloc((size_t)self->g.n + 1, sizeof *self->ready);
    self->makers = calloc((size_t)self->g.n + 1, sizeof *self->makers);
    if (self->pulls == NULL || self->ready == NULL || self->makers == NULL) {
        snprintf(err, errlen, "out of memory");
        ssolve_destroy(&self);
        return NULL;
    }
    if (mkdir(self->dir, 0755) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "--tables %.300s: %s", self->dir, strerror(errno));
        *usage = true;
        ssolve_destroy(&self);
        return NULL;
    }
    if (xfer_dir_id(self->dir, true, self->dir_id, sizeof self->dir_id, err, errlen) != 0) {
        *usage = true;
        ssolve_destroy(&self);
        return NULL;
    }
    snprintf(key, sizeof key, "solve max-pieces=%d for=%d:%d verify=%d dir=%s", o->max_pieces, nroots,
             nroots ? tables[0] : -1, o->verify, self->dir_id);
    self->t.job_id = hash_job_id(key);
    self->t.variant = VARIANT_OCTAD;
    if ((self->journal = ssolve_journal_open(self->dir, self->dir_id, &self->g, err, errlen)) == NULL) {
        /* another coordinator on the directory, or a damaged journal, is bad input; a disk that fails is not */
        *usage = errno == EINVAL || errno == EWOULDBLOCK;
        ssolve_destroy(&self);
        return NULL;
    }
    if (ssolve_journal_converted(self->journal) >= 0)
        log_say(LOG_INFO, NULL, "%s/VERIFIED, the list before solve.journal, converted: %d pairs verified as V records; "
                "the list is kept as VERIFIED.old", self->dir, ssolve_journal_converted(self->journal));
    s_scan(self);
    return self;
}

void ssolve_destroy(ssolve_t **self_p)
{
    ssolve_t *self = *self_p;
    if (self == NULL)
        return;
    for (int i = 0; self->pulls && i < self->g.n; i++) {
        if (self->pulls[i] && self->pulls[i]->on)
            xfer_abort(&self->pulls[i]->x);
        free(self->pulls[i]);
    }
    free(self->pulls);
    free(self->ready);
    free(self->texts);
    tasks_close(&self->t);
    ssolve_journal_destroy(&self->journal);
    free(self->makers);
    sdag_free(&self->g);
    free(self);
    *self_p = NULL;
}

int ssolve_record_verified(ssolve_t *self, int i, const char *verifier, char *err, size_t errlen)
{
    msg_tableref_t refs[2];
    const sdag_pair_t *p = &self->g.pairs[i];
    if (!s_refs(self, i, refs)) {
        snprintf(err, errlen, "pair %s: its files are gone from %.300s", p->name, self->dir);
        return -1;
    }
    return ssolve_journal_checked(self->journal, i, verifier, refs, p->ntables, err, errlen);
}

void ssolve_reject_files(ssolve_t *self, int i)
{
    const sdag_pair_t *p = &self->g.pairs[i];
    for (int k = 0; k < p->ntables; k++) {
        char name[SIG_NAME_MAX], from[XFER_PATH_MAX + 64], to[XFER_PATH_MAX + 80];
        sig_table_name(p->tables[k], name, sizeof name);
        snprintf(from, sizeof from, "%s/%s.otb", self->dir, name);
        snprintf(to, sizeof to, "%s.rejected", from);
        rename(from, to);
    }
}

int ssolve_check_files(ssolve_t *self, int i, const msg_tableref_t *refs, int n, char *err, size_t errlen)
{
    const sdag_pair_t *p = &self->g.pairs[i];
    for (int k = 0; k < n; k++) {
        char path[XFER_PATH_MAX + 64], herr[300];
        msg_tableref_t have;
        tbfile_info_t info;
        if (xfer_file_ref(self->dir, refs[k].name, &have, err, errlen) != 0)
            return -1;
        if (have.size != refs[k].size || have.crc != refs[k].crc) {
            snprintf(err, errlen, "%s: %llu bytes, CRC-32C %08x in %.300s; SOLVED said %llu and %08x", refs[k].name,
                     (unsigned long long)have.size, have.crc, self->dir, (unsigned long long)refs[k].size,
                     refs[k].crc);
            return -1;
        }
        snprintf(path, sizeof path, "%s/%s.otb", self->dir, refs[k].name);
        if (tbfile_read_info(path, &info, herr, sizeof herr) < 0 || info.table != (uint32_t)p->tables[k]) {
            snprintf(err, errlen, "%s: bad header: %s", refs[k].name, herr);
            return -1;
        }
        /* The file CRC only shows the bytes arrived as sent: a worker can send
         * records that do not match their own checksums (a fault, a bad disk,
         * a bug); every block is decompressed and checked before the pair counts. */
        if (tbfile_check(self->dir, p->tables[k], herr, sizeof herr) < 0) {
            snprintf(err, errlen, "%s: %s", refs[k].name, herr);
            return -1;
        }
    }
    return 0;
}

/* A JSON string of text: quotes, backslashes and control bytes escaped. */
static void s_json_str(const char *text)
{
    putchar('"');
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c == '"' || *c == '\\')
            printf("\\%c", *c);
        else if (*c < 0x20)
            printf("\\u%04x", *c);
        else
            putchar(*c);
    }
    putchar('"');
}

/* The answers to --ofen or --starts from DIR's tables: NULL with a message. */
static answer_t *s_answers(const ssolve_t *self, store_t *store)
{
    answer_t *a = calloc((size_t)self->ntexts, sizeof *a);
    char err[600];
    for (int k = 0; a && k < self->ntexts; k++)
        if (answer_get(store, self->texts[k], &a[k], err, sizeof err) < 0) {
            log_say(LOG_ERROR, NULL, "%s: %s", self->texts[k], err);
            free(a);
            return NULL;
        }
    if (a == NULL)
        log_say(LOG_ERROR, NULL, "out of memory");
    return a;
}

/* Prints the answers on out: the position's value as octad probe does, or the starts. */
static void s_print_answers(const ssolve_t *self, store_t *store, const answer_t *a, bool json, FILE *out)
{
    if (self->opts->starts)
        answer_print_starts(out, a, self->ntexts, json);
    else
        answer_print(out, store, &a[0].pos, &a[0].v, json, false);
}

int ssolve_report(ssolve_t *self, const server_summary_t *sum)
{
    double seconds = sum->seconds;
    char err[600], what[64];
    if (solve_write_summary(self->dir, err, sizeof err) < 0) {
        log_say(LOG_ERROR, NULL, "%s", err);
        return -1;
    }
    store_t *store = NULL;
    answer_t *a = NULL;
    if (self->ntexts > 0 && ((store = store_new(self->dir)) == NULL || (a = s_answers(self, store)) == NULL)) {
        store_destroy(&store);
        return -1;
    }
    uint64_t positions = self->t.nodes_done;
    double rate = seconds > 0 ? (double)positions / seconds : 0;
    if (self->ntexts > 0)
        snprintf(what, sizeof what, "that %s need%s", self->opts->starts ? "the starts" : "the position",
                 self->opts->starts ? "" : "s");
    else
        snprintf(what, sizeof what, "up to %d pieces", self->opts->max_pieces);
    if (!self->opts->json) {
        printf("solved %d pairs %s (%d already there): %llu positions in %.2f s (%.2f M/s)%s; "
               "tables and SUMMARY in %s\n",
               self->g.n, what, self->g.preloaded, (unsigned long long)positions, seconds, rate / 1e6,
               self->opts->verify ? ", every pair verified on another worker" : "", self->dir);
    } else {
        printf("{\"mode\":\"solve\",\"max_pieces\":%d,\"pairs\":%d,\"already_done\":%d,\"solved\":%llu,"
               "\"verified\":%llu,\"verify\":%s,\"positions\":%llu,\"seconds\":%.3f,\"positions_per_second\":%.0f,"
               "\"coordinator_cpu_seconds\":%.3f,\"workers\":%zu,\"requeued\":%llu,\"refused\":%llu,"
               "\"rejected_chunks\":%llu,\"failed_verifications\":%llu,\"tables\":",
               self->opts->max_pieces, self->g.n, self->g.preloaded, (unsigned long long)self->solved,
               (unsigned long long)self->verified_nb, self->opts->verify ? "true" : "false",
               (unsigned long long)positions, seconds, rate, sum->cpu_seconds, sum->workers,
               (unsigned long long)sum->requeued, (unsigned long long)self->t.refusals,
               (unsigned long long)self->rejected_chunks, (unsigned long long)self->failed_checks);
        s_json_str(self->dir);
    }
    if (a != NULL) {
        if (self->opts->json)
            printf(self->opts->starts ? ",\"starts\":" : ",\"answer\":");
        s_print_answers(self, store, a, self->opts->json, stdout);
    }
    if (self->opts->json)
        printf("}\n");
    free(a);
    store_destroy(&store);
    return 0;
}

/* The answers as --json prints them, read back (NULL: none asked, or after a message). */
static json_t *s_answers_json(const ssolve_t *self)
{
    char *text = NULL;
    size_t len = 0;
    json_t *v = NULL;
    store_t *store = store_new(self->dir);
    answer_t *a = store != NULL ? s_answers(self, store) : NULL;
    FILE *mem = a != NULL ? open_memstream(&text, &len) : NULL;
    if (mem != NULL) {
        s_print_answers(self, store, a, true, mem);
        if (fclose(mem) == 0)
            v = json_loads(text, JSON_DECODE_ANY, NULL);
        free(text);
    }
    free(a);
    store_destroy(&store);
    return v;
}

int ssolve_publish(ssolve_t *self, job_publish_t *out)
{
    const opts_t *o = self->opts;
    int bad = json_object_update_new(out->job, json_pack("{s:s, s:i, s:b, s:s?, s:s}", "variant", "octad",
                                     "max_pieces", o->max_pieces, "starts", o->starts, "position", o->text,
                                     "tables", self->dir));
    bad |= json_object_update_new(out->result, json_pack("{s:i, s:i, s:I, s:I, s:I, s:I, s:I}", "pairs", self->g.n,
                                  "already_done", self->g.preloaded, "solved", (json_int_t)self->solved,
                                  "verified", (json_int_t)self->verified_nb, "positions",
                                  (json_int_t)self->t.nodes_done, "rejected_chunks",
                                  (json_int_t)self->rejected_chunks, "failed_verifications",
                                  (json_int_t)self->failed_checks));
    if (self->ntexts > 0) {
        json_t *answers = s_answers_json(self);
        bad |= answers == NULL || json_object_set_new(out->result, o->starts ? "starts" : "answer", answers) != 0;
    }
    out->contributors = tasks_credit(&self->t);
    out->amount_noun = "positions";
    return bad ? -1 : 0;
}
