/* vt_value.h: a position's value as the tables give it (looked up, or by one
 * ply of look-ahead for e.p. positions), and the value one ply of look-ahead
 * implies: the heart of the one-ply consistency check. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vt_store.h"

/* A value for the side to move. code: VT_LOSS .. VT_WIN. dtm in G-inf. dtz:
 * exact in G-50 for win/loss. [zlo, zhi]: what is known of the G-inf dtz
 * (exact for cursed/blessed records; a win/loss record only bounds it by its
 * G-50 dtz, docs/solver.md "dtz"). Draws: all zero. */
typedef struct {
    int code, dtz, dtm, zlo, zhi;
} vt_value_t;

/* Outcome of a look-up: VT_OK, VT_BAD (an inconsistency: err says what) or
 * VT_MISSING (a table could not be read: err names it). */
enum { VT_OK = 0, VT_BAD = -1, VT_MISSING = -2 };

/* Where a position is stored: its table (NULL if its material has no file)
 * and slot. p is any legal position without a legal e.p. capture. */
int vt_locate(vt_store_t *st, const octad_pos_t *p, const vt_table_t **table, uint64_t *slot, char *err,
              size_t errlen);

/* The value of legal position p from the tables: drawn by insufficient
 * material; by look-ahead if an e.p. capture is legal; else its record. */
int vt_value_of(vt_store_t *st, const octad_pos_t *p, vt_value_t *out, char *err, size_t errlen);

/* The value one ply of look-ahead gives p: from its children's values
 * (vt_value_of), or checkmate / stalemate when it has no move. */
int vt_lookahead(vt_store_t *st, const octad_pos_t *p, vt_value_t *out, char *err, size_t errlen);

/* The value a record stands for (code, distances, G-inf dtz bounds). */
vt_value_t vt_value_record(uint32_t rec);

/* Whether colour `by` attacks square sq (the verifier's own attack test). */
bool vt_attacked(const octad_pos_t *p, int sq, int by);

/* Whether a position is a legal placement: the side not to move not in check. */
bool vt_placement_legal(const octad_pos_t *p);
