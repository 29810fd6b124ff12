/* vt_fwdcheck.c: roots from the tables' own slots (decoded with the
 * verifier's index), everything else from the move generator. */
#include "vt_fwdcheck.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "vt_forward.h"
#include "vt_value.h"

static void s_fail(vt_fwd_report_t *rep, const octad_pos_t *p, int clock, const char *what)
{
    rep->failures++;
    if (rep->nkept >= VT_FAIL_KEEP)
        return;
    char ofen[128];
    octad_pos_t q = *p;
    q.halfmove = (uint32_t)clock;
    octad_format(&q, ofen, sizeof ofen);
    snprintf(rep->kept[rep->nkept++], sizeof rep->kept[0], "%.100s: %.200s", ofen, what);
}

static int s_roots(vt_store_t *st, vt_fwd_t *fwd, const int *ids, int n, vt_fwd_report_t *rep)
{
    for (int k = 0; k < n; k++) {
        const vt_table_t *t = vt_store_get(st, ids[k], rep->fatal, sizeof rep->fatal);
        if (!t)
            return 2;
        for (uint32_t s = 0; s < t->nslices; s++) {
            const vt_slice_t *sl = &t->slices[s];
            for (uint64_t i = 0; i < sl->size; i++) {
                octad_pos_t p, v[3];
                vt_slice_decode(sl, i, &p);
                if (!vt_placement_legal(&p))
                    continue;
                vt_flip(&p, &v[0]);
                vt_mirror(&p, &v[1]);
                vt_mirror(&v[0], &v[2]);
                int nv = p.castle ? 1 : 3;
                if (vt_fwd_add(fwd, &p) < 0)
                    goto oom;
                for (int j = 0; j < nv; j++)
                    if (vt_fwd_add(fwd, &v[j]) < 0)
                        goto oom;
                rep->roots += 1 + (uint64_t)nv;
            }
        }
    }
    return 0;
oom:
    snprintf(rep->fatal, sizeof rep->fatal, "the forward graph needs more than 33554432 positions or more memory than there is");
    return 2;
}

/* What the tables say about p at clock h: VT_WIN, VT_DRAW or VT_LOSS. */
static int s_rule(const vt_value_t *v, int h)
{
    if (v->code == VT_LOSS && v->dtz == 0)
        return VT_LOSS;
    if ((v->code == VT_WIN || v->code == VT_LOSS) && h + v->dtz <= 50)
        return v->code;
    return VT_DRAW;
}

static void s_compare(vt_fwd_t *fwd, uint32_t i, const vt_value_t *tv, bool clocks, vt_fwd_report_t *rep)
{
    const octad_pos_t *p = vt_fwd_position(fwd, i);
    vt_fwd_value_t f = vt_fwd_value(fwd, i);
    bool ranged = tv->zlo != tv->zhi && (f.code == VT_CURSED || f.code == VT_BLESSED);
    bool dtz_ok = ranged ? f.dtz >= tv->zlo && f.dtz <= tv->zhi : f.dtz == tv->dtz;
    char msg[200];
    rep->decisive += f.code != VT_DRAW;
    rep->cursed += f.code == VT_CURSED || f.code == VT_BLESSED;
    if (f.code != tv->code || f.dtm != tv->dtm || !dtz_ok) {
        snprintf(msg, sizeof msg, "tables: %s dtz %d dtm %d; forward search: %s dtz %d dtm %d",
                 vt_code_name(tv->code), tv->dtz, tv->dtm, vt_code_name(f.code), f.dtz, f.dtm);
        s_fail(rep, p, 0, msg);
    }
    if (!clocks)
        return;
    rep->long_dtz += (f.code == VT_WIN || f.code == VT_LOSS) && f.dtz >= 40;
    for (int h = 0; h < 50; h++) {
        int a = vt_fwd_at_clock(fwd, i, h), b = s_rule(tv, h);
        rep->clocks++;
        if (a != b) {
            snprintf(msg, sizeof msg, "at clock %d the tables (%s dtz %d) give %s, forward search with the clock %s",
                     h, vt_code_name(tv->code), tv->dtz, vt_code_name(b), vt_code_name(a));
            s_fail(rep, p, h, msg);
            break;
        }
    }
}

static double s_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int vt_fwd_check(vt_store_t *st, const int *ids, int n, uint32_t clock_every, vt_fwd_report_t *rep)
{
    memset(rep, 0, sizeof *rep);
    double t0 = s_now();
    vt_fwd_t *fwd = vt_fwd_new();
    int rc = fwd ? s_roots(st, fwd, ids, n, rep) : 2;
    if (rc == 0 && vt_fwd_solve(fwd) < 0) {
        snprintf(rep->fatal, sizeof rep->fatal, "out of memory solving the forward graph");
        rc = 2;
    }
    char err[512];
    for (uint32_t i = 0; rc == 0 && i < vt_fwd_size(fwd); i++) {
        vt_value_t tv;
        int v = vt_value_of(st, vt_fwd_position(fwd, i), &tv, err, sizeof err);
        if (v == VT_MISSING) {
            snprintf(rep->fatal, sizeof rep->fatal, "%s", err);
            rc = 2;
        } else if (v == VT_BAD) {
            s_fail(rep, vt_fwd_position(fwd, i), 0, err);
        } else {
            s_compare(fwd, i, &tv, clock_every && i % clock_every == 0, rep);
        }
        rep->positions++;
    }
    vt_fwd_destroy(&fwd);
    rep->seconds = s_now() - t0;
    return rc ? rc : rep->failures ? 1 : 0;
}
