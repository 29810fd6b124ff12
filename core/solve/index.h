/* index.h: from a position to its slot in a table and back (layout.h), and
 * the two symmetries: colour flip and left-right mirror. */
#pragma once

#include <stdint.h>

#include "comb.h"
#include "layout.h"
#include "octad/position.h"

/* *out = p with colours swapped and ranks reversed (side to move flipped too). */
void index_flip(const octad_pos_t *p, octad_pos_t *out);

/* *out = p mirrored left-right (files a-d become d-a). */
void index_mirror(const octad_pos_t *p, octad_pos_t *out);

/* Table id of a position whose side to move is White (sig.h); -1 if its
 * material is no octad side's. */
int index_table_of(const octad_pos_t *p);

/* Rights configuration ids of a White-to-move position; -1 if its castle
 * bits fit no configuration. */
int index_rights(const octad_pos_t *p, int *ra, int *rb);

/* Pawn configuration of a White-to-move position (-1 if impossible). */
int index_pcfg(const octad_pos_t *p);

/* Slot of the White-to-move position p in slice s (p must fit s). */
uint32_t index_encode(const layout_slice_t *s, const octad_pos_t *p);

/* index_encode of the position with occupancy color[2] and type[] (as in
 * octad_pos_t), or of its mirror image if `mirror`: inline, for the
 * generator's inner loop (core/solve/unmove.c). */
static inline uint32_t index_encode_sets(const layout_slice_t *s, const uint16_t *color, const uint16_t *type,
                                         bool mirror)
{
    unsigned avail = s->free;
    uint32_t idx = 0;
    for (int g = 0; g < s->ngroups; g++) {
        const layout_group_t *gr = &s->group[g];
        unsigned set = (unsigned)(color[gr->color] & type[gr->type]);
        if (mirror)
            set = comb_mirror_files(set);
        set &= avail;
        unsigned r = comb_rank(set, g == 0 ? s->domain0 : avail);
        avail &= ~set;
        idx = idx * s->radix[g] + r;
    }
    return idx;
}

/* The White-to-move position in slot idx of slice s (clocks 0 and 1, no e.p.). */
void index_decode(const layout_slice_t *s, uint32_t idx, octad_pos_t *out);

/* Finds the stored slot of a White-to-move position without e.p. in table t
 * (whose material it has): mirrors it where the table keeps the mirror image.
 * Returns the slice index (and *idx) or LAYOUT_NONE. */
int index_locate(const layout_table_t *t, const octad_pos_t *p, uint32_t *idx);

/* Builds the material lookup (with layout_init). Idempotent and thread-safe
 * (solve_pair, solve_all, store_new and repack_dir call it themselves). */
void index_init(void);
