/* bitboard.h: 64-bit board sets, leaper tables and slider attacks (magic or PEXT). */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#if defined(__BMI2__)
#include <immintrin.h>
#endif

#include "position.h"

enum {
    BB_RANK_1 = 0,
    BB_RANK_8 = 7
};

#define BB_FILE_A 0x0101010101010101ULL
#define BB_FILE_H 0x8080808080808080ULL
#define BB_RANK_1_MASK 0x00000000000000FFULL
#define BB_RANK_2_MASK 0x000000000000FF00ULL
#define BB_RANK_3_MASK 0x0000000000FF0000ULL
#define BB_RANK_6_MASK 0x0000FF0000000000ULL
#define BB_RANK_7_MASK 0x00FF000000000000ULL
#define BB_RANK_8_MASK 0xFF00000000000000ULL

/* Slider lookup for one square: attacks[index(occupancy & mask)]. */
typedef struct {
    const uint64_t *attacks;
    uint64_t mask;
    uint64_t magic;
    unsigned shift;
} bb64_slider_t;

/* How slider indices are computed; chosen by bb64_init from the CPU. */
typedef enum {
    BB_SLIDERS_MAGIC,
    BB_SLIDERS_PEXT
} bb64_sliders_t;

extern uint64_t bb64_knight[CHESS_SQ_NB];
extern uint64_t bb64_king[CHESS_SQ_NB];
extern uint64_t bb64_pawn_attacks[CHESS_COLOR_NB][CHESS_SQ_NB];
extern uint64_t bb64_between[CHESS_SQ_NB][CHESS_SQ_NB]; /* squares strictly between two aligned squares, else 0 */
extern uint64_t bb64_line[CHESS_SQ_NB][CHESS_SQ_NB];    /* whole line through two aligned squares, else 0 */
extern uint64_t bb64_rook_rays[CHESS_SQ_NB];            /* rook attacks on an empty board */
extern uint64_t bb64_bishop_rays[CHESS_SQ_NB];          /* bishop attacks on an empty board */
extern bb64_slider_t bb64_rook_sliders[CHESS_SQ_NB];
extern bb64_slider_t bb64_bishop_sliders[CHESS_SQ_NB];
extern bool bb64_use_pext;

/* Builds every table, choosing PEXT when the CPU has fast BMI2. Idempotent. */
void bb64_init(void);

/* Rebuilds the slider tables with the given method (tests use it to check both). */
void bb64_select_sliders(bb64_sliders_t method);

/* The method the slider tables were built with. */
bb64_sliders_t bb64_sliders(void);

/* True when this CPU can run PEXT at all. */
bool bb64_cpu_has_pext(void);

/* Builds the slider tables (slider.c) for `method`. */
void slider_init(bb64_sliders_t method);

/* Bitboard of one square. */
static inline uint64_t bb64_sq(int sq) { return 1ULL << sq; }

/* Number of set bits. */
static inline int bb64_count(uint64_t b) { return __builtin_popcountll(b); }

/* Index of the lowest set bit; b must not be 0. */
static inline int bb64_lsb(uint64_t b) { return __builtin_ctzll(b); }

/* Pops and returns the lowest set bit of *b; *b must not be 0. */
static inline int bb64_pop(uint64_t *b)
{
    int sq = __builtin_ctzll(*b);
    *b &= *b - 1;
    return sq;
}

/* True if b has more than one bit set. */
static inline bool bb64_many(uint64_t b) { return (b & (b - 1)) != 0; }

/* Parallel bit extract; the run-time choice guarantees the CPU has it. */
static inline uint64_t bb64_pext(uint64_t x, uint64_t mask)
{
#if defined(__BMI2__)
    return _pext_u64(x, mask);
#else
    uint64_t r;
    __asm__("pextq %2, %1, %0" : "=r"(r) : "r"(x), "r"(mask));
    return r;
#endif
}

/* Attacks of a slider table entry for occupancy occ. */
static inline uint64_t bb64_slider_attacks(const bb64_slider_t *s, uint64_t occ)
{
    uint64_t idx = bb64_use_pext ? bb64_pext(occ, s->mask)
                               : ((occ & s->mask) * s->magic) >> s->shift;
    return s->attacks[idx];
}

/* Rook attacks from sq with blockers occ. */
static inline uint64_t bb64_rook_attacks(int sq, uint64_t occ)
{
    return bb64_slider_attacks(&bb64_rook_sliders[sq], occ);
}

/* Bishop attacks from sq with blockers occ. */
static inline uint64_t bb64_bishop_attacks(int sq, uint64_t occ)
{
    return bb64_slider_attacks(&bb64_bishop_sliders[sq], occ);
}

/* Shifts every square one rank forward for `color` (white: up). */
static inline uint64_t bb64_forward(uint64_t b, int color)
{
    return color == CHESS_WHITE ? b << 8 : b >> 8;
}
