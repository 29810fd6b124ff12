/* layout.h: how the positions of one table are cut into slices and indexed.
 * The format is specified in docs/solver.md ("Index scheme"); this header is
 * the generator's and the prober's implementation of it.
 *
 * Every stored position has the side to move playing "up" (as White, from
 * rank 1); a position with Black to move is colour-flipped first (colours
 * swapped, ranks reversed). A table holds one material (side to move's,
 * other side's) and is cut into slices; a slice fixes
 *   - the castling rights of each side: a rights configuration (the king's
 *     home square and which partners, knight or pawn, hold a right), or none;
 *   - every pawn (the pawn configuration, pcfg);
 *   - the kings and knights that hold rights;
 * and places the remaining pieces (groups of identical pieces) on the free
 * squares by the combinatorial number system (comb.h). A slice's index is
 * mixed radix over its groups, the first group most significant.
 * In slices of the base layer (no rights) the left-right mirror is used: a
 * pawn configuration and its mirror image are stored once, and where they
 * are the same, the side to move's king stands on files a-b ("half"). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "octad/position.h"

enum {
    RIGHTS_NONE = 0,     /* rights configuration id of a side without rights */
    LAYOUT_GROUPS_MAX = 10,
    LAYOUT_NONE = -1,    /* no slice holds such positions */
    LAYOUT_MIRROR = -2   /* the mirror image is stored instead */
};

/* A side's castling rights, relative to its own home rank (files 0-3). */
typedef struct {
    int8_t king;      /* king's file on the home rank */
    uint8_t partners; /* files whose piece holds a right */
    uint8_t knights;  /* the partners that are knights (the others are pawns) */
} rights_cfg_t;

/* Number of rights configurations (id 0 = none). */
int rights_nb(void);

/* The configuration with id 0 <= id < rights_nb(). */
const rights_cfg_t *rights_cfg(int id);

/* Id of the configuration (king file, partner files, knight files), or -1 if
 * no octad position holds it. partners == 0 gives RIGHTS_NONE. */
int rights_id(int king, unsigned partners, unsigned knights);

/* A group of identical free pieces. colour 0 = side to move, 1 = other. */
typedef struct {
    uint8_t color, type, count;
} layout_group_t;

typedef struct {
    uint16_t rights[2];  /* rights configuration of the side to move, the other side */
    uint16_t pcfg;       /* pawn configuration */
    uint8_t half;        /* the side to move's king on files a-b only */
    uint8_t ngroups;
    uint16_t pawns[2];   /* pawn squares by colour */
    uint16_t fixed[2];   /* fixed kings and knights by colour (rights holders) */
    uint16_t castle;     /* castling-right squares (octad_pos_t.castle) */
    uint16_t free;       /* squares not fixed */
    uint16_t domain0;    /* where group 0 may stand */
    layout_group_t group[LAYOUT_GROUPS_MAX];
    uint32_t radix[LAYOUT_GROUPS_MAX];
    uint32_t size;       /* index slots */
    uint64_t offset;     /* first slot in its table */
} layout_slice_t;

/* A table's slices and the lookups from a position to its slice. */
typedef struct {
    int table;
    int nslices;
    layout_slice_t *slices;
    uint64_t size;       /* slots in all slices */
    int npcfg;           /* pawn configurations of this material */
    int32_t *base;       /* [pcfg]: base-layer slice, LAYOUT_MIRROR or LAYOUT_NONE */
    int nrights;         /* rights slices, sorted by key */
    uint64_t *rkey;
    int32_t *rslice;
} layout_table_t;

/* Builds rights configurations (and comb tables). Idempotent. */
void layout_init(void);

/* Pawn configurations of a material (stm pawns ps, other side's po). */
int layout_pcfg_nb(int ps, int po);

/* Pawn configuration index of stm pawns `sp` (squares a1-d3) and other pawns
 * `op` (a2-d4); -1 if they overlap or stand off their squares. */
int layout_pcfg(unsigned sp, unsigned op);

/* The pawns of configuration c with ps, po pawns. */
void layout_pcfg_pawns(int c, int ps, int po, uint16_t *sp, uint16_t *op);

/* Fills *s for (table, rights, pcfg, half); returns false (and leaves *s
 * unspecified) if no position has that shape. The offset is left 0. */
bool layout_slice_make(int table, int ra, int rb, int pcfg, bool half, layout_slice_t *s);

/* Builds a table layout from its slice list (n entries of rights/pcfg/half,
 * in storage order): offsets, sizes and lookups. Takes ownership of `slices`
 * (malloc'd). Returns 0, or -1 if a slice is malformed (message in err). */
int layout_table_build(int table, layout_slice_t *slices, int n, layout_table_t *out, char *err,
                       unsigned errlen);

/* Frees what layout_table_build allocated. */
void layout_table_free(layout_table_t *t);

/* Heap bytes a built layout holds (its slices and lookups). */
size_t layout_table_bytes(const layout_table_t *t);

/* Slice of a stm-to-move-up position with the given material's table:
 * index >= 0, LAYOUT_MIRROR or LAYOUT_NONE. */
int layout_find(const layout_table_t *t, int ra, int rb, int pcfg);

/* A unit: one or two slices (one per table of the pair, or both in the one
 * table of a symmetric material) closed under the moves that keep the
 * halfmove clock running. */
typedef struct {
    int tab[2];   /* table index in the pair (0 or 1) */
    int slice[2]; /* slice index in that table */
    int n;        /* 1 or 2 */
    int key;      /* solving order: units with equal keys are independent */
} layout_unit_t;

/* Both tables of a pair and its units in solving order. */
typedef struct {
    int ntables;
    layout_table_t tables[2]; /* [0] the primary table, [1] its flip (if different) */
    int nunits;
    layout_unit_t *units;
} layout_pair_t;

/* Builds the layout of pair i (sig.h order). Returns 0, or -1 on OOM. */
int layout_pair_build(int pair, layout_pair_t *out);

/* The layout the solver gives `table` (its table of layout_pair_build of its
 * pair, without building the other table's lookups or the units): what a
 * table file's slice directory must say. Returns 0, or -1 on OOM. */
int layout_table_expected(int table, layout_table_t *out);

/* Frees a pair layout. */
void layout_pair_free(layout_pair_t *p);
