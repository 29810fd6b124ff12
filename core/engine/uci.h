/* uci.h: the UCI loop of the engine (`octad uci`). It owns no search state:
 * it keeps the game (position and history) and the options, and hands the
 * engine one engine_limits_t per `go`, searching on a thread of its own so
 * that `isready`, `stop` and `ponderhit` are answered while it runs. */
#pragma once

#include <stddef.h>
#include <stdio.h>

#include "engine.h"

/* How the loop opens the octad tables for the `OctadTables` option (a
 * directory; empty: none). The engine knows no table format: the caller
 * (core/engine/tables_probe.c) supplies this. open returns the probe's context, or
 * NULL with a message in err; close frees it. */
typedef struct {
    void *(*open)(const char *dir, char *err, size_t errlen);
    void (*close)(void *ctx);
    engine_probe_fn probe;
} uci_tables_t;

/* Reads commands from in until `quit` or end of input, answers on out (every
 * line flushed). tables may be NULL (then there is no OctadTables option).
 * Returns 0, or -1 if the engine could not be created. */
int uci_run(FILE *in, FILE *out, const uci_tables_t *tables);
