/* tt.h: the perft transposition table; the key IS the position, so no collisions.
 *
 * Several threads may use one table at once when octad_tt_shareable() says
 * so: every entry is read and written as one aligned 16-byte access, which
 * x86-64 processors with AVX carry out atomically (Intel SDM vol. 3A 9.1.1;
 * AMD APM vol. 2 7.3.2). A reader then sees a whole entry, old or new, never
 * the key of one position with the count of another, so a shared table stays
 * exact. Elsewhere each thread keeps its own table. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "bb.h"

/* One entry, 16 bytes; four make a 64-byte bucket (one cache line).
 *
 * | word | bits  | field                                                    |
 * |------|-------|----------------------------------------------------------|
 * | key  | 0-63  | placement: black occupancy, then three type bit planes   |
 * | data | 0-47  | subtree count (never stored if it does not fit)          |
 * | data | 48-59 | side, castling rights (8 partner squares), e.p. file + 1 |
 * | data | 60-63 | remaining depth (2-15); 0 marks an empty entry           |
 */
typedef struct {
    _Alignas(16) uint64_t key;
    uint64_t data;
} tt_entry_t;

enum { TT_BUCKET_ENTRIES = 4, TT_DEPTH_MAX = 15 };

#define TT_COUNT_BITS 48
#define TT_COUNT_MASK ((UINT64_C(1) << TT_COUNT_BITS) - 1)

struct octad_tt {
    tt_entry_t *entries; /* nbuckets * TT_BUCKET_ENTRIES, 64-byte aligned */
    uint64_t nbuckets;
    size_t mapped;       /* bytes of `entries` to munmap, or 0: from aligned_alloc */
};

/* The exact key of p: placement in *placement, the rest (12 bits) returned.
 * The e.p. square counts only when a pawn of the side to move attacks it
 * (otherwise the game tree does not depend on it). */
static inline unsigned tt_key(const octad_pos_t *p, uint64_t *placement)
{
    bb_t plane0 = (bb_t)(p->type[OCTAD_PAWN] | p->type[OCTAD_BISHOP] | p->type[OCTAD_QUEEN]);
    bb_t plane1 = (bb_t)(p->type[OCTAD_KNIGHT] | p->type[OCTAD_BISHOP] | p->type[OCTAD_KING]);
    bb_t plane2 = (bb_t)(p->type[OCTAD_ROOK] | p->type[OCTAD_QUEEN] | p->type[OCTAD_KING]);
    *placement = (uint64_t)p->color[OCTAD_BLACK] | ((uint64_t)plane0 << 16)
                 | ((uint64_t)plane1 << 32) | ((uint64_t)plane2 << 48);
    unsigned rights = (p->castle & 0xFu) | ((p->castle >> 8) & 0xF0u);
    unsigned ep = 0;
    if (p->ep != OCTAD_SQ_NONE
        && (bb_pawn_att[p->side ^ 1][p->ep] & p->type[OCTAD_PAWN] & p->color[p->side]))
        ep = (unsigned)bb_file(p->ep) + 1;
    return p->side | (rights << 1) | (ep << 9);
}

/* First entry of the bucket of a key. */
static inline tt_entry_t *tt_bucket(const struct octad_tt *tt, uint64_t placement, unsigned rest)
{
    uint64_t h = (placement ^ ((uint64_t)rest * UINT64_C(0x9E3779B97F4A7C15)))
                 * UINT64_C(0xD6E8FEB86659FD93);
    h ^= h >> 29;
    uint64_t idx = (uint64_t)(((unsigned __int128)h * tt->nbuckets) >> 64);
    return tt->entries + idx * TT_BUCKET_ENTRIES;
}

/* Reads an entry in one 16-byte access (see the top of this file). */
static inline tt_entry_t tt_entry_read(const tt_entry_t *e)
{
    tt_entry_t out;
#if defined(__x86_64__)
    __m128i v;
#if defined(__AVX__)
    __asm__ volatile("vmovdqa %1, %0" : "=x"(v) : "m"(*e));
#else
    __asm__ volatile("movdqa %1, %0" : "=x"(v) : "m"(*e));
#endif
    out.key = (uint64_t)_mm_cvtsi128_si64(v);
    out.data = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v));
#else
    out = *e;
#endif
    return out;
}

/* Writes an entry in one 16-byte access. */
static inline void tt_entry_write(tt_entry_t *e, uint64_t key, uint64_t data)
{
#if defined(__x86_64__)
    __m128i v = _mm_set_epi64x((long long)data, (long long)key);
#if defined(__AVX__)
    __asm__ volatile("vmovdqa %1, %0" : "=m"(*e) : "x"(v));
#else
    __asm__ volatile("movdqa %1, %0" : "=m"(*e) : "x"(v));
#endif
#else
    e->key = key;
    e->data = data;
#endif
}

/* Looks up (key, depth); returns 1 and the count in *count on a hit. */
static inline int tt_probe(const tt_entry_t *b, uint64_t placement, unsigned rest, int depth,
                           uint64_t *count)
{
    uint64_t tag = ((uint64_t)rest | ((uint64_t)depth << 12)) << TT_COUNT_BITS;
    for (int i = 0; i < TT_BUCKET_ENTRIES; i++) {
        tt_entry_t e = tt_entry_read(&b[i]);
        if (e.key == placement && (e.data & ~TT_COUNT_MASK) == tag) {
            *count = e.data & TT_COUNT_MASK;
            return 1;
        }
    }
    return 0;
}

/* Stores a count, replacing the shallowest entry of the bucket; skips what does not fit. */
static inline void tt_store(tt_entry_t *b, uint64_t placement, unsigned rest, int depth,
                            uint64_t count)
{
    if (count > TT_COUNT_MASK || depth > TT_DEPTH_MAX)
        return;
    int victim = 0;
    uint64_t victim_depth = tt_entry_read(&b[0]).data >> 60;
    for (int i = 1; i < TT_BUCKET_ENTRIES; i++) {
        uint64_t d = tt_entry_read(&b[i]).data >> 60;
        if (d < victim_depth) {
            victim = i;
            victim_depth = d;
        }
    }
    tt_entry_write(&b[victim], placement,
                   count | (((uint64_t)rest | ((uint64_t)depth << 12)) << TT_COUNT_BITS));
}
