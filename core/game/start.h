/* start.h: start positions for self-play: the standard start, octad's deployed
 * starts (RULES.md "Deployed starts") and Chess960's numbered starts. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "game.h"

enum { START_DEPLOYED_NB = 144 };

/* Octad deployed start n (0-143) as OFEN into buf. Numbering (ours): n = 12 * w + b,
 * where w and b index the 12 orders of knight, king, pawn, pawn in alphabetical
 * order of their letters (KNPP, KPNP, ..., NKPP = 3, ..., PPNK = 11), each read
 * from its owner's left: White a1 to d1, Black d4 to a4. The standard start is 3 * 12 + 3 = 39.
 * Rights are what the role letters give. 0, or -1 if n is out of range. */
int start_deployed_ofen(int n, char *buf, size_t len);

/* The start named by spec for variant v: NULL or "standard" (the usual start),
 * "deployed" (a random deployed octad start, or a random Chess960 start, drawn
 * with *rng), or a number (octad: deployed n, 0-143; chess960: start n, 0-959).
 * 0, or -1 with a message in err. */
int start_position(variant_t v, const char *spec, uint64_t *rng, game_pos_t *out, char *err, size_t errlen);
