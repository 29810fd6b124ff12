/* tt.c: perft transposition table. Each entry holds both 64-bit keys in full
 * plus the depth and count; buckets are two entries, the shallower replaced. */
#include "tt.h"

#include <stdlib.h>

typedef struct {
    uint64_t key0, key1;
    uint64_t data; /* count << 8 | depth; 0 = empty (depth 0 is never stored) */
} s_entry_t;

struct chess_tt {
    s_entry_t *entries;
    size_t buckets; /* entries = 2 * buckets */
};

chess_tt_t *chess_tt_new(size_t bytes)
{
    if (bytes < sizeof(chess_tt_t) + 2 * sizeof(s_entry_t))
        return NULL;
    size_t buckets = (bytes - sizeof(chess_tt_t)) / (2 * sizeof(s_entry_t));
    chess_tt_t *self = malloc(sizeof(*self));
    if (!self)
        return NULL;
    self->entries = calloc(2 * buckets, sizeof(s_entry_t));
    if (!self->entries) {
        free(self);
        return NULL;
    }
    self->buckets = buckets;
    return self;
}

void chess_tt_destroy(chess_tt_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    free((*self_p)->entries);
    free(*self_p);
    *self_p = NULL;
}

/* First entry of the bucket of key (multiply-high maps key0 onto 0..buckets-1). */
static inline s_entry_t *s_bucket(const chess_tt_t *tt, const uint64_t key[2])
{
    size_t b = (size_t)(((unsigned __int128)key[0] * tt->buckets) >> 64);
    return &tt->entries[2 * b];
}

bool tt_probe(const chess_tt_t *tt, const uint64_t key[2], int depth, uint64_t *count)
{
    const s_entry_t *e = s_bucket(tt, key);
    for (int i = 0; i < 2; i++) {
        if (e[i].key0 == key[0] && e[i].key1 == key[1] && (int)(e[i].data & 0xFF) == depth) {
            *count = e[i].data >> 8;
            return true;
        }
    }
    return false;
}

void tt_store(chess_tt_t *tt, const uint64_t key[2], int depth, uint64_t count)
{
    if (count > TT_COUNT_MAX || depth <= 0 || depth > 255)
        return;
    s_entry_t *e = s_bucket(tt, key);
    s_entry_t *victim = (e[0].data & 0xFF) <= (e[1].data & 0xFF) ? &e[0] : &e[1];
    victim->key0 = key[0];
    victim->key1 = key[1];
    victim->data = count << 8 | (uint64_t)depth;
}
