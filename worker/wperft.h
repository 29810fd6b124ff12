/* wperft.h: the worker's OCTP/1 perft TASKs (proto/PROTOCOL.md section 5), a pool kind
 * (wkind.h): checked and parsed on the I/O thread, counted on a compute thread, answered
 * with RESULT. */
#pragma once

#include "wkind.h"

/* The deepest perft a TASK may ask for. */
enum { WPERFT_DEPTH_MAX = 40 };

/* The perft row. prepare refuses VARIANT, DEPTH (above WPERFT_DEPTH_MAX), POSITION
 * (naming the parser's problem), INTERNAL (out of memory). The pool's table: one
 * octad table of hash_bytes shared by the threads where that stays exact
 * (game_tt_shareable), else a table per thread of hash_each, re-made when the
 * variant changes; hash_bytes 0: none. answer: RESULT; perturb makes it wrong by one
 * node (in the stats too). */
extern const wkind_t WPERFT_KIND;
