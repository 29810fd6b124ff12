/* slider.c: rook and bishop attack tables indexed by PEXT or by magic multiplication. */
#include <stddef.h>

#include "bitboard.h"

enum {
    ROOK_TABLE_NB = 102400, /* sum over squares of 2^popcount(rook mask) */
    BISHOP_TABLE_NB = 5248
};

static uint64_t s_rook_table[ROOK_TABLE_NB];
static uint64_t s_bishop_table[BISHOP_TABLE_NB];

bb64_slider_t bb64_rook_sliders[CHESS_SQ_NB];
bb64_slider_t bb64_bishop_sliders[CHESS_SQ_NB];

static const int s_rook_dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int s_bishop_dirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

/* Slow reference: attacks from sq along dirs, stopping at the first blocker in occ. */
static uint64_t s_ray_attacks(int sq, uint64_t occ, const int (*dirs)[2])
{
    uint64_t att = 0;
    for (int d = 0; d < 4; d++) {
        int f = (sq & 7) + dirs[d][0], r = (sq >> 3) + dirs[d][1];
        while (f >= 0 && f < 8 && r >= 0 && r < 8) {
            att |= bb64_sq(8 * r + f);
            if (occ & bb64_sq(8 * r + f))
                break;
            f += dirs[d][0];
            r += dirs[d][1];
        }
    }
    return att;
}

/* Relevant blockers: the rays without their last square (the board edge). */
static uint64_t s_mask(int sq, const int (*dirs)[2])
{
    uint64_t m = 0;
    for (int d = 0; d < 4; d++) {
        int f = (sq & 7) + dirs[d][0], r = (sq >> 3) + dirs[d][1];
        int nf = f + dirs[d][0], nr = r + dirs[d][1];
        while (nf >= 0 && nf < 8 && nr >= 0 && nr < 8) {
            m |= bb64_sq(8 * r + f);
            f = nf;
            r = nr;
            nf += dirs[d][0];
            nr += dirs[d][1];
        }
    }
    return m;
}

/* Deterministic xorshift64* generator for the magic search. */
static uint64_t s_rand(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ULL;
}

/* Finds a magic for s (mask and shift set) that maps the n occupancies without a destructive collision. */
static void s_find_magic(bb64_slider_t *s, uint64_t *table, const uint64_t *occ, const uint64_t *att,
                         int n, uint64_t *seed)
{
    static int epoch[4096];
    static int cur;
    for (;;) {
        uint64_t magic = s_rand(seed) & s_rand(seed) & s_rand(seed);
        if (bb64_count((s->mask * magic) >> 56) < 6)
            continue;
        cur++;
        int i = 0;
        for (; i < n; i++) {
            size_t idx = (size_t)(((occ[i] & s->mask) * magic) >> s->shift);
            if (epoch[idx] < cur) {
                epoch[idx] = cur;
                table[idx] = att[i];
            } else if (table[idx] != att[i]) {
                break;
            }
        }
        if (i == n) {
            s->magic = magic;
            return;
        }
    }
}

/* Builds one piece's 64 entries into table for the chosen method. */
static void s_build(bb64_slider_t *sliders, uint64_t *table, const int (*dirs)[2], bb64_sliders_t method)
{
    static uint64_t occ[4096], att[4096];
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    size_t offset = 0;
    for (int sq = 0; sq < CHESS_SQ_NB; sq++) {
        bb64_slider_t *s = &sliders[sq];
        s->mask = s_mask(sq, dirs);
        s->shift = (unsigned)(64 - bb64_count(s->mask));
        s->attacks = table + offset;
        int n = 0;
        uint64_t b = 0;
        do { /* every subset of the mask (Carry-Rippler) */
            occ[n] = b;
            att[n++] = s_ray_attacks(sq, b, dirs);
            b = (b - s->mask) & s->mask;
        } while (b);
        if (method == BB_SLIDERS_PEXT) {
            s->magic = 0;
            for (int i = 0; i < n; i++)
                table[offset + bb64_pext(occ[i], s->mask)] = att[i];
        } else {
            s_find_magic(s, table + offset, occ, att, n, &seed);
        }
        offset += (size_t)n;
    }
}

void slider_init(bb64_sliders_t method)
{
    s_build(bb64_rook_sliders, s_rook_table, s_rook_dirs, method);
    s_build(bb64_bishop_sliders, s_bishop_table, s_bishop_dirs, method);
}
