/* vt_index.h: the verifier's own implementation of index scheme 1
 * (docs/solver.md "Index scheme"): a slice's groups and radices, slot ->
 * position and position -> slot, and the colour flip and mirror. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "octad/octad.h"
#include "vt_material.h"

enum { VT_GROUP_MAX = 10, VT_NO_SLOT = -1 };

/* One group: `count` identical pieces of one side and type. */
typedef struct {
    uint8_t side; /* 0 the side to move, 1 the other (after the flip) */
    uint8_t type; /* OCTAD_KNIGHT .. OCTAD_KING */
    uint8_t count;
    uint32_t radix;
} vt_group_t;

/* A slice as the directory gives it, with its derived geometry. Side 0 is the
 * side to move (White once flipped), side 1 the other. */
typedef struct {
    int8_t kfile[2];     /* king file of a rights configuration, -1 for none */
    uint8_t partners[2]; /* partner files holding a right */
    uint8_t knights[2];  /* which partners are knights */
    uint8_t half;        /* side to move's king restricted to files a-b */
    uint16_t pawns[2];   /* pawn squares per side */
    uint16_t fixed[2];   /* squares of fixed pieces (king, knight partners) */
    uint16_t free;       /* squares not taken by pawns or fixed pieces */
    int ngroups;
    vt_group_t group[VT_GROUP_MAX];
    uint64_t size;   /* slots: the product of the radices */
    uint64_t offset; /* records before this slice */
} vt_slice_t;

/* Builds the ranking tables; idempotent, call before threads. */
void vt_index_init(void);

/* Checks a directory entry against the table's material (stm, other) and
 * derives its geometry. 0, or -1 with a message naming the problem. */
int vt_slice_build(vt_slice_t *sl, const vt_side_t *stm, const vt_side_t *other, char *err, size_t errlen);

/* The position in slot idx (< sl->size) of the slice: White (the side to
 * move) to play, no e.p. square, clocks 0 and 1. Whether it is legal is the
 * caller's question. */
void vt_slice_decode(const vt_slice_t *sl, uint64_t idx, octad_pos_t *out);

/* Slot of p (White to move, its pawns, rights and fixed pieces those of the
 * slice) within the slice, or VT_NO_SLOT if a piece stands where the slice
 * does not allow it (e.g. the king on files c-d of a `half` slice). */
int64_t vt_slice_encode(const vt_slice_t *sl, const octad_pos_t *p);

/* Key of a (rights, pawns) combination, for finding a slice. */
uint64_t vt_slice_key(const int8_t kfile[2], const uint8_t partners[2], const uint8_t knights[2],
                      const uint16_t pawns[2]);

/* Colours swapped and ranks flipped (sq -> sq ^ 12), rights and e.p. too. */
void vt_flip(const octad_pos_t *in, octad_pos_t *out);

/* Left-right mirror (file f -> 3 - f), rights and e.p. too. */
void vt_mirror(const octad_pos_t *in, octad_pos_t *out);

/* The bitboard helpers behind those two. */
uint16_t vt_bb_flip(uint16_t b);
uint16_t vt_bb_mirror(uint16_t b);
