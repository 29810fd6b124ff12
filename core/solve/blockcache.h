/* blockcache.h: decompressed blocks of table records kept in memory up to a
 * byte budget, the least recently used dropped first (for a store whose
 * memory is bounded: store_new_bounded). Thread-safe. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tb_record.h"

typedef struct blockcache blockcache_t;

enum { BLOCKCACHE_SPARES = 8 }; /* dropped full blocks kept for reuse (outside the budget) */

/* What the cache holds and has done. */
typedef struct {
    size_t bytes, budget; /* held (records and bookkeeping), and the bound */
    uint64_t blocks, hits, misses, evictions;
} blockcache_stats_t;

/* A cache of blocks of at most `block` records holding at most `budget`
 * bytes (a block that alone exceeds it is not kept). Every block takes the
 * room of a full one, so that all buffers have one size and are reused
 * rather than fragmenting the heap. NULL out of memory. */
blockcache_t *blockcache_new(size_t budget, uint32_t block);

/* Frees *self_p and every block it holds; sets it to NULL; safe on NULL. */
void blockcache_destroy(blockcache_t **self_p);

/* Record i of block b of table `table` into *out when that block is held
 * (and marks it most recently used): true; false on a miss. */
bool blockcache_get(blockcache_t *self, int table, uint64_t b, uint32_t i, rec_t *out);

/* Keeps block b of table `table` (n records in a buffer of blockcache_buffer:
 * the cache takes it), dropping the least recently used blocks past the
 * budget (up to BLOCKCACHE_SPARES of their buffers kept for
 * blockcache_buffer). A block already held (another thread read it too) is
 * kept once. */
void blockcache_put(blockcache_t *self, int table, uint64_t b, rec_t *recs, uint32_t n);

/* A buffer for one block (room for `block` records) to fill and give to
 * blockcache_put, or to free(): one the cache dropped if it kept one, else
 * malloc'd. NULL out of memory. */
rec_t *blockcache_buffer(blockcache_t *self);

/* A snapshot of the figures. */
blockcache_stats_t blockcache_stats(blockcache_t *self);
