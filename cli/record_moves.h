/* record_moves.h: the --moves option of the game commands (play, svg): moves in
 * any notation the game layer reads (SAN, UOI/UCI: san.h) played on a record. */
#pragma once

#include "record.h"

/* Plays the space-separated moves of list (NULL: none) on rec, one by one.
 * Returns 0, or -1 after printing "octad CMD: --moves: move N: why". */
int record_moves_play(const char *cmd, record_t *rec, const char *list);
