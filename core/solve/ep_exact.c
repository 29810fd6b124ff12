/* ep_exact.c: one unit solved again for its dtz without the 25-move rule. */
#include "ep_exact.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "gen.h"
#include "index.h"
#include "octad/make.h"
#include "octad/octad.h"
#include "sig.h"

/* The pair last used: its layout and the records of the units solved so
 * far (NULL where not yet solved). */
typedef struct {
    int pair;
    layout_pair_t lp;
    rec_t *(*out)[2]; /* [unit][slice of the unit] */
} s_cache_t;

static pthread_mutex_t s_lock = PTHREAD_MUTEX_INITIALIZER;

static void s_cache_drop_pair(s_cache_t *c)
{
    if (c->pair < 0)
        return;
    for (int u = 0; u < c->lp.nunits; u++) {
        free(c->out[u][0]);
        free(c->out[u][1]);
    }
    free(c->out);
    c->out = NULL;
    layout_pair_free(&c->lp);
    c->pair = -1;
}

static void s_cache_free(void *aux)
{
    s_cache_t *c = aux;
    if (!c)
        return;
    s_cache_drop_pair(c);
    free(c);
}

/* The cache holding pair `pair`'s layout (built if needed), or NULL. */
static s_cache_t *s_cache_pair(store_t *store, int pair, char *err, size_t errlen)
{
    s_cache_t *c = store_aux(store);
    if (!c) {
        if (!(c = calloc(1, sizeof *c))) {
            snprintf(err, errlen, "out of memory");
            return NULL;
        }
        c->pair = -1;
        store_aux_set(store, c, s_cache_free);
    }
    if (c->pair == pair)
        return c;
    s_cache_drop_pair(c);
    if (layout_pair_build(pair, &c->lp) < 0) {
        snprintf(err, errlen, "out of memory for the layout of a pair");
        return NULL;
    }
    if (!(c->out = calloc((size_t)(c->lp.nunits ? c->lp.nunits : 1), sizeof *c->out))) {
        layout_pair_free(&c->lp);
        snprintf(err, errlen, "out of memory for the layout of a pair");
        return NULL;
    }
    c->pair = pair;
    return c;
}

/* Solves unit u of the cached pair into the cache (once). */
static int s_cache_unit(store_t *store, s_cache_t *c, int u, char *err, size_t errlen)
{
    if (c->out[u][0])
        return 0;
    const layout_unit_t *un = &c->lp.units[u];
    rec_t *out[2] = {NULL, NULL};
    for (int k = 0; k < un->n; k++) {
        uint32_t size = c->lp.tables[un->tab[k]].slices[un->slice[k]].size;
        if (!(out[k] = malloc(sizeof(rec_t) * (size ? size : 1)))) {
            free(out[0]);
            snprintf(err, errlen, "out of memory for a unit of %u positions", size);
            return -1;
        }
    }
    if (gen_unit_ginf(store, &c->lp, un, out, 1, err, errlen) < 0) {
        free(out[0]);
        free(out[1]);
        return -1;
    }
    c->out[u][0] = out[0];
    c->out[u][1] = out[1];
    return 0;
}

/* The record (dtz without the rule) of c, White to move, in the cache. */
static int s_lookup(store_t *store, const octad_pos_t *w, rec_t *out, char *err, size_t errlen)
{
    int table = index_table_of(w);
    if (table < 0 || sig_table_dead(table)) {
        snprintf(err, errlen, "internal error: a won or lost position has no table");
        return -1;
    }
    s_cache_t *c = s_cache_pair(store, sig_pair_of(table), err, errlen);
    if (!c)
        return -1;
    int tab = c->lp.tables[0].table == table ? 0 : 1;
    uint32_t idx;
    int sl = index_locate(&c->lp.tables[tab], w, &idx);
    for (int u = 0; sl >= 0 && u < c->lp.nunits; u++) {
        const layout_unit_t *un = &c->lp.units[u];
        for (int k = 0; k < un->n; k++)
            if (un->tab[k] == tab && un->slice[k] == sl) {
                if (s_cache_unit(store, c, u, err, errlen) < 0)
                    return -1;
                *out = c->out[u][k][idx];
                return 0;
            }
    }
    snprintf(err, errlen, "internal error: a stored position lies in no unit");
    return -1;
}

/* The dtz without the rule of a position without a legal e.p. capture
 * whose stored record is `stored`: the file's for cursed wins and blessed
 * losses, the unit solved again for wins and losses. */
static int s_stored_dtz(store_t *store, const octad_pos_t *c, rec_t stored, int *dtz, char *err, size_t errlen)
{
    int w = rec_wdl(stored);
    if (w != REC_WIN && w != REC_LOSS) {
        *dtz = rec_dtz(stored);
        return 0;
    }
    octad_pos_t x = *c;
    if (c->side != OCTAD_WHITE)
        index_flip(c, &x);
    x.ep = OCTAD_SQ_NONE;
    rec_t r;
    pthread_mutex_lock(&s_lock);
    int rc = s_lookup(store, &x, &r, err, errlen);
    pthread_mutex_unlock(&s_lock);
    if (rc < 0)
        return -1;
    if (rec_wdl(r) != w || rec_dtm(r) != rec_dtm(stored)) {
        snprintf(err, errlen, "internal error: the unit solved again disagrees with its table file");
        return -1;
    }
    *dtz = rec_dtz(r);
    return 0;
}

/* Whether p's legal moves (moves[0..n-1]) include an e.p. capture. */
static bool s_has_ep(const octad_pos_t *p, const octad_move_t *moves, int n)
{
    if (p->ep == OCTAD_SQ_NONE)
        return false;
    for (int i = 0; i < n; i++)
        if (octad_move_kind(moves[i]) == OCTAD_MK_EN_PASSANT)
            return true;
    return false;
}

/* One ply of look-ahead, with each child's dtz without the rule. */
static int s_lookahead(store_t *store, const octad_pos_t *p, const octad_move_t *moves, int n, int sign, int *dtz,
                       char *err, size_t errlen)
{
    octad_pos_t q = *p;
    q.halfmove = 1;
    int best = sign > 0 ? REC_DTZ_MAX : 0;
    for (int i = 0; i < n; i++) {
        octad_pos_t c;
        rec_t r;
        make_move(&q, moves[i], &c);
        if (store_value(store, &c, &r) < 0) {
            snprintf(err, errlen, "%s", store_error(store));
            return -1;
        }
        if (sign > 0 && rec_sign_inf(rec_wdl(r)) >= 0)
            continue; /* not a move that keeps the win without the rule */
        int d = 0; /* a zeroing move counts 1 */
        if (c.halfmove != 0 && s_stored_dtz(store, &c, r, &d, err, errlen) < 0)
            return -1; /* (c has no e.p. square: only a double step sets one, and it zeroes) */
        if (sign > 0 ? d + 1 < best : d + 1 > best)
            best = d + 1;
    }
    *dtz = best;
    return 0;
}

int ep_exact_dtz_inf(store_t *store, const octad_pos_t *p, int *dtz, char *err, size_t errlen)
{
    rec_t r;
    if (store_value(store, p, &r) < 0) {
        snprintf(err, errlen, "%s", store_error(store));
        return -1;
    }
    int sign = rec_sign_inf(rec_wdl(r));
    *dtz = 0;
    if (sign == 0 || (octad_status(p) & OCTAD_CHECKMATE))
        return 0;
    octad_move_t moves[GAME_MOVES_MAX];
    int n = p->ep == OCTAD_SQ_NONE ? 0 : octad_gen_legal(p, moves);
    if (!s_has_ep(p, moves, n))
        return s_stored_dtz(store, p, r, dtz, err, errlen);
    return s_lookahead(store, p, moves, n, sign, dtz, err, errlen);
}

int ep_exact_dtz(store_t *store, const octad_pos_t *p, rec_t *rec, char *err, size_t errlen)
{
    int w = rec_wdl(*rec);
    if (p->ep == OCTAD_SQ_NONE || (w != REC_CURSED && w != REC_BLESSED))
        return 0;
    octad_move_t moves[GAME_MOVES_MAX];
    int n = octad_gen_legal(p, moves), dtz;
    if (!s_has_ep(p, moves, n))
        return 0; /* stored: its dtz is the table's, exact */
    if (s_lookahead(store, p, moves, n, rec_sign_inf(w), &dtz, err, errlen) < 0)
        return -1;
    *rec = rec_make(w, dtz, rec_dtm(*rec));
    return 0;
}
