/* comb.h: the combinatorial number system on 16-bit square sets, and the
 * board symmetries the solver uses (colour flip, left-right mirror).
 *
 * A set of k squares chosen among n available squares is ranked by "colex"
 * order: its squares s_1 < ... < s_k (numbered 0..n-1 among the available
 * squares) get rank sum_i binom(s_i, i). Among all k-subsets of 16 squares,
 * colex order is the numeric order of the bitmasks, and the first binom(n, k)
 * of them are exactly those inside the lowest n squares: so one table ranks a
 * subset of any n available squares once it is compressed onto bits 0..n-1
 * (comb_pext) and one table unranks it (comb_pdep puts it back). */
#pragma once

#include <stdint.h>

#ifdef __BMI2__
#include <immintrin.h>
#endif

/* Filled by comb_init(): rank of every 16-bit mask among masks of its popcount,
 * the masks of each popcount in rank order, and binomials up to 16. */
extern uint16_t comb_rank_table[1 << 16];
extern const uint16_t *comb_unrank_table[17];
extern uint32_t comb_binom_table[17][17];

/* Builds the tables. Idempotent; not thread-safe (call once at start-up). */
void comb_init(void);

/* binom(n, k) for 0 <= n, k <= 16 (0 when k > n). */
static inline uint32_t comb_binom(int n, int k) { return comb_binom_table[n][k]; }

/* Bits of x under mask, packed to the low end (x86 PEXT). */
static inline unsigned comb_pext(unsigned x, unsigned mask)
{
#ifdef __BMI2__
    return _pext_u32(x, mask);
#else
    unsigned r = 0;
    for (unsigned bit = 1; mask; mask &= mask - 1, bit <<= 1)
        if (x & mask & -mask)
            r |= bit;
    return r;
#endif
}

/* The low bits of x spread onto the set bits of mask (x86 PDEP). */
static inline unsigned comb_pdep(unsigned x, unsigned mask)
{
#ifdef __BMI2__
    return _pdep_u32(x, mask);
#else
    unsigned r = 0;
    for (unsigned bit = 1; mask; mask &= mask - 1, bit <<= 1)
        if (x & bit)
            r |= mask & -mask;
    return r;
#endif
}

/* Rank of the square set `set` (a subset of `avail`) among the subsets of
 * `avail` with as many squares. */
static inline unsigned comb_rank(unsigned set, unsigned avail)
{
    return comb_rank_table[comb_pext(set, avail)];
}

/* The k-subset of `avail` with rank r (r < binom(popcount(avail), k)). */
static inline unsigned comb_unrank(unsigned r, int k, unsigned avail)
{
    return comb_pdep(comb_unrank_table[k][r], avail);
}

/* Colour flip: ranks 1-4 become 4-1 (square sq -> sq ^ 12). */
static inline uint16_t comb_flip_ranks(unsigned b)
{
    return (uint16_t)(((b & 0x000Fu) << 12) | ((b & 0x00F0u) << 4) | ((b >> 4) & 0x00F0u) | ((b >> 12) & 0xFu));
}

/* Left-right mirror: files a-d become d-a (square sq -> sq ^ 3). */
static inline uint16_t comb_mirror_files(unsigned b)
{
    b = ((b & 0x5555u) << 1) | ((b >> 1) & 0x5555u);
    b = ((b & 0x3333u) << 2) | ((b >> 2) & 0x3333u);
    return (uint16_t)b;
}
