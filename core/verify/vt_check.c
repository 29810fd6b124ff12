/* vt_check.c: workers take chunks of slots from a shared counter; each slot
 * is decoded, tested for legality, located again (the index round trip),
 * and compared with the value its children imply (vt_lookahead). */
#include "vt_check.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vt_value.h"

enum { VT_CHUNK = 4096 };

typedef struct {
    vt_store_t *st;
    const vt_table_t *t;
    vt_report_t *rep;
    atomic_uint_fast64_t next, done;
    pthread_mutex_t lock;
    pthread_cond_t finished_cond;
    int finished; /* workers done, under lock */
    atomic_int fatal;
} s_run_t;

static double s_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Compares the stored value with the look-ahead's; 0 or 1 with msg. */
static int s_compare(const vt_value_t *s, const vt_value_t *e, bool *ranged, char *msg, size_t len)
{
    bool ok = s->code == e->code && s->dtm == e->dtm;
    if (ok && (s->code == VT_CURSED || s->code == VT_BLESSED)) {
        ok = s->dtz >= e->zlo && s->dtz <= e->zhi;
        *ranged = e->zlo != e->zhi;
    } else if (ok) {
        ok = s->dtz == e->dtz;
    }
    if (ok)
        return 0;
    int n = snprintf(msg, len, "stored %s dtz %d dtm %d, its moves give %s", vt_code_name(s->code), s->dtz, s->dtm,
                     vt_code_name(e->code));
    if (e->code == VT_CURSED || e->code == VT_BLESSED)
        snprintf(msg + n, len - (size_t)n, " dtz %d..%d dtm %d", e->zlo, e->zhi, e->dtm);
    else if (e->code != VT_DRAW)
        snprintf(msg + n, len - (size_t)n, " dtz %d dtm %d", e->dtz, e->dtm);
    return 1;
}

static int s_verdict(int rc)
{
    return rc == VT_MISSING ? 2 : 1;
}

int vt_check_slot(vt_store_t *st, const vt_table_t *t, uint64_t slot, bool *ranged, char *msg, size_t len)
{
    *ranged = false;
    int lo = 0, hi = (int)t->nslices - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (t->slices[mid].offset <= slot)
            lo = mid;
        else
            hi = mid - 1;
    }
    const vt_slice_t *sl = &t->slices[lo];
    octad_pos_t p;
    vt_slice_decode(sl, slot - sl->offset, &p);
    uint32_t rec = vt_table_record(t, slot);
    vt_value_t s = vt_value_record(rec);
    if (!vt_placement_legal(&p)) {
        if (s.code == VT_INVALID)
            return 0;
        snprintf(msg, len, "illegal placement (side not to move in check) holds %s", vt_code_name(s.code));
        return 1;
    }
    if (s.code > VT_WIN) {
        snprintf(msg, len, "legal position holds %s", vt_code_name(s.code));
        return 1;
    }
    const vt_table_t *back;
    uint64_t back_slot;
    int rc = vt_locate(st, &p, &back, &back_slot, msg, len);
    if (rc != VT_OK)
        return s_verdict(rc);
    if (back != t || back_slot != slot) {
        snprintf(msg, len, "the index maps this position to %s slot %llu", back ? back->name : "no table",
                 (unsigned long long)back_slot);
        return 1;
    }
    vt_value_t e = {VT_DRAW, 0, 0, 0, 0};
    if (!octad_insufficient_material(&p) && (rc = vt_lookahead(st, &p, &e, msg, len)) != VT_OK)
        return s_verdict(rc);
    return s_compare(&s, &e, ranged, msg, len);
}

static void s_fail(s_run_t *run, uint64_t slot, int verdict, const char *msg)
{
    const vt_table_t *t = run->t;
    char where[160] = "header";
    if (slot != UINT64_MAX) {
        int lo = 0;
        while (lo + 1 < (int)t->nslices && t->slices[lo + 1].offset <= slot)
            lo++;
        octad_pos_t p;
        char ofen[128];
        vt_slice_decode(&t->slices[lo], slot - t->slices[lo].offset, &p);
        octad_format(&p, ofen, sizeof ofen);
        snprintf(where, sizeof where, "slot %llu (%s)", (unsigned long long)slot, ofen);
    }
    pthread_mutex_lock(&run->lock);
    vt_report_t *rep = run->rep;
    if (verdict == 2) {
        if (!rep->fatal[0])
            snprintf(rep->fatal, sizeof rep->fatal, "%s", msg);
        atomic_store(&run->fatal, 1);
    } else {
        rep->failures++;
        if (rep->nkept < VT_FAIL_KEEP)
            snprintf(rep->kept[rep->nkept++], sizeof rep->kept[0], "%s %s: %s", t->name, where, msg);
    }
    pthread_mutex_unlock(&run->lock);
}

static void *s_worker(void *arg)
{
    s_run_t *run = arg;
    const vt_table_t *t = run->t;
    uint64_t counts[8] = {0}, legal = 0, ranged_n = 0;
    int max_dtz = 0, max_dtm = 0;
    char msg[256];
    for (;;) {
        uint64_t start = atomic_fetch_add(&run->next, VT_CHUNK);
        if (start >= t->nrecords || atomic_load(&run->fatal))
            break;
        uint64_t end = start + VT_CHUNK < t->nrecords ? start + VT_CHUNK : t->nrecords;
        for (uint64_t slot = start; slot < end; slot++) {
            uint32_t rec = vt_table_record(t, slot);
            counts[vt_rec_code(rec)]++;
            bool ranged;
            int v = vt_check_slot(run->st, t, slot, &ranged, msg, sizeof msg);
            if (v)
                s_fail(run, slot, v, msg);
            ranged_n += ranged;
            if (vt_rec_code(rec) <= VT_WIN) {
                legal++;
                max_dtz = vt_rec_dtz(rec) > max_dtz ? vt_rec_dtz(rec) : max_dtz;
                max_dtm = vt_rec_dtm(rec) > max_dtm ? vt_rec_dtm(rec) : max_dtm;
            }
        }
        atomic_fetch_add(&run->done, end - start);
    }
    pthread_mutex_lock(&run->lock);
    for (int c = 0; c < 8; c++)
        run->rep->counts[c] += counts[c];
    run->rep->legal += legal;
    run->rep->ranged += ranged_n;
    run->rep->max_dtz = max_dtz > run->rep->max_dtz ? max_dtz : run->rep->max_dtz;
    run->rep->max_dtm = max_dtm > run->rep->max_dtm ? max_dtm : run->rep->max_dtm;
    run->finished++;
    pthread_cond_broadcast(&run->finished_cond);
    pthread_mutex_unlock(&run->lock);
    return NULL;
}

/* The header's promises about the records, checked against what was read. */
static void s_header_totals(s_run_t *run)
{
    vt_report_t *rep = run->rep;
    const vt_table_t *t = run->t;
    char msg[256];
    for (int c = 0; c < 8; c++)
        if (rep->counts[c] != t->counts[c]) {
            snprintf(msg, sizeof msg, "header counts %llu records of %s, the file holds %llu",
                     (unsigned long long)t->counts[c], vt_code_name(c), (unsigned long long)rep->counts[c]);
            s_fail(run, UINT64_MAX, 1, msg);
        }
    if ((uint32_t)rep->max_dtz != t->max_dtz || (uint32_t)rep->max_dtm != t->max_dtm) {
        snprintf(msg, sizeof msg, "header says largest dtz %u dtm %u, the records %d and %d", t->max_dtz, t->max_dtm,
                 rep->max_dtz, rep->max_dtm);
        s_fail(run, UINT64_MAX, 1, msg);
    }
}

/* Waits for the workers, printing a progress line every 5 s if out. */
static void s_wait(s_run_t *run, int workers, FILE *out, double t0)
{
    pthread_mutex_lock(&run->lock);
    while (run->finished < workers) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += 5;
        if (pthread_cond_timedwait(&run->finished_cond, &run->lock, &ts) == 0 || !out)
            continue;
        uint64_t done = atomic_load(&run->done);
        double rate = done / (s_now() - t0);
        fprintf(out, "verify %s: %llu / %llu records (%.1f%%), %.2f M records/s, ETA %.0f s\n", run->t->name,
                (unsigned long long)done, (unsigned long long)run->t->nrecords, 100.0 * done / run->t->nrecords,
                rate / 1e6, rate > 0 ? (run->t->nrecords - done) / rate : 0.0);
        fflush(out);
    }
    pthread_mutex_unlock(&run->lock);
}

int vt_check_table(vt_store_t *st, const vt_table_t *t, const vt_check_opts_t *opts, vt_report_t *rep)
{
    memset(rep, 0, sizeof *rep);
    s_run_t run = {.st = st, .t = t, .rep = rep};
    pthread_mutex_init(&run.lock, NULL);
    pthread_cond_init(&run.finished_cond, NULL);
    int n = opts->threads < 1 ? 1 : opts->threads > 64 ? 64 : opts->threads;
    pthread_t tid[64];
    int started = 0;
    double t0 = s_now();
    for (int i = 0; i < n; i++)
        if (pthread_create(&tid[started], NULL, s_worker, &run) == 0)
            started++;
    if (started == 0)
        s_worker(&run);
    else
        s_wait(&run, started, opts->progress, t0);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    rep->records = atomic_load(&run.done);
    rep->seconds = s_now() - t0;
    if (!atomic_load(&run.fatal))
        s_header_totals(&run);
    pthread_mutex_destroy(&run.lock);
    pthread_cond_destroy(&run.finished_cond);
    if (atomic_load(&run.fatal))
        return 2;
    return rep->failures ? 1 : 0;
}
