/* tt.h: the perft transposition table; the key IS the position, so no collisions. */
#pragma once

#include <stdint.h>

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
    uint64_t key;
    uint64_t data;
} tt_entry_t;

enum { TT_BUCKET_ENTRIES = 4, TT_DEPTH_MAX = 15 };

#define TT_COUNT_BITS 48
#define TT_COUNT_MASK ((UINT64_C(1) << TT_COUNT_BITS) - 1)

struct octad_tt {
    tt_entry_t *entries; /* nbuckets * TT_BUCKET_ENTRIES, 64-byte aligned */
    uint64_t nbuckets;
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

/* Looks up (key, depth); returns 1 and the count in *count on a hit. */
static inline int tt_probe(const tt_entry_t *b, uint64_t placement, unsigned rest, int depth,
                           uint64_t *count)
{
    uint64_t tag = ((uint64_t)rest | ((uint64_t)depth << 12)) << TT_COUNT_BITS;
    for (int i = 0; i < TT_BUCKET_ENTRIES; i++)
        if (b[i].key == placement && (b[i].data & ~TT_COUNT_MASK) == tag) {
            *count = b[i].data & TT_COUNT_MASK;
            return 1;
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
    for (int i = 1; i < TT_BUCKET_ENTRIES; i++)
        if ((b[i].data >> 60) < (b[victim].data >> 60))
            victim = i;
    b[victim].key = placement;
    b[victim].data = count | (((uint64_t)rest | ((uint64_t)depth << 12)) << TT_COUNT_BITS);
}
