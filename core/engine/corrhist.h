/* corrhist.h: correction history. A table, by side to move and pawn
 * structure, of how far searches found the static evaluation to be off; the
 * search adds the entry to the static evaluation before it prunes on it, so
 * an evaluation that keeps overrating one kind of position is pulled toward
 * what the searches of its kind found. Chess only (board_ops_t.pawn_hash).
 * Internal to core/engine/. */
#pragma once

#include <stdint.h>

enum {
    CORRHIST_BITS = 14,
    CORRHIST_SIZE = 1 << CORRHIST_BITS,
    CORRHIST_GRAIN = 256,                  /* an entry counts 1/256 cp */
    CORRHIST_LIMIT = 64 * CORRHIST_GRAIN,  /* at most 64 cp either way */
    CORRHIST_WEIGHTS = 96,
};

typedef struct {
    int16_t v[2][CORRHIST_SIZE]; /* [side to move][pawn hash] */
} corrhist_t;

static inline int corrhist_index(uint64_t pawn_hash)
{
    return (int)(pawn_hash >> (64 - CORRHIST_BITS));
}

/* The correction in centipawns for side's position with pawn-table index idx. */
static inline int corrhist_get(const corrhist_t *c, int side, int idx)
{
    return c->v[side][idx] / CORRHIST_GRAIN;
}

/* Moves the entry by a share of diff (search score minus corrected static
 * evaluation, cp; at most 64 counted), the share (depth + 1) / 256 (at most
 * 16 / 256) growing with the search's depth: an average that forgets. */
static inline void corrhist_update(corrhist_t *c, int side, int idx, int depth, int diff)
{
    int w = depth + 1 < 16 ? depth + 1 : 16;
    int target = diff > 64 ? CORRHIST_LIMIT : diff < -64 ? -CORRHIST_LIMIT : diff * CORRHIST_GRAIN;
    int16_t *e = &c->v[side][idx];
    int v = *e + target * w / CORRHIST_WEIGHTS;
    *e = (int16_t)(v > CORRHIST_LIMIT ? CORRHIST_LIMIT : v < -CORRHIST_LIMIT ? -CORRHIST_LIMIT : v);
}
