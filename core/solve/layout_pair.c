/* layout_pair.c: the units of a pair of tables and their solving order.
 *
 * A move that keeps the halfmove clock running (no capture, no pawn move, no
 * change of rights) keeps the pawns, the rights and the material, and hands
 * the move to the other side: so it leads from slice (table, rights A/B, pawn
 * configuration c) to the colour flip (flipped table, rights B/A, flip(c)).
 * Those one or two slices form a unit, solved as one retrograde problem. Every
 * other move leaves the unit for a unit solved earlier: a capture or a
 * promotion for an earlier pair, a pawn move for a unit with more advanced
 * pawns (a higher "potential": the sum of how far each pawn has come), a
 * change of rights for a unit with fewer rights. Units are solved by key:
 * fewer rights first, then higher potential; equal keys are independent. */
#include <stdlib.h>
#include <string.h>

#include "comb.h"
#include "layout.h"
#include "sig.h"

typedef struct {
    layout_slice_t *v;
    int n, cap;
} s_list_t;

static int s_push(s_list_t *l, const layout_slice_t *s)
{
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 64;
        layout_slice_t *v = realloc(l->v, sizeof *v * (size_t)cap);
        if (!v)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n] = *s;
    return l->n++;
}

typedef struct {
    int table[2], ntables;
    s_list_t lists[2];
    layout_unit_t *units;
    int nunits, cap;
} s_build_t;

static int s_potential(uint16_t sp, uint16_t op)
{
    int p = 0;
    for (unsigned b = sp; b; b &= b - 1)
        p += __builtin_ctz(b) >> 2;
    for (unsigned b = op; b; b &= b - 1)
        p += 3 - (__builtin_ctz(b) >> 2);
    return p;
}

/* Adds a unit of the slices (tab[i], ra[i], rb[i], c[i], half), i < n; a unit
 * with no position of its shape is skipped. */
static int s_add_unit(s_build_t *b, int n, const int *tab, const int *ra, const int *rb, const int *c, bool half)
{
    layout_unit_t u = {{0, 0}, {0, 0}, n, 0};
    layout_slice_t s[2];
    for (int i = 0; i < n; i++)
        if (!layout_slice_make(b->table[tab[i]], ra[i], rb[i], c[i], half, &s[i]))
            return 0;
    u.key = (__builtin_popcount(rights_cfg(ra[0])->partners) + __builtin_popcount(rights_cfg(rb[0])->partners)) * 64
            + 63 - s_potential(s[0].pawns[0], s[0].pawns[1]);
    for (int i = 0; i < n; i++) {
        int idx = s_push(&b->lists[tab[i]], &s[i]);
        if (idx < 0)
            return -1;
        u.tab[i] = tab[i];
        u.slice[i] = idx;
    }
    if (b->nunits == b->cap) {
        int cap = b->cap ? b->cap * 2 : 64;
        layout_unit_t *v = realloc(b->units, sizeof *v * (size_t)cap);
        if (!v)
            return -1;
        b->units = v;
        b->cap = cap;
    }
    b->units[b->nunits++] = u;
    return 0;
}

/* Pawn configuration of the flipped table for configuration c of table 0. */
static int s_flip_pcfg(int c, int ps, int po)
{
    uint16_t sp, op;
    layout_pcfg_pawns(c, ps, po, &sp, &op);
    return layout_pcfg(comb_flip_ranks(op), comb_flip_ranks(sp));
}

static int s_mirror_pcfg(int c, int ps, int po)
{
    uint16_t sp, op;
    layout_pcfg_pawns(c, ps, po, &sp, &op);
    return layout_pcfg(comb_mirror_files(sp), comb_mirror_files(op));
}

static int s_min(int a, int b) { return a < b ? a : b; }

/* The base layer (no rights): one unit per mirror class of configurations. */
static int s_base_units(s_build_t *b, int ps, int po)
{
    bool same = b->ntables == 1;
    int n = layout_pcfg_nb(ps, po);
    for (int c = 0; c < n; c++) {
        uint16_t sp, op;
        layout_pcfg_pawns(c, ps, po, &sp, &op);
        if (sp & op)
            continue;
        int fc = s_flip_pcfg(c, ps, po), mc = s_mirror_pcfg(c, ps, po);
        int fmc = s_flip_pcfg(mc, ps, po);
        int zero[2] = {0, 0}, tab[2] = {0, same ? 0 : 1}, cfg[2] = {c, fc};
        bool sym;
        if (!same) {
            if (mc < c)
                continue;
            sym = mc == c;
        } else {
            if (fc < c)
                continue; /* the unit was made from fc */
            sym = (mc == c && fmc == fc) || (mc == fc && fmc == c);
            if (!sym && s_min(mc, fmc) < c)
                continue;
        }
        int count = same && fc == c ? 1 : 2;
        if (s_add_unit(b, count, tab, zero, zero, cfg, sym) < 0)
            return -1;
    }
    return 0;
}

static bool s_rights_fit(int r, int side_id)
{
    const rights_cfg_t *c = rights_cfg(r);
    sig_side_t m = sig_side(side_id);
    return __builtin_popcount(c->knights) <= m.count[OCTAD_KNIGHT]
           && __builtin_popcount(c->partners & ~c->knights) <= m.count[OCTAD_PAWN];
}

/* Squares a side's rights configuration r needs: its pawn partners (*pawns)
 * and where its king and knight partners stand (*fixed), on the home rank
 * shifted by `home` (0 for the side to move, 12). */
static void s_rights_squares(int r, int home, uint16_t *pawns, uint16_t *fixed)
{
    const rights_cfg_t *c = rights_cfg(r);
    *pawns = *fixed = 0;
    if (r == RIGHTS_NONE)
        return;
    *pawns = (uint16_t)((c->partners & ~c->knights) << home);
    *fixed = (uint16_t)(((1u << c->king) | c->knights) << home);
}

/* Layers with rights for at least one side: no mirror reduction. Most
 * (rights, pawn configuration) combinations have no position: those whose
 * pawns overlap, lack a pawn partner or stand on a fixed square are skipped
 * before layout_slice_make (which refuses exactly those first), so that
 * opening a table (tbsource's quick check, layout_table_expected) stays cheap. */
static int s_rights_units(s_build_t *b, int ps, int po)
{
    bool same = b->ntables == 1;
    int x = sig_table_stm(b->table[0]), y = sig_table_opp(b->table[0]);
    int n = layout_pcfg_nb(ps, po);
    uint16_t *pawns = malloc(sizeof *pawns * 2 * (size_t)n);
    if (!pawns)
        return -1;
    for (int c = 0; c < n; c++)
        layout_pcfg_pawns(c, ps, po, &pawns[2 * c], &pawns[2 * c + 1]);
    int rc = 0;
    for (int ra = 0; ra < rights_nb() && rc == 0; ra++)
        for (int rb = 0; rb < rights_nb() && rc == 0; rb++) {
            if ((ra == 0 && rb == 0) || !s_rights_fit(ra, x) || !s_rights_fit(rb, y))
                continue;
            uint16_t need[2], fixed[2];
            s_rights_squares(ra, 0, &need[0], &fixed[0]);
            s_rights_squares(rb, 12, &need[1], &fixed[1]);
            for (int c = 0; c < n && rc == 0; c++) {
                uint16_t sp = pawns[2 * c], op = pawns[2 * c + 1];
                if ((sp & op) || (sp & need[0]) != need[0] || (op & need[1]) != need[1]
                    || ((sp | op) & (fixed[0] | fixed[1])))
                    continue;
                layout_slice_t probe;
                if (!layout_slice_make(b->table[0], ra, rb, c, false, &probe))
                    continue;
                int fc = s_flip_pcfg(c, ps, po);
                int tab[2] = {0, same ? 0 : 1}, r0[2] = {ra, rb}, r1[2] = {rb, ra}, cfg[2] = {c, fc};
                int count = 2;
                if (same) {
                    if (ra == rb && fc == c)
                        count = 1;
                    else if (rb < ra || (rb == ra && fc < c))
                        continue; /* made from its flip */
                }
                rc = s_add_unit(b, count, tab, r0, r1, cfg, false);
            }
        }
    free(pawns);
    return rc;
}

static int s_unit_cmp(const void *a, const void *b)
{
    const layout_unit_t *x = a, *y = b;
    return x->key - y->key;
}

/* The slice lists of pair `pair`'s tables (in storage order) and its units,
 * unsorted, into *b. 0, or -1 out of memory (b freed). */
static int s_collect(int pair, s_build_t *b)
{
    memset(b, 0, sizeof *b);
    b->table[0] = sig_pair_table(pair);
    b->table[1] = sig_table_flip(b->table[0]);
    b->ntables = b->table[0] == b->table[1] ? 1 : 2;
    int ps = sig_side_pawns(sig_table_stm(b->table[0])), po = sig_side_pawns(sig_table_opp(b->table[0]));
    if (s_base_units(b, ps, po) == 0 && s_rights_units(b, ps, po) == 0)
        return 0;
    free(b->lists[0].v);
    free(b->lists[1].v);
    free(b->units);
    return -1;
}

int layout_pair_build(int pair, layout_pair_t *out)
{
    s_build_t b;
    memset(out, 0, sizeof *out);
    if (s_collect(pair, &b) < 0)
        return -1;
    char err[128];
    qsort(b.units, (size_t)b.nunits, sizeof *b.units, s_unit_cmp);
    out->ntables = b.ntables;
    for (int t = 0; t < b.ntables; t++) {
        if (layout_table_build(b.table[t], b.lists[t].v, b.lists[t].n, &out->tables[t], err, sizeof err) < 0) {
            b.lists[t].v = NULL;
            goto fail;
        }
        b.lists[t].v = NULL;
    }
    out->units = b.units;
    out->nunits = b.nunits;
    return 0;
fail:
    free(b.lists[0].v);
    free(b.lists[1].v);
    free(b.units);
    layout_pair_free(out);
    return -1;
}

int layout_table_expected(int table, layout_table_t *out)
{
    s_build_t b;
    memset(out, 0, sizeof *out);
    if (s_collect(sig_pair_of(table), &b) < 0)
        return -1;
    int t = b.table[0] == table ? 0 : 1;
    char err[128];
    int rc = layout_table_build(table, b.lists[t].v, b.lists[t].n, out, err, sizeof err); /* takes the list */
    free(b.lists[1 - t].v);
    free(b.units);
    return rc;
}

void layout_pair_free(layout_pair_t *p)
{
    for (int t = 0; t < p->ntables; t++)
        layout_table_free(&p->tables[t]);
    free(p->units);
    memset(p, 0, sizeof *p);
}
