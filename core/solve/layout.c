/* layout.c: rights configurations, pawn configurations, slices, units. */
#include "layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comb.h"
#include "sig.h"

enum { RIGHTS_MAX = 64 };

static rights_cfg_t s_rights[RIGHTS_MAX];
static int s_rights_nb;
static int8_t s_rights_id[4][16][16];

/* Adds every configuration with the king on `king`: partners on files one or
 * two away, a knight only next to the king, at most one knight, two pawns. */
static void s_add_rights(int king)
{
    for (unsigned partners = 1; partners < 16; partners++) {
        if (partners & (1u << king))
            continue;
        for (unsigned knights = partners;; knights = (knights - 1) & partners) {
            bool ok = __builtin_popcount(knights) <= 1 && __builtin_popcount(partners & ~knights) <= 2;
            for (int f = 0; f < 4 && ok; f++) {
                int d = abs(f - king);
                if (!(partners & (1u << f)))
                    continue;
                if (d == 0 || d > 2 || ((knights & (1u << f)) && d != 1))
                    ok = false;
            }
            if (ok && s_rights_nb < RIGHTS_MAX) {
                s_rights_id[king][partners][knights] = (int8_t)s_rights_nb;
                s_rights[s_rights_nb++] = (rights_cfg_t){(int8_t)king, (uint8_t)partners, (uint8_t)knights};
            }
            if (knights == 0)
                break;
        }
    }
}

void layout_init(void)
{
    comb_init();
    sig_init();
    if (s_rights_nb)
        return;
    memset(s_rights_id, -1, sizeof s_rights_id);
    s_rights[0] = (rights_cfg_t){-1, 0, 0};
    s_rights_nb = 1;
    for (int k = 0; k < 4; k++)
        s_add_rights(k);
}

int rights_nb(void) { return s_rights_nb; }
const rights_cfg_t *rights_cfg(int id) { return &s_rights[id]; }

int rights_id(int king, unsigned partners, unsigned knights)
{
    if (partners == 0)
        return RIGHTS_NONE;
    if (king < 0 || king > 3 || partners > 15 || (knights & ~partners))
        return -1;
    return s_rights_id[king][partners][knights];
}

int layout_pcfg_nb(int ps, int po) { return (int)(comb_binom(12, ps) * comb_binom(12, po)); }

int layout_pcfg(unsigned sp, unsigned op)
{
    if ((sp & op) || (sp & ~0x0FFFu) || (op & ~0xFFF0u))
        return -1;
    int po = __builtin_popcount(op);
    return (int)(comb_rank(sp, 0x0FFF) * comb_binom(12, po) + comb_rank(op, 0xFFF0));
}

void layout_pcfg_pawns(int c, int ps, int po, uint16_t *sp, uint16_t *op)
{
    uint32_t b = comb_binom(12, po);
    *sp = (uint16_t)comb_unrank((unsigned)c / b, ps, 0x0FFF);
    *op = (uint16_t)comb_unrank((unsigned)c % b, po, 0xFFF0);
}

/* Places a side's fixed rights holders (king, knights) and checks its partner
 * pawns; home is the side's home rank shift (0 for the side to move, 12). */
static bool s_fix_rights(int r, int home, uint16_t pawns, uint16_t *fixed, uint16_t *castle)
{
    if (r == RIGHTS_NONE)
        return true;
    const rights_cfg_t *c = &s_rights[r];
    uint16_t pawn_partners = (uint16_t)((c->partners & ~c->knights) << home);
    if ((pawns & pawn_partners) != pawn_partners)
        return false;
    *fixed = (uint16_t)((1u << (c->king + home)) | (c->knights << home));
    *castle |= (uint16_t)(c->partners << home);
    return true;
}

/* Appends the free groups: kings not fixed, then each colour's Q, R, B, N. */
static bool s_groups(int table, layout_slice_t *s)
{
    static const int ORDER[4] = {OCTAD_QUEEN, OCTAD_ROOK, OCTAD_BISHOP, OCTAD_KNIGHT};
    int side_id[2] = {sig_table_stm(table), sig_table_opp(table)};
    s->ngroups = 0;
    for (int c = 0; c < 2; c++)
        if (s->rights[c] == RIGHTS_NONE)
            s->group[s->ngroups++] = (layout_group_t){(uint8_t)c, OCTAD_KING, 1};
    for (int c = 0; c < 2; c++) {
        sig_side_t m = sig_side(side_id[c]);
        int fixed_knights = s->rights[c] == RIGHTS_NONE ? 0 : __builtin_popcount(s_rights[s->rights[c]].knights);
        for (int i = 0; i < 4; i++) {
            int n = m.count[ORDER[i]] - (ORDER[i] == OCTAD_KNIGHT ? fixed_knights : 0);
            if (n < 0)
                return false;
            if (n > 0)
                s->group[s->ngroups++] = (layout_group_t){(uint8_t)c, (uint8_t)ORDER[i], (uint8_t)n};
        }
    }
    return true;
}

bool layout_slice_make(int table, int ra, int rb, int pcfg, bool half, layout_slice_t *s)
{
    int ps = sig_side_pawns(sig_table_stm(table)), po = sig_side_pawns(sig_table_opp(table));
    memset(s, 0, sizeof *s);
    if (ra < 0 || ra >= s_rights_nb || rb < 0 || rb >= s_rights_nb || pcfg < 0
        || pcfg >= layout_pcfg_nb(ps, po) || (half && (ra || rb)))
        return false;
    s->rights[0] = (uint16_t)ra;
    s->rights[1] = (uint16_t)rb;
    s->pcfg = (uint16_t)pcfg;
    s->half = half;
    layout_pcfg_pawns(pcfg, ps, po, &s->pawns[0], &s->pawns[1]);
    if (s->pawns[0] & s->pawns[1])
        return false;
    if (!s_fix_rights(ra, 0, s->pawns[0], &s->fixed[0], &s->castle)
        || !s_fix_rights(rb, 12, s->pawns[1], &s->fixed[1], &s->castle))
        return false;
    uint16_t occ = (uint16_t)(s->pawns[0] | s->pawns[1]);
    if ((occ & (s->fixed[0] | s->fixed[1])) || (s->fixed[0] & s->fixed[1]))
        return false;
    occ |= s->fixed[0] | s->fixed[1];
    s->free = (uint16_t)~occ;
    if (!s_groups(table, s))
        return false;
    s->domain0 = half ? (uint16_t)(s->free & 0x3333u) : s->free;
    int avail = __builtin_popcount(s->free), used = 0;
    uint64_t size = 1;
    for (int g = 0; g < s->ngroups; g++) {
        int n = g == 0 ? __builtin_popcount(s->domain0) : avail - used;
        s->radix[g] = comb_binom(n, s->group[g].count);
        used += s->group[g].count;
        size *= s->radix[g];
    }
    if (size == 0 || size > UINT32_MAX)
        return false;
    s->size = (uint32_t)size;
    return true;
}

static uint64_t s_rkey(int ra, int rb, int pcfg) { return ((uint64_t)ra << 40) | ((uint64_t)rb << 24) | (uint64_t)pcfg; }

static int s_u64_cmp(const void *a, const void *b)
{
    uint64_t x = **(const uint64_t *const *)a, y = **(const uint64_t *const *)b;
    return x < y ? -1 : x > y;
}

int layout_table_build(int table, layout_slice_t *slices, int n, layout_table_t *out, char *err,
                       unsigned errlen)
{
    memset(out, 0, sizeof *out);
    out->table = table;
    out->slices = slices;
    out->nslices = n;
    int ps = sig_side_pawns(sig_table_stm(table)), po = sig_side_pawns(sig_table_opp(table));
    out->npcfg = layout_pcfg_nb(ps, po);
    out->base = malloc(sizeof *out->base * (size_t)out->npcfg);
    uint64_t *keys = malloc(sizeof *keys * (size_t)(n ? n : 1));
    const uint64_t **order = malloc(sizeof *order * (size_t)(n ? n : 1));
    out->rkey = malloc(sizeof *out->rkey * (size_t)(n ? n : 1));
    out->rslice = malloc(sizeof *out->rslice * (size_t)(n ? n : 1));
    if (!out->base || !keys || !order || !out->rkey || !out->rslice) {
        free(keys);
        free(order);
        layout_table_free(out);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int c = 0; c < out->npcfg; c++)
        out->base[c] = LAYOUT_NONE;
    for (int i = 0; i < n; i++) {
        layout_slice_t *s = &slices[i];
        layout_slice_t check;
        if (!layout_slice_make(table, s->rights[0], s->rights[1], s->pcfg, s->half, &check)) {
            snprintf(err, errlen, "slice %d: no position has rights %d/%d and pawn configuration %d", i,
                     s->rights[0], s->rights[1], s->pcfg);
            free(keys);
            free(order);
            layout_table_free(out);
            return -1;
        }
        check.offset = out->size;
        *s = check;
        out->size += s->size;
        keys[i] = s_rkey(s->rights[0], s->rights[1], s->pcfg);
        order[i] = &keys[i];
        if (s->rights[0] == RIGHTS_NONE && s->rights[1] == RIGHTS_NONE)
            out->base[s->pcfg] = i;
    }
    qsort(order, (size_t)n, sizeof *order, s_u64_cmp);
    for (int i = 0; i < n; i++) {
        int idx = (int)(order[i] - keys);
        if (slices[idx].rights[0] == RIGHTS_NONE && slices[idx].rights[1] == RIGHTS_NONE)
            continue;
        out->rkey[out->nrights] = keys[idx];
        out->rslice[out->nrights++] = idx;
    }
    free(keys);
    free(order);
    /* Base-layer configurations without a slice whose mirror image has one. */
    for (int c = 0; c < out->npcfg; c++) {
        uint16_t sp, op;
        layout_pcfg_pawns(c, ps, po, &sp, &op);
        if (out->base[c] != LAYOUT_NONE || (sp & op))
            continue;
        int mc = layout_pcfg(comb_mirror_files(sp), comb_mirror_files(op));
        if (mc >= 0 && out->base[mc] >= 0)
            out->base[c] = LAYOUT_MIRROR;
    }
    return 0;
}

void layout_table_free(layout_table_t *t)
{
    free(t->slices);
    free(t->base);
    free(t->rkey);
    free(t->rslice);
    memset(t, 0, sizeof *t);
}

size_t layout_table_bytes(const layout_table_t *t)
{
    return (size_t)t->nslices * sizeof *t->slices + (size_t)t->npcfg * sizeof *t->base
           + (size_t)t->nslices * (sizeof *t->rkey + sizeof *t->rslice);
}

int layout_find(const layout_table_t *t, int ra, int rb, int pcfg)
{
    if (pcfg < 0 || pcfg >= t->npcfg)
        return LAYOUT_NONE;
    if (ra == RIGHTS_NONE && rb == RIGHTS_NONE)
        return t->base[pcfg];
    uint64_t key = s_rkey(ra, rb, pcfg);
    int lo = 0, hi = t->nrights - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (t->rkey[mid] == key)
            return t->rslice[mid];
        if (t->rkey[mid] < key)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return LAYOUT_NONE;
}
