/* oracle_cover.h: which tables a directory's files cover, and a position's
 * table: a table is covered when it and its colour flip can be read (a file,
 * or a material that is always drawn) and so can, recursively, every table a
 * capture or promotion from either leads to. */
#pragma once

#include <stdbool.h>

#include "octad/position.h"
#include "sig.h"

/* From present[t] (table t has a file) fills covered[t] for every table. */
void oracle_cover_compute(const bool present[SIG_TABLE_NB], bool covered[SIG_TABLE_NB]);

/* The table of p (colour-flipped when Black is to move), or -1 when its
 * material is no octad side's (more pieces than a side can have). */
int oracle_cover_table_of(const octad_pos_t *p);
