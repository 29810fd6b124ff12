/* gen_unit.c: retrograde analysis of one unit.
 *
 * 1. Forward pass: every slot is decoded and its legal moves generated. Moves
 *    that keep the halfmove clock running stay in the unit and are counted;
 *    every other move (an exit) leads to a position already solved, whose
 *    value is read from the store: the best and worst exit are kept.
 * 2. Three retrograde passes, each level by level (level = plies):
 *    A. without the 25-move rule: wins and losses and the distance to mate
 *       (exits enter at their own distance to mate plus one);
 *    B. with the rule from a fresh clock: exits enter at level 1 with their
 *       value under the rule, and nothing beyond level 50 counts;
 *    C. only where A and B disagree (cursed wins, blessed losses): the
 *       distance to zeroing without the rule.
 *    A position lost at level L makes every predecessor won at L + 1; a
 *    position won at L removes one unresolved move from each predecessor,
 *    and a predecessor with none left and no exit that saves it is lost at
 *    L + 1 (or later, for a slower exit). What is never resolved is drawn. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "comb.h"
#include "gen_par.h"
#include "index.h"
#include "octad/legal.h"
#include "octad/make.h"
#include "octad/octad.h"
#include "unmove.h"

enum {
    F_INVALID = 1,   /* not a legal position */
    F_MATED = 2,     /* checkmated */
    F_DEAD = 4,      /* stalemate or insufficient material */
    F_EXIT = 8,      /* has an exit */
    F_INF_SAFE = 16, /* an exit draws or wins without the rule */
    F_50_WIN = 32,   /* an exit wins under the rule */
    F_50_SAFE = 64   /* an exit draws or wins under the rule */
};

enum { NO_WIN = 0xFFFF, V_SHIFT = 14, V_WIN = 1, V_LOSS = 2, V_DRAW = 3, DIST_MASK = 0x3FFF };

/* What a pass reads and writes of a slot, together so that one cache line
 * brings it all. Aligned as the 4-byte word it is updated as (s_touch's
 * atomics): clang otherwise calls libatomic for a 2-byte aligned one. */
typedef struct {
    _Alignas(uint32_t) uint16_t st; /* value << 14 | level */
    uint8_t cnt;   /* moves in the unit not yet known to lose */
    uint8_t flags; /* F_* */
} s_slot_t;

/* The slots assigned one level (a slot may be listed at a level it left). */
typedef struct {
    uint32_t *v;
    uint32_t n, cap;
} s_bucket_t;

/* What one worker of a parallel level sets: (level << 32 | slot) entries,
 * listed in the buckets once the level is done; and its error. */
typedef struct {
    uint64_t *v;
    size_t n, cap;
    char err[256];
} s_sink_t;

/* Units smaller than PAR_UNIT_MIN slots, and levels with fewer than
 * PAR_LEVEL_MIN, run on one thread; the environment variable
 * OCTAD_SOLVE_PARALLEL_MIN lowers both (tests use 1 to run even the
 * smallest tables' levels in parallel). */
enum { PAR_UNIT_MIN = 16384, PAR_LEVEL_MIN = 1024, PAR_CHUNK = 512 };

static uint32_t s_par_min(uint32_t dflt)
{
    const char *e = getenv("OCTAD_SOLVE_PARALLEL_MIN");
    long v = e ? strtol(e, NULL, 10) : 0;
    return v > 0 && (uint32_t)v < dflt ? (uint32_t)v : dflt;
}

typedef struct {
    store_t *store;
    const layout_pair_t *pair;
    const layout_unit_t *unit;
    const layout_slice_t *sl[2];
    unmove_unit_t um;   /* the same slices, for unmove_slots */
    rec_t *out[2];      /* the records of each slice, from its first slot */
    bool ginf;          /* every won or lost record gets its dtz without the rule */
    uint32_t size0, n;
    uint16_t *xwin;     /* fastest winning exit: its dtm + 1 */
    uint16_t *xloss;    /* slowest losing exit: its dtm + 1 */
    s_slot_t *slot;     /* pass state, move count and flags, one cache access */
    uint8_t *nint;      /* moves that stay in the unit */
    s_bucket_t *bucket; /* slots set at each level, to process in order */
    int nbuckets;
    int threads;        /* threads for the forward pass and large levels */
    uint32_t level_min; /* levels with fewer slots run on one thread */
    s_sink_t sink[GEN_PAR_MAX];
    char *err;
    size_t errlen;
} s_unit_t;

static void s_decode(const s_unit_t *u, uint32_t i, octad_pos_t *p)
{
    if (i < u->size0)
        index_decode(u->sl[0], i, p);
    else
        index_decode(u->sl[1], i - u->size0, p);
}

/* Forward pass for slot i: legality, terminal states, internal moves, exits
 * (writes only slot i's fields, so slots run in parallel). */
static int s_forward(s_unit_t *u, uint32_t i, char *err, size_t errlen)
{
    octad_pos_t p;
    s_decode(u, i, &p);
    u->xwin[i] = NO_WIN;
    u->xloss[i] = 0;
    u->nint[i] = 0;
    bb_t occ = (bb_t)(p.color[0] | p.color[1]);
    if (legal_attackers_to(&p, p.ksq[OCTAD_BLACK], occ, OCTAD_WHITE)) {
        u->slot[i].flags = F_INVALID;
        return 0;
    }
    if (octad_insufficient_material(&p)) {
        u->slot[i].flags = F_DEAD;
        return 0;
    }
    octad_move_t moves[GAME_MOVES_MAX];
    int n = octad_gen_legal(&p, moves);
    if (n == 0) {
        u->slot[i].flags = legal_attackers_to(&p, p.ksq[OCTAD_WHITE], occ, OCTAD_BLACK) ? F_MATED : F_DEAD;
        return 0;
    }
    uint8_t f = 0;
    int nint = 0;
    p.halfmove = 1;
    for (int m = 0; m < n; m++) {
        if (!make_move_zeroes(&p, moves[m])) {
            nint++;
            continue;
        }
        octad_pos_t c;
        make_move(&p, moves[m], &c);
        if (c.halfmove != 0) {
            snprintf(err, errlen, "internal error: a move taken for an exit keeps the clock running");
            return -1;
        }
        rec_t r;
        if (store_value(u->store, &c, &r) < 0) {
            char text[GAME_TEXT_MAX];
            octad_format(&c, text, sizeof text);
            snprintf(err, errlen, "no value for exit %s: a table it needs is missing", text);
            return -1;
        }
        f |= F_EXIT;
        int sinf = -rec_sign_inf(rec_wdl(r)), s50 = -rec_sign_rule(r, 0);
        int dtm = rec_dtm(r) + 1;
        if (sinf > 0 && dtm < u->xwin[i])
            u->xwin[i] = (uint16_t)dtm;
        if (sinf == 0)
            f |= F_INF_SAFE;
        if (sinf < 0 && dtm > u->xloss[i])
            u->xloss[i] = (uint16_t)dtm;
        if (s50 > 0)
            f |= F_50_WIN | F_50_SAFE;
        if (s50 == 0)
            f |= F_50_SAFE;
    }
    if (u->xwin[i] != NO_WIN)
        f |= F_INF_SAFE;
    u->slot[i].flags = f;
    u->nint[i] = (uint8_t)nint;
    return 0;
}

typedef enum { PASS_A, PASS_B, PASS_C } s_pass_t;

static inline uint16_t s_st(int v, int d) { return (uint16_t)(v << V_SHIFT | d); }

/* Lists slot i at level d. */
static int s_push(s_unit_t *u, uint32_t i, int d)
{
    if (d >= u->nbuckets) {
        int nb = d + 64;
        s_bucket_t *b = realloc(u->bucket, sizeof *b * (size_t)nb);
        if (!b) {
            snprintf(u->err, u->errlen, "out of memory for level %d", d);
            return -1;
        }
        memset(b + u->nbuckets, 0, sizeof *b * (size_t)(nb - u->nbuckets));
        u->bucket = b;
        u->nbuckets = nb;
    }
    s_bucket_t *b = &u->bucket[d];
    if (b->n == b->cap) {
        uint32_t cap = b->cap ? b->cap * 2 : 1024;
        uint32_t *nv = realloc(b->v, sizeof *nv * cap);
        if (!nv) {
            snprintf(u->err, u->errlen, "out of memory for level %d", d);
            return -1;
        }
        b->v = nv;
        b->cap = cap;
    }
    b->v[b->n++] = i;
    return 0;
}

/* Sets slot i to value v at level d and lists it for that level. */
static int s_set(s_unit_t *u, uint32_t i, int v, int d)
{
    u->slot[i].st = s_st(v, d);
    return s_push(u, i, d);
}

/* Lists slot i at level d: in the buckets (one thread) or in the worker's
 * sink (a parallel level). */
static int s_list(s_unit_t *u, s_sink_t *sink, uint32_t i, int d)
{
    if (!sink)
        return s_push(u, i, d);
    if (sink->n == sink->cap) {
        size_t cap = sink->cap ? sink->cap * 2 : 4096;
        uint64_t *nv = realloc(sink->v, sizeof *nv * cap);
        if (!nv) {
            snprintf(sink->err, sizeof sink->err, "out of memory for level %d", d);
            return -1;
        }
        sink->v = nv;
        sink->cap = cap;
    }
    sink->v[sink->n++] = (uint64_t)d << 32 | i;
    return 0;
}

/* Initial state of slot i in a pass (listed in its level's bucket). */
static int s_pass_init(s_unit_t *u, s_pass_t pass, uint32_t i)
{
    uint8_t f = u->slot[i].flags;
    if (f & (F_INVALID | F_DEAD)) {
        u->slot[i].st = s_st(V_DRAW, 0);
        return 0;
    }
    if (f & F_MATED)
        return s_set(u, i, V_LOSS, 0);
    int win = pass == PASS_A ? (u->xwin[i] != NO_WIN ? u->xwin[i] : -1)
              : pass == PASS_B ? ((f & F_50_WIN) ? 1 : -1)
                               : (u->xwin[i] != NO_WIN ? 1 : -1);
    if (win > 0)
        return s_set(u, i, V_WIN, win);
    bool safe = pass == PASS_B ? (f & F_50_SAFE) : (f & F_INF_SAFE);
    if (u->nint[i] == 0 && !safe)
        return s_set(u, i, V_LOSS, pass == PASS_A ? u->xloss[i] : 1);
    u->slot[i].st = 0;
    return 0;
}

/* What slot i, resolved at level L (lost: `lost`), does to its predecessor
 * v: a loss makes v won at L + 1; a win takes one move off v's count, and
 * v with none left and no saving exit is lost. In a parallel level (sink
 * given) the slot changes by compare-and-swap, so exactly one worker makes
 * each change and lists v; the outcome does not depend on the order. */
static int s_touch(s_unit_t *u, s_pass_t pass, uint32_t v, bool lost, int L, int cap, s_sink_t *sink)
{
    s_slot_t cur, nw;
    __atomic_load(&u->slot[v], &cur, __ATOMIC_RELAXED);
    for (;;) {
        int d = -1;
        nw = cur;
        if (lost) {
            if (cur.st != 0 && !((cur.st >> V_SHIFT) == V_WIN && (cur.st & DIST_MASK) > L + 1))
                return 0;
            d = L + 1;
            nw.st = s_st(V_WIN, d);
        } else {
            if (cur.st != 0)
                return 0;
            if (cur.cnt == 0) {
                snprintf(sink ? sink->err : u->err, sink ? sizeof sink->err : u->errlen,
                         "internal error: move count of a predecessor underflows");
                return -1;
            }
            if (--nw.cnt == 0
                && !(pass == PASS_B ? (cur.flags & F_50_SAFE) : (cur.flags & F_INF_SAFE))) {
                d = L + 1;
                if (pass == PASS_A && u->xloss[v] > d)
                    d = u->xloss[v];
                if (d <= cap)
                    nw.st = s_st(V_LOSS, d);
                else
                    d = -1;
            }
        }
        if (!sink)
            u->slot[v] = nw;
        else if (!__atomic_compare_exchange(&u->slot[v], &cur, &nw, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            continue; /* another worker changed v: look again */
        return d >= 0 ? s_list(u, sink, v, d) : 0;
    }
}

/* Propagates from slot i, resolved at level L, to its predecessors. */
static int s_propagate(s_unit_t *u, s_pass_t pass, uint32_t i, int L, int cap, s_sink_t *sink)
{
    if (L + 1 > cap)
        return 0;
    octad_pos_t p, bad;
    uint32_t pred[UNMOVE_MAX];
    int k = i < u->size0 ? 0 : 1;
    const layout_slice_t *s = u->sl[k];
    s_decode(u, i, &p);
    index_flip(&p, &p);
    int n = unmove_slots(&u->um, u->unit->n == 2 ? 1 - k : 0, &p, comb_flip_ranks(s->fixed[1]), pred, &bad);
    if (n < 0) {
        char text[GAME_TEXT_MAX];
        octad_format(&bad, text, sizeof text);
        snprintf(sink ? sink->err : u->err, sink ? sizeof sink->err : u->errlen,
                 "internal error: predecessor %s is outside its unit", text);
        return -1;
    }
    bool lost = (u->slot[i].st >> V_SHIFT) == V_LOSS;
    for (int j = 0; j < n; j++)
        if (s_touch(u, pass, pred[j], lost, L, cap, sink) < 0)
            return -1;
    return 0;
}

/* One level processed by several workers. */
typedef struct {
    s_unit_t *u;
    s_pass_t pass;
    int L, cap;
} s_level_t;

static int s_level_chunk(void *ctx, int worker, uint32_t from, uint32_t to)
{
    s_level_t *lv = ctx;
    s_unit_t *u = lv->u;
    const uint32_t *v = u->bucket[lv->L].v;
    for (uint32_t k = from; k < to; k++) {
        uint16_t sv = u->slot[v[k]].st; /* slots of this level do not change during it */
        if ((sv & DIST_MASK) == lv->L && (sv >> V_SHIFT) != V_DRAW
            && s_propagate(u, lv->pass, v[k], lv->L, lv->cap, &u->sink[worker]) < 0)
            return -1;
    }
    return 0;
}

/* Level L on several threads, then what the workers set listed in order. */
static int s_level_parallel(s_unit_t *u, s_pass_t pass, int L, int cap)
{
    s_level_t lv = {u, pass, L, cap};
    int nw = u->threads < GEN_PAR_MAX ? u->threads : GEN_PAR_MAX;
    int rc = gen_par_for(nw, u->bucket[L].n, PAR_CHUNK, s_level_chunk, &lv);
    for (int w = 0; w < nw; w++) {
        s_sink_t *k = &u->sink[w];
        if (rc < 0 && k->err[0] && !u->err[0])
            snprintf(u->err, u->errlen, "%s", k->err);
        for (size_t j = 0; rc == 0 && j < k->n; j++)
            if (s_push(u, (uint32_t)k->v[j], (int)(k->v[j] >> 32)) < 0)
                rc = -1;
        k->n = 0;
    }
    if (rc < 0 && !u->err[0])
        snprintf(u->err, u->errlen, "a parallel level failed");
    return rc;
}

static int s_pass(s_unit_t *u, s_pass_t pass)
{
    int cap = pass == PASS_B ? REC_RULE_PLIES : DIST_MASK - 1;
    for (int b = 0; b < u->nbuckets; b++)
        u->bucket[b].n = 0;
    for (uint32_t i = 0; i < u->n; i++) {
        if (s_pass_init(u, pass, i) < 0)
            return -1;
        u->slot[i].cnt = u->nint[i];
    }
    for (int L = 0; L < u->nbuckets && L <= cap; L++) {
        if (u->threads > 1 && u->bucket[L].n >= u->level_min) {
            if (s_level_parallel(u, pass, L, cap) < 0)
                return -1;
            continue;
        }
        for (uint32_t k = 0; k < u->bucket[L].n; k++) {
            uint32_t i = u->bucket[L].v[k];
            uint16_t sv = u->slot[i].st;
            if ((sv & DIST_MASK) == L && (sv >> V_SHIFT) != V_DRAW && s_propagate(u, pass, i, L, cap, NULL) < 0)
                return -1;
        }
    }
    return 0;
}

static rec_t *s_rec(s_unit_t *u, uint32_t i)
{
    return i < u->size0 ? &u->out[0][i] : &u->out[1][i - u->size0];
}

/* Records from pass A (dtm, value without the rule) and B (value under it). */
static int s_compose(s_unit_t *u, bool *need_c)
{
    *need_c = false;
    for (uint32_t i = 0; i < u->n; i++) {
        rec_t *r = s_rec(u, i);
        if (u->slot[i].flags & F_INVALID) {
            *r = REC_INVALID;
            continue;
        }
        int va = rec_wdl(*r), dtm = rec_dtm(*r); /* pass A's value, kept in the record */
        uint16_t sv = u->slot[i].st;
        int vb = sv >> V_SHIFT, dz = sv & DIST_MASK;
        if (vb == V_WIN || vb == V_LOSS) {
            if ((vb == V_WIN) != (va == REC_WIN)) {
                snprintf(u->err, u->errlen, "internal error: won under the 25-move rule but not without it");
                return -1;
            }
            *r = rec_make(vb == V_WIN ? REC_WIN : REC_LOSS, dz, dtm);
        } else if (va == REC_WIN || va == REC_LOSS) {
            *r = rec_make(va == REC_WIN ? REC_CURSED : REC_BLESSED, 0, dtm);
            *need_c = true;
        } else {
            *r = rec_make(REC_DRAW, 0, 0);
        }
    }
    return 0;
}

static int s_forward_chunk(void *ctx, int worker, uint32_t from, uint32_t to)
{
    s_unit_t *u = ctx;
    for (uint32_t i = from; i < to; i++)
        if (s_forward(u, i, u->sink[worker].err, sizeof u->sink[worker].err) < 0)
            return -1;
    return 0;
}

static int s_solve(s_unit_t *u)
{
    if (u->threads > 1) {
        if (gen_par_for(u->threads, u->n, PAR_CHUNK * 8, s_forward_chunk, u) < 0) {
            for (int w = 0; w < GEN_PAR_MAX && !u->err[0]; w++)
                if (u->sink[w].err[0])
                    snprintf(u->err, u->errlen, "%s", u->sink[w].err);
            return -1;
        }
    } else {
        for (uint32_t i = 0; i < u->n; i++)
            if (s_forward(u, i, u->err, u->errlen) < 0)
                return -1;
    }
    if (s_pass(u, PASS_A) < 0)
        return -1;
    for (uint32_t i = 0; i < u->n; i++) {
        uint16_t sv = u->slot[i].st;
        int v = sv >> V_SHIFT;
        *s_rec(u, i) = v == V_WIN || v == V_LOSS ? rec_make(v == V_WIN ? REC_WIN : REC_LOSS, 0, sv & DIST_MASK)
                                                  : rec_make(REC_DRAW, 0, 0);
    }
    if (s_pass(u, PASS_B) < 0)
        return -1;
    bool need_c;
    if (s_compose(u, &need_c) < 0)
        return -1;
    if (!need_c && !u->ginf)
        return 0;
    if (s_pass(u, PASS_C) < 0)
        return -1;
    for (uint32_t i = 0; i < u->n; i++) {
        rec_t *r = s_rec(u, i);
        int w = rec_wdl(*r);
        if (w != REC_CURSED && w != REC_BLESSED && !(u->ginf && (w == REC_WIN || w == REC_LOSS)))
            continue;
        uint16_t sv = u->slot[i].st;
        if ((sv >> V_SHIFT) != (rec_sign_inf(w) > 0 ? V_WIN : V_LOSS)) {
            snprintf(u->err, u->errlen, "internal error: passes A and C disagree");
            return -1;
        }
        *r = rec_make(w, sv & DIST_MASK, rec_dtm(*r));
    }
    return 0;
}

static void s_count(const s_unit_t *u, gen_stats_t *st)
{
    st->units++;
    st->slots += u->n;
    for (uint32_t i = 0; i < u->n; i++) {
        rec_t r = *s_rec((s_unit_t *)u, i);
        st->counts[rec_wdl(r)]++;
        if (rec_wdl(r) == REC_INVALID)
            continue;
        st->positions++;
        if (rec_dtz(r) > st->max_dtz)
            st->max_dtz = rec_dtz(r);
        if (rec_dtm(r) > st->max_dtm)
            st->max_dtm = rec_dtm(r);
    }
}

/* Solves a unit into out[k], the records of its slice k from the slice's
 * first slot. */
static int s_run(store_t *store, const layout_pair_t *pair, const layout_unit_t *unit, rec_t *const out[2],
                 int threads, bool ginf, gen_stats_t *st, char *err, size_t errlen)
{
    s_unit_t u = {.store = store, .pair = pair, .unit = unit, .ginf = ginf, .err = err, .errlen = errlen};
    err[0] = '\0';
    for (int k = 0; k < unit->n; k++) {
        u.sl[k] = &pair->tables[unit->tab[k]].slices[unit->slice[k]];
        u.out[k] = out[k];
    }
    u.size0 = u.sl[0]->size;
    u.um = (unmove_unit_t){{u.sl[0], u.sl[1]}, unit->n, u.size0};
    u.n = u.size0 + (unit->n == 2 ? u.sl[1]->size : 0);
    u.threads = u.n >= s_par_min(PAR_UNIT_MIN) && threads > 1 ? threads : 1;
    u.level_min = s_par_min(PAR_LEVEL_MIN);
    u.xwin = malloc(sizeof *u.xwin * u.n);
    u.xloss = malloc(sizeof *u.xloss * u.n);
    u.slot = malloc(sizeof *u.slot * u.n);
    u.nint = malloc(u.n);
    int rc = -1;
    if (!u.xwin || !u.xloss || !u.slot || !u.nint)
        snprintf(err, errlen, "out of memory for a unit of %u positions", u.n);
    else if ((rc = s_solve(&u)) == 0)
        s_count(&u, st);
    free(u.xwin);
    free(u.xloss);
    free(u.slot);
    free(u.nint);
    for (int b = 0; b < u.nbuckets; b++)
        free(u.bucket[b].v);
    free(u.bucket);
    for (int w = 0; w < GEN_PAR_MAX; w++)
        free(u.sink[w].v);
    return rc;
}

int gen_unit(store_t *store, const layout_pair_t *pair, const layout_unit_t *unit, rec_t *const *recs, int threads,
             gen_stats_t *st, char *err, size_t errlen)
{
    rec_t *out[2] = {NULL, NULL};
    for (int k = 0; k < unit->n; k++)
        out[k] = recs[unit->tab[k]] + pair->tables[unit->tab[k]].slices[unit->slice[k]].offset;
    return s_run(store, pair, unit, out, threads, false, st, err, errlen);
}

int gen_unit_ginf(store_t *store, const layout_pair_t *pair, const layout_unit_t *unit, rec_t *const out[2],
                  int threads, char *err, size_t errlen)
{
    gen_stats_t st = {0};
    return s_run(store, pair, unit, out, threads, true, &st, err, errlen);
}

void gen_stats_add(gen_stats_t *a, const gen_stats_t *b)
{
    a->positions += b->positions;
    a->slots += b->slots;
    a->units += b->units;
    for (int i = 0; i < 8; i++)
        a->counts[i] += b->counts[i];
    if (b->max_dtz > a->max_dtz)
        a->max_dtz = b->max_dtz;
    if (b->max_dtm > a->max_dtm)
        a->max_dtm = b->max_dtm;
}
