/* tables_probe.h: the engine's seam to the octad tables (engine_probe_fn). */
#pragma once

#include <stdbool.h>

#include "engine.h"
#include "tables.h"

/* engine_probe_fn over octad_tables_t (ctx): the value at the position's own
 * halfmove clock, so a win the 25-move rule would spoil counts as a draw;
 * false when the position's table is missing. */
bool tables_engine_probe(void *ctx, const octad_pos_t *pos, engine_wdl_t *wdl, int *plies);
