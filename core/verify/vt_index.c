/* vt_index.c: colex ranks of each group's squares among its available
 * squares, mixed radix with group 0 most significant (docs/solver.md). */
#include "vt_index.h"

#include <stdio.h>
#include <string.h>

#ifdef __BMI2__
#include <immintrin.h>
#endif

enum { VT_COUNT_MAX = 4 };

static uint32_t s_binom[17][17];
/* s_unrank[c][r]: the c-subset of {0..15} of colex rank r, as a bit mask. */
static uint16_t s_unrank[VT_COUNT_MAX + 1][1820];

static uint32_t s_pext(uint32_t v, uint32_t mask)
{
#ifdef __BMI2__
    return _pext_u32(v, mask);
#else
    uint32_t out = 0;
    for (uint32_t bit = 1; mask; mask &= mask - 1, bit <<= 1)
        if (v & mask & -mask)
            out |= bit;
    return out;
#endif
}

static uint32_t s_pdep(uint32_t v, uint32_t mask)
{
#ifdef __BMI2__
    return _pdep_u32(v, mask);
#else
    uint32_t out = 0;
    for (uint32_t bit = 1; mask; mask &= mask - 1, bit <<= 1)
        if (v & bit)
            out |= mask & -mask;
    return out;
#endif
}

void vt_index_init(void)
{
    if (s_binom[0][0])
        return;
    for (int n = 0; n <= 16; n++) {
        s_binom[n][0] = 1;
        for (int k = 1; k <= n; k++)
            s_binom[n][k] = s_binom[n - 1][k - 1] + (k <= n - 1 ? s_binom[n - 1][k] : 0);
    }
    for (uint32_t m = 0; m < 0x10000; m++) {
        int c = __builtin_popcount(m);
        if (c == 0 || c > VT_COUNT_MAX)
            continue;
        uint32_t r = 0;
        int i = 1;
        for (uint32_t b = m; b; b &= b - 1)
            r += s_binom[__builtin_ctz(b)][i++];
        s_unrank[c][r] = (uint16_t)m;
    }
}

uint16_t vt_bb_flip(uint16_t b)
{
    return (uint16_t)((b << 12) | ((b << 4) & 0x0F00) | ((b >> 4) & 0x00F0) | (b >> 12));
}

uint16_t vt_bb_mirror(uint16_t b)
{
    b = (uint16_t)(((b & 0x5555) << 1) | ((b >> 1) & 0x5555));
    return (uint16_t)(((b & 0x3333) << 2) | ((b >> 2) & 0x3333));
}

static void s_map(const octad_pos_t *in, octad_pos_t *out, uint16_t (*f)(uint16_t), int sqxor, bool swap)
{
    octad_pos_t o = *in;
    for (int c = 0; c < 2; c++)
        o.color[swap ? c ^ 1 : c] = f(in->color[c]);
    for (int t = 0; t < OCTAD_PIECE_TYPE_NB; t++)
        o.type[t] = f(in->type[t]);
    o.castle = f(in->castle);
    for (int c = 0; c < 2; c++)
        o.ksq[swap ? c ^ 1 : c] = (uint8_t)(in->ksq[c] ^ sqxor);
    if (swap)
        o.side = (uint8_t)(in->side ^ 1);
    o.ep = in->ep == OCTAD_SQ_NONE ? OCTAD_SQ_NONE : (uint8_t)(in->ep ^ sqxor);
    *out = o;
}

void vt_flip(const octad_pos_t *in, octad_pos_t *out)
{
    s_map(in, out, vt_bb_flip, 12, true);
}

void vt_mirror(const octad_pos_t *in, octad_pos_t *out)
{
    s_map(in, out, vt_bb_mirror, 3, false);
}

uint64_t vt_slice_key(const int8_t kfile[2], const uint8_t partners[2], const uint8_t knights[2],
                      const uint16_t pawns[2])
{
    uint64_t k = 0;
    for (int s = 0; s < 2; s++)
        k = (k << 11) | ((uint64_t)(kfile[s] + 1) << 8) | ((uint64_t)partners[s] << 4) | knights[s];
    return (k << 32) | ((uint64_t)pawns[0] << 16) | pawns[1];
}

/* Checks one side's rights configuration; home rank 0 (side to move) or 3. */
static int s_check_rights(const vt_slice_t *sl, int s, int knights_owned, char *err, size_t errlen)
{
    const char *who = s ? "other side" : "side to move";
    int home = s ? 12 : 0;
    if (sl->kfile[s] < 0) {
        if (sl->partners[s] || sl->knights[s]) {
            snprintf(err, errlen, "%s: partners without a king file", who);
            return -1;
        }
        return 0;
    }
    int k = sl->kfile[s];
    if (k > 3 || sl->partners[s] == 0 || (sl->partners[s] & ~0xF) || (sl->partners[s] & (1 << k))
        || (sl->knights[s] & ~sl->partners[s])) {
        snprintf(err, errlen, "%s: bad rights configuration (king file %d, partners %#x, knights %#x)", who, k,
                 sl->partners[s], sl->knights[s]);
        return -1;
    }
    for (int f = 0; f < 4; f++) {
        if (!(sl->partners[s] & (1 << f)))
            continue;
        int dist = f > k ? f - k : k - f;
        bool knight = sl->knights[s] & (1 << f);
        if (knight ? dist != 1 : (dist > 2 || !(sl->pawns[s] & (1 << (home + f))))) {
            snprintf(err, errlen, "%s: partner on file %c cannot hold a right", who, 'a' + f);
            return -1;
        }
    }
    if (__builtin_popcount(sl->knights[s]) > knights_owned) {
        snprintf(err, errlen, "%s: more knight partners than knights", who);
        return -1;
    }
    return 0;
}

static int s_check_pawns(const vt_slice_t *sl, const vt_side_t *mat[2], char *err, size_t errlen)
{
    if ((sl->pawns[0] & 0xF000) || (sl->pawns[1] & 0x000F) || (sl->pawns[0] & sl->pawns[1])) {
        snprintf(err, errlen, "pawns on impossible squares (%#06x, %#06x)", sl->pawns[0], sl->pawns[1]);
        return -1;
    }
    for (int s = 0; s < 2; s++)
        if (__builtin_popcount(sl->pawns[s]) != mat[s]->n[OCTAD_PAWN]) {
            snprintf(err, errlen, "%s has %d pawns, the table's material %d", s ? "other side" : "side to move",
                     __builtin_popcount(sl->pawns[s]), mat[s]->n[OCTAD_PAWN]);
            return -1;
        }
    return 0;
}

static void s_add_group(vt_slice_t *sl, int s, int type, int count)
{
    if (count > 0)
        sl->group[sl->ngroups++] = (vt_group_t){.side = (uint8_t)s, .type = (uint8_t)type, .count = (uint8_t)count};
}

int vt_slice_build(vt_slice_t *sl, const vt_side_t *stm, const vt_side_t *other, char *err, size_t errlen)
{
    const vt_side_t *mat[2] = {stm, other};
    if (s_check_pawns(sl, mat, err, errlen) < 0)
        return -1;
    for (int s = 0; s < 2; s++) {
        if (s_check_rights(sl, s, mat[s]->n[OCTAD_KNIGHT], err, errlen) < 0)
            return -1;
        int home = s ? 12 : 0;
        sl->fixed[s] = 0;
        if (sl->kfile[s] >= 0)
            sl->fixed[s] = (uint16_t)((1u << (home + sl->kfile[s])) | ((unsigned)sl->knights[s] << home));
    }
    if ((sl->fixed[0] | sl->fixed[1]) & (sl->pawns[0] | sl->pawns[1])) {
        snprintf(err, errlen, "a fixed piece stands on a pawn");
        return -1;
    }
    sl->free = (uint16_t)~(sl->pawns[0] | sl->pawns[1] | sl->fixed[0] | sl->fixed[1]);
    sl->ngroups = 0;
    for (int s = 0; s < 2; s++)
        if (sl->kfile[s] < 0)
            s_add_group(sl, s, OCTAD_KING, 1);
    static const int order[] = {OCTAD_QUEEN, OCTAD_ROOK, OCTAD_BISHOP, OCTAD_KNIGHT};
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < 4; i++) {
            int c = mat[s]->n[order[i]];
            if (order[i] == OCTAD_KNIGHT)
                c -= __builtin_popcount(sl->knights[s]);
            if (c > VT_COUNT_MAX) {
                snprintf(err, errlen, "%d identical pieces in one group", c);
                return -1;
            }
            s_add_group(sl, s, order[i], c);
        }
    int n = __builtin_popcount(sl->free);
    sl->size = 1;
    for (int g = 0; g < sl->ngroups; g++) {
        int avail = g == 0 && sl->half ? __builtin_popcount(sl->free & 0x3333) : n;
        int c = sl->group[g].count;
        sl->group[g].radix = c <= avail ? s_binom[avail][c] : 0;
        sl->size *= sl->group[g].radix;
        n -= c;
    }
    return 0;
}

static void s_put(octad_pos_t *p, int color, int type, uint16_t squares)
{
    p->color[color] |= squares;
    p->type[type] |= squares;
}

void vt_slice_decode(const vt_slice_t *sl, uint64_t idx, octad_pos_t *out)
{
    uint32_t r[VT_GROUP_MAX];
    int k = sl->ngroups - 1;
    for (; k >= 0 && idx > UINT32_MAX; k--) {
        r[k] = (uint32_t)(idx % sl->group[k].radix);
        idx /= sl->group[k].radix;
    }
    for (uint32_t small = (uint32_t)idx; k >= 0; k--) { /* 32-bit division is much cheaper */
        r[k] = small % sl->group[k].radix;
        small /= sl->group[k].radix;
    }
    octad_pos_t p;
    memset(&p, 0, sizeof p);
    p.side = OCTAD_WHITE;
    p.ep = OCTAD_SQ_NONE;
    p.fullmove = 1;
    for (int s = 0; s < 2; s++) {
        int home = s ? 12 : 0;
        s_put(&p, s, OCTAD_PAWN, sl->pawns[s]);
        if (sl->kfile[s] >= 0) {
            s_put(&p, s, OCTAD_KING, (uint16_t)(1u << (home + sl->kfile[s])));
            s_put(&p, s, OCTAD_KNIGHT, (uint16_t)(sl->knights[s] << home));
            p.castle |= (uint16_t)(sl->partners[s] << home);
        }
    }
    uint16_t used = 0;
    for (int g = 0; g < sl->ngroups; g++) {
        uint16_t avail = (uint16_t)(sl->free & ~used);
        if (g == 0 && sl->half)
            avail &= 0x3333;
        uint16_t sq = (uint16_t)s_pdep(s_unrank[sl->group[g].count][r[g]], avail);
        s_put(&p, sl->group[g].side, sl->group[g].type, sq);
        used |= sq;
    }
    for (int s = 0; s < 2; s++)
        p.ksq[s] = (uint8_t)__builtin_ctz(p.type[OCTAD_KING] & p.color[s]);
    *out = p;
}

int64_t vt_slice_encode(const vt_slice_t *sl, const octad_pos_t *p)
{
    uint64_t idx = 0;
    uint16_t used = 0;
    for (int g = 0; g < sl->ngroups; g++) {
        const vt_group_t *gr = &sl->group[g];
        uint16_t avail = (uint16_t)(sl->free & ~used);
        if (g == 0 && sl->half)
            avail &= 0x3333;
        uint16_t sq = (uint16_t)(p->type[gr->type] & p->color[gr->side] & ~sl->fixed[gr->side]);
        if ((sq & ~avail) || __builtin_popcount(sq) != gr->count)
            return VT_NO_SLOT;
        uint32_t m = s_pext(sq, avail), r = 0;
        for (int i = 1; m; m &= m - 1)
            r += s_binom[__builtin_ctz(m)][i++];
        idx = idx * gr->radix + r;
        used |= sq;
    }
    return (int64_t)idx;
}
