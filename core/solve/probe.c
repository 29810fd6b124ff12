/* probe.c: values at the clock, moves ranked. */
#include "probe.h"

#include <stdlib.h>

#include "ep_exact.h"
#include "octad/make.h"

int probe_position(store_t *store, const octad_pos_t *p, probe_value_t *out)
{
    *out = (probe_value_t){REC_DRAW, REC_DRAW, 0, 0, (int)p->halfmove, octad_status(p)};
    if (out->status & OCTAD_CHECKMATE) {
        out->wdl = out->wdl0 = REC_LOSS;
        return 0;
    }
    if ((out->status & OCTAD_STALEMATE) || octad_insufficient_material(p))
        return 0;
    rec_t r;
    char err[256];
    if (store_value(store, p, &r) < 0)
        return -1;
    if (ep_exact_dtz(store, p, &r, err, sizeof err) < 0) {
        store_set_error(store, err);
        return -1;
    }
    out->wdl0 = out->wdl = rec_wdl(r);
    out->dtz = rec_dtz(r);
    out->dtm = rec_dtm(r);
    if (p->halfmove >= REC_RULE_PLIES) {
        out->wdl = REC_DRAW; /* the game ended at clock 50 (it was not mate) */
        return 0;
    }
    if ((out->wdl == REC_WIN || out->wdl == REC_LOSS) && rec_sign_rule(r, (int)p->halfmove) == 0)
        out->wdl = out->wdl == REC_WIN ? REC_CURSED : REC_BLESSED;
    return 0;
}

long probe_move_score(const probe_move_t *m)
{
    long base = (long)m->wdl * 1000000L;
    if (m->wdl >= REC_CURSED)
        return base - m->dtm * 1000L - m->dtz;
    if (m->wdl <= REC_BLESSED)
        return base + m->dtm * 1000L + m->dtz;
    return base;
}

static int s_cmp(const void *a, const void *b)
{
    long x = probe_move_score(a), y = probe_move_score(b);
    return x < y ? 1 : x > y ? -1 : 0;
}

int probe_move(store_t *store, const octad_pos_t *p, octad_move_t m, probe_move_t *out)
{
    octad_pos_t c;
    make_move(p, m, &c);
    probe_value_t *v = &out->after;
    if (probe_position(store, &c, v) < 0)
        return -1;
    out->move = m;
    out->wdl = rec_wdl_negate(v->wdl);
    out->dtm = v->wdl == REC_DRAW ? 0 : v->dtm + 1;
    out->dtz = v->wdl == REC_DRAW ? 0 : c.halfmove == 0 ? 1 : v->dtz + 1;
    return 0;
}

int probe_moves(store_t *store, const octad_pos_t *p, probe_move_t *moves, int *nbest)
{
    octad_move_t list[GAME_MOVES_MAX];
    int n = octad_gen_legal(p, list);
    for (int i = 0; i < n; i++)
        if (probe_move(store, p, list[i], &moves[i]) < 0)
            return -1;
    qsort(moves, (size_t)n, sizeof *moves, s_cmp);
    *nbest = 0;
    while (*nbest < n && probe_move_score(&moves[*nbest]) == probe_move_score(&moves[0]))
        (*nbest)++;
    return n;
}
