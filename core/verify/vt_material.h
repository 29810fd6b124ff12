/* vt_material.h: the verifier's own reading of docs/solver.md "Tables and
 * material": the 36 sides, their ids, table ids and names. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "octad/octad.h"

enum {
    VT_SIDE_NB = 36,
    VT_TABLE_NB = VT_SIDE_NB * VT_SIDE_NB,
    VT_NAME_MAX = 24
};

/* Piece counts of one side besides its king, by OCTAD_PAWN..OCTAD_QUEEN. */
typedef struct {
    uint8_t n[5];
} vt_side_t;

/* Builds the side table; idempotent, not thread-safe (call before threads). */
void vt_material_init(void);

/* Id 0-35 of a side, or -1 if no legal side has these counts. */
int vt_side_id(const vt_side_t *side);

/* The counts of side id (0-35). */
vt_side_t vt_side_of(int id);

/* Counts of colour c in a position. */
vt_side_t vt_side_count(const octad_pos_t *pos, int color);

/* "KQPvK"-style name of table id (0 .. VT_TABLE_NB-1) into buf (VT_NAME_MAX). */
void vt_table_name(int id, char *buf);

/* Table id of a name like "KNPvKP" (a trailing ".otb" is allowed), or -1. */
int vt_table_parse(const char *name);

/* Whether the table's material is always drawn, so it has no file (no pawn,
 * rook or queen and at most one knight or bishop in all). */
bool vt_table_fileless(int id);

/* Number of pieces, kings included, of table id. */
int vt_table_pieces(int id);
