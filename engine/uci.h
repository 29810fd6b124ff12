/* uci.h: the UCI loop of the engine (`octad uci`). It owns no search state:
 * it keeps the game (position and history) and the options, and hands the
 * engine one engine_limits_t per `go`, searching on a thread of its own so
 * that `isready`, `stop` and `ponderhit` are answered while it runs. */
#pragma once

#include <stdio.h>

/* Reads commands from in until `quit` or end of input, answers on out (every
 * line flushed). Returns 0, or -1 if the engine could not be created. */
int uci_run(FILE *in, FILE *out);
