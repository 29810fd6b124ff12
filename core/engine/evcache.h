/* evcache.h: a cache of static evaluations by position key, so a position
 * met again (in the next iteration, or by transposition in the quiescence
 * search, which has no table of its own) is not evaluated again. The
 * evaluation is a pure function of the position and the key covers
 * everything it reads, so a hit returns exactly what the evaluation would:
 * the search is the same node for node, only faster. Safe for the lazy-SMP
 * threads to share: each slot is three relaxed atomic words, the data and
 * the two key words each xor-ed with it (as in ttable.c), so a slot torn by
 * two writers reads as a miss. Internal to core/engine/. */
#pragma once

#include <stdbool.h>

#include "engine.h"

typedef struct evcache evcache_t;

/* A cache of 2^EVCACHE_BITS slots (zeroed), or NULL without memory. */
enum { EVCACHE_BITS = 16 };
evcache_t *evcache_new(void);
void evcache_destroy(evcache_t **self_p);

/* Starts loading key's slot into the cache, for a get soon after. */
void evcache_prefetch(evcache_t *self, engine_key_t key);

/* True and *eval when key's evaluation is cached. */
bool evcache_get(evcache_t *self, engine_key_t key, int *eval);

/* Caches eval (within +-32767) for key, replacing what its slot held. */
void evcache_put(evcache_t *self, engine_key_t key, int eval);
