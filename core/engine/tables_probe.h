/* tables_probe.h: the engine's seam to the octad tables (engine_probe_fn),
 * and the UCI loop's way to open them (the OctadTables option). */
#pragma once

#include <stdbool.h>

#include "engine.h"
#include "tables.h"
#include "uci.h"

/* engine_probe_fn over octad_tables_t (ctx): the value at the position's own
 * halfmove clock, so a win the 25-move rule would spoil counts as a draw;
 * false when the position's table is missing. */
bool tables_engine_probe(void *ctx, const octad_pos_t *pos, engine_wdl_t *wdl, int *plies);

/* For uci_run: opens a directory of tables (an error if it is not a
 * directory) and probes them with tables_engine_probe. */
extern const uci_tables_t tables_uci;
