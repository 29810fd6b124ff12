/* wsolve_run.c: one pair solved or verified on the worker's pool (see wsolve_run.h). */
#include "wsolve_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "index.h"
#include "octad/octad.h"
#include "sig.h"
#include "solve.h"
#include "store.h"
#include "tbfile.h"
#include "vt_check.h"
#include "vt_index.h"
#include "vt_material.h"
#include "vt_store.h"
#include "xfer.h"

void wsolve_run_init(void)
{
    octad_init();
    sig_init();
    index_init(); /* solve_pair's index tables (core/solve/index.h: the one call outside solve.h/store.h/sig.h) */
    vt_material_init();
    vt_index_init();
}

int wsolve_run_prepare(wsolve_task_t *r, const msg_t *m, const char *dir, char *err, size_t errlen)
{
    bool verify = m->type == MSG_VERIFY;
    const char *pair = verify ? m->u.verify.pair : m->u.solve.pair;
    int table;
    memset(r, 0, sizeof *r);
    r->task_id = verify ? m->u.verify.task_id : m->u.solve.task_id;
    r->job_id = verify ? m->u.verify.job_id : m->u.solve.job_id;
    if (!xfer_table_name_ok(pair, &table) || sig_pair_table(sig_pair_of(table)) != table) {
        snprintf(err, errlen, "%s: not the primary table of a pair", pair);
        return -1;
    }
    r->verify = verify;
    snprintf(r->name, sizeof r->name, "%s", pair);
    r->pair = sig_pair_of(table);
    r->tables[0] = table;
    r->tables[1] = sig_table_flip(table);
    r->ntables = r->tables[1] == table ? 1 : 2;
    snprintf(r->dir, sizeof r->dir, "%s", dir);
    if (verify) {
        if ((int)m->u.verify.n_tables != r->ntables) {
            snprintf(err, errlen, "%s: VERIFY lists %u tables, the pair has %d", pair, m->u.verify.n_tables,
                     r->ntables);
            return -1;
        }
        for (int k = 0; k < r->ntables; k++) {
            char name[SIG_NAME_MAX];
            sig_table_name(r->tables[k], name, sizeof name);
            if (strcmp(name, m->u.verify.tables[k].name) != 0) {
                snprintf(err, errlen, "%s: VERIFY table %d is %s, not %s", pair, k + 1, m->u.verify.tables[k].name,
                         name);
                return -1;
            }
        }
    }
    return 0;
}

static double s_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Testing only (--test-damage): flips a bit of the last byte of the pair's
 * first file, after its checksums were written. */
static void s_damage(const wsolve_task_t *r)
{
    char name[SIG_NAME_MAX], path[4200];
    sig_table_name(r->tables[0], name, sizeof name);
    snprintf(path, sizeof path, "%s/%s.otb", r->dir, name);
    FILE *f = fopen(path, "r+b");
    if (f == NULL || fseek(f, -1, SEEK_END) != 0) {
        if (f)
            fclose(f);
        return;
    }
    int c = fgetc(f);
    fseek(f, -1, SEEK_END);
    fputc(c ^ 0x08, f);
    fclose(f);
}

/* Testing only (--test-spoil): the pair's first file rewritten with one
 * legal record's value changed and every checksum sound, as a faulty
 * generator would write it: only a verification can tell. */
static void s_spoil(const wsolve_task_t *r)
{
    tbfile_t f;
    tbfile_info_t info;
    char err[300];
    if (tbfile_read(r->dir, r->tables[0], &f, err, sizeof err) < 0)
        return;
    rec_t *recs = malloc(sizeof *recs * (f.info.nrecords ? f.info.nrecords : 1));
    if (recs) {
        memcpy(recs, f.recs, sizeof *recs * f.info.nrecords);
        for (uint64_t i = 0; i < f.info.nrecords; i++)
            if (rec_wdl(recs[i]) != REC_INVALID) {
                recs[i] = rec_wdl(recs[i]) == REC_DRAW ? rec_make(REC_WIN, 1, 1) : rec_make(REC_DRAW, 0, 0);
                break;
            }
        tbfile_write(r->dir, &f.layout, recs, &info, err, sizeof err);
        free(recs);
    }
    tbfile_close(&f);
}

static void s_solve(const wsolve_task_t *r, store_t **store, int threads, wsolve_result_t *out, double t0)
{
    char err[600];
    if (*store == NULL)
        *store = store_new(r->dir); /* child tables stay loaded for the next pairs, as in solve_all */
    solve_opts_t so = {.dir = r->dir, .max_pieces = 8, .threads = threads};
    gen_stats_t st = {0};
    if (*store == NULL || solve_pair(*store, r->pair, &so, &st, err, sizeof err) < 0) {
        snprintf(out->err, sizeof out->err, "%.255s", *store ? err : "out of memory");
        out->failed = true;
        store_destroy(store); /* a failed solve leaves nothing half-put behind */
        return;
    }
    if (r->corrupt)
        s_spoil(r);
    if (r->damage)
        s_damage(r);
    msg_init(&out->answer, MSG_SOLVED);
    msg_solved_t *s = &out->answer.u.solved;
    s->task_id = r->task_id;
    s->job_id = r->job_id;
    for (int k = 0; k < r->ntables; k++) {
        char name[SIG_NAME_MAX];
        sig_table_name(r->tables[k], name, sizeof name);
        if (xfer_file_ref(r->dir, name, &s->tables[k], err, sizeof err) != 0) {
            snprintf(out->err, sizeof out->err, "%.255s", err);
            out->failed = true;
            return;
        }
    }
    s->n_tables = (uint32_t)r->ntables;
    s->positions = st.positions;
    s->elapsed_ms = (uint64_t)((s_now() - t0) * 1000);
}

static void s_verify(const wsolve_task_t *r, int threads, wsolve_result_t *out, double t0)
{
    vt_report_t *rep = malloc(sizeof *rep);
    vt_store_t *st = vt_store_new(r->dir);
    msg_init(&out->answer, MSG_VERIFIED);
    msg_verified_t *v = &out->answer.u.verified;
    v->task_id = r->task_id;
    v->job_id = r->job_id;
    v->ok = rep != NULL && st != NULL;
    if (!v->ok)
        snprintf(v->first_error, sizeof v->first_error, "out of memory");
    vt_check_opts_t opts = {.threads = threads, .progress = NULL};
    for (int k = 0; k < r->ntables && rep && st; k++) {
        char name[VT_NAME_MAX], err[600];
        vt_table_name(r->tables[k], name); /* the verifier's own names: the same as sig's */
        const vt_table_t *t = vt_store_get(st, vt_table_parse(name), err, sizeof err);
        int rc = t ? vt_check_table(st, t, &opts, rep) : 2;
        if (t) {
            v->records += rep->records;
            v->failures += rep->failures;
        }
        if (rc != 0 && v->ok) {
            const char *why = !t ? err : rep->fatal[0] ? rep->fatal : rep->nkept > 0 ? rep->kept[0] : "inconsistent";
            snprintf(v->first_error, sizeof v->first_error, "%s: %.220s", name, why);
        }
        if (rc != 0)
            v->ok = false;
    }
    vt_store_destroy(&st);
    free(rep);
    v->elapsed_ms = (uint64_t)((s_now() - t0) * 1000);
}

void wsolve_run(const wsolve_task_t *t, store_t **store, int threads, wsolve_result_t *out)
{
    double t0 = s_now();
    *out = (wsolve_result_t){.in_shared = t->shared};
    memcpy(out->name, t->name, sizeof out->name);
    if (t->verify)
        s_verify(t, threads, out, t0);
    else
        s_solve(t, store, threads, out, t0);
}
