/* evcache.c: the evaluation cache (evcache.h): one slot per index, the index
 * from both key words; a slot keeps the evaluation in its data word and each
 * key word xor-ed with the data word, so a hit checks the whole key and a
 * torn slot fails that check. */
#include "evcache.h"

#include "bigmem.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
    _Atomic uint64_t k0, k1, data;
} s_slot_t;

struct evcache {
    s_slot_t slots[1u << EVCACHE_BITS];
};

evcache_t *evcache_new(void)
{
    return bigmem_alloc(sizeof(evcache_t));
}

void evcache_destroy(evcache_t **self_p)
{
    if (self_p == NULL)
        return;
    bigmem_free(*self_p);
    *self_p = NULL;
}

static s_slot_t *s_slot(evcache_t *self, engine_key_t key)
{
    uint64_t h = (key.a ^ (key.b * UINT64_C(0x9E3779B97F4A7C15))) * UINT64_C(0xD6E8FEB86659FD93);
    return &self->slots[h >> (64 - EVCACHE_BITS)];
}

void evcache_prefetch(evcache_t *self, engine_key_t key)
{
    __builtin_prefetch(s_slot(self, key));
}

/* The data word: bit 16 marks a filled slot, so an all-zero key in an empty slot misses. */
bool evcache_get(evcache_t *self, engine_key_t key, int *eval)
{
    s_slot_t *slot = s_slot(self, key);
    uint64_t data = atomic_load_explicit(&slot->data, memory_order_relaxed);
    if (!(data & (UINT64_C(1) << 16)) || (atomic_load_explicit(&slot->k0, memory_order_relaxed) ^ data) != key.a
        || (atomic_load_explicit(&slot->k1, memory_order_relaxed) ^ data) != key.b)
        return false;
    *eval = (int16_t)(uint16_t)data;
    return true;
}

void evcache_put(evcache_t *self, engine_key_t key, int eval)
{
    s_slot_t *slot = s_slot(self, key);
    uint64_t data = (uint64_t)(uint16_t)(int16_t)eval | UINT64_C(1) << 16;
    atomic_store_explicit(&slot->k0, key.a ^ data, memory_order_relaxed);
    atomic_store_explicit(&slot->k1, key.b ^ data, memory_order_relaxed);
    atomic_store_explicit(&slot->data, data, memory_order_relaxed);
}
