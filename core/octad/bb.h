/* bb.h: 16-bit bitboard helpers and the attack tables built by octad_init(). */
#pragma once

#include <stdint.h>

#include "position.h"

#ifdef __BMI2__
#include <immintrin.h>
#endif

typedef uint16_t bb_t;

/* Forces inlining where a constant colour argument must fold (hot perft paths). */
#define BB_INLINE static inline __attribute__((always_inline))

#define BB_FILE_A 0x1111u
#define BB_FILE_D 0x8888u
#define BB_RANK_1 0x000Fu
#define BB_RANK_2 0x00F0u
#define BB_RANK_3 0x0F00u
#define BB_RANK_4 0xF000u

/* Attack tables; valid after octad_init(). */
extern bb_t bb_knight_att[OCTAD_SQ_NB + 1];           /* [OCTAD_SQ_NONE] = 0, a sentinel */
extern bb_t bb_king_att[OCTAD_SQ_NB];
extern bb_t bb_home_dist2[OCTAD_SQ_NB];               /* same-rank squares two files away */
/* Squares a pawn of colour c on sq attacks; [c][OCTAD_SQ_NONE] = 0, a sentinel. */
extern bb_t bb_pawn_att[OCTAD_COLOR_NB][OCTAD_SQ_NB + 1];
extern bb_t bb_between[OCTAD_SQ_NB][OCTAD_SQ_NB];     /* squares strictly between two aligned squares */
extern bb_t bb_line[OCTAD_SQ_NB][OCTAD_SQ_NB];        /* whole line through two aligned squares, else 0 */
/* Where non-king moves may land against a single checker on c: c and the
 * squares between it and the king on k; [k][OCTAD_SQ_NONE] (no check) = all. */
extern bb_t bb_evasion[OCTAD_SQ_NB][OCTAD_SQ_NB + 1];
/* Slider lookups; square OCTAD_SQ_NONE (16) is a sentinel with no attacks. */
extern bb_t bb_rook_mask[OCTAD_SQ_NB + 1];            /* relevant occupancy for rook attacks */
extern bb_t bb_bishop_mask[OCTAD_SQ_NB + 1];
extern bb_t bb_rook_table[OCTAD_SQ_NB + 1][16];       /* indexed by bb_slider_index() */
extern bb_t bb_bishop_table[OCTAD_SQ_NB + 1][4];
/* Multipliers of the portable (non-BMI2) index, found by octad_init(). */
extern uint32_t bb_rook_magic[OCTAD_SQ_NB + 1];
extern uint32_t bb_bishop_magic[OCTAD_SQ_NB + 1];
extern bb_t bb_rook_empty[OCTAD_SQ_NB];               /* rook attacks on an empty board */
extern bb_t bb_bishop_empty[OCTAD_SQ_NB];

/* Bit of square sq. */
static inline bb_t bb_sq(int sq) { return (bb_t)(1u << sq); }

/* Number of set bits. */
static inline int bb_count(unsigned b) { return __builtin_popcount(b); }

/* Lowest set square; b must be non-zero. */
static inline int bb_lsb(unsigned b) { return __builtin_ctz(b); }

/* Clears the lowest set bit and returns its square; *b must be non-zero. */
static inline int bb_pop_lsb(bb_t *b)
{
    int sq = __builtin_ctz(*b);
    *b = (bb_t)(*b & (*b - 1));
    return sq;
}

/* Whether more than one bit is set. */
static inline int bb_several(unsigned b) { return (b & (b - 1)) != 0; }

/* Index of the occupancy occ under a slider mask into its attack table of
 * 2^bits entries: PEXT where the compiler may use BMI2, else a multiply-shift
 * with a multiplier octad_init() found to be collision-free for that square
 * (at most 4 relevant bits for a rook on 4x4, 2 for a bishop). */
static inline unsigned bb_slider_index(unsigned occ, unsigned mask, uint32_t magic, int bits)
{
#ifdef __BMI2__
    (void)magic;
    (void)bits;
    return _pext_u32(occ, mask);
#else
    return (unsigned)(((uint32_t)(occ & mask) * magic) >> (32 - bits));
#endif
}

/* Rook attacks from sq given occupancy occ. */
static inline bb_t bb_rook_att(int sq, bb_t occ)
{
    return bb_rook_table[sq][bb_slider_index(occ, bb_rook_mask[sq], bb_rook_magic[sq], 4)];
}

/* Bishop attacks from sq given occupancy occ. */
static inline bb_t bb_bishop_att(int sq, bb_t occ)
{
    return bb_bishop_table[sq][bb_slider_index(occ, bb_bishop_mask[sq], bb_bishop_magic[sq], 2)];
}

/* Squares attacked by all pawns `pawns` of colour c. */
static inline bb_t bb_pawns_att(int c, bb_t pawns)
{
    if (c == OCTAD_WHITE)
        return (bb_t)(((pawns & ~BB_FILE_A) << 3) | ((pawns & ~BB_FILE_D) << 5));
    return (bb_t)(((pawns & ~BB_FILE_A) >> 5) | ((pawns & ~BB_FILE_D) >> 3));
}

/* Pawns one step forward (colour c), bits past the board dropped. */
static inline bb_t bb_pawns_push(int c, bb_t pawns)
{
    return c == OCTAD_WHITE ? (bb_t)(pawns << 4) : (bb_t)(pawns >> 4);
}

/* File (0-3) and rank (0-3) of a square. */
static inline int bb_file(int sq) { return sq & 3; }
static inline int bb_rank(int sq) { return sq >> 2; }
