/* ttable.c: the search's transposition table (tt.h): buckets of four entries,
 * replace the same key, else the shallowest entry of an older search. */
#include "ttable.h"

#include <stdlib.h>
#include <string.h>

enum { TT_BUCKET = 4 };

struct ttable {
    ttable_entry_t *entries;
    uint64_t nbuckets;
    uint8_t generation; /* 6 bits */
};

ttable_t *ttable_new(size_t bytes)
{
    ttable_t *self = calloc(1, sizeof *self);
    if (self == NULL)
        return NULL;
    self->nbuckets = bytes / (sizeof(ttable_entry_t) * TT_BUCKET);
    if (self->nbuckets == 0)
        self->nbuckets = 1;
    self->entries = calloc(self->nbuckets * TT_BUCKET, sizeof(ttable_entry_t));
    if (self->entries == NULL) {
        free(self);
        return NULL;
    }
    return self;
}

void ttable_destroy(ttable_t **self_p)
{
    if (self_p == NULL || *self_p == NULL)
        return;
    free((*self_p)->entries);
    free(*self_p);
    *self_p = NULL;
}

void ttable_clear(ttable_t *self)
{
    memset(self->entries, 0, self->nbuckets * TT_BUCKET * sizeof(ttable_entry_t));
    self->generation = 0;
}

void ttable_new_search(ttable_t *self)
{
    self->generation = (uint8_t)((self->generation + 1) & 63);
}

static ttable_entry_t *s_bucket(const ttable_t *self, engine_key_t key)
{
    uint64_t h = (key.a ^ (key.b * UINT64_C(0x9E3779B97F4A7C15))) * UINT64_C(0xD6E8FEB86659FD93);
    h ^= h >> 32;
    uint64_t idx = (uint64_t)(((unsigned __int128)h * self->nbuckets) >> 64);
    return self->entries + idx * TT_BUCKET;
}

static int s_same(const ttable_entry_t *e, engine_key_t key)
{
    return e->depth != 0 && e->key.a == key.a && e->key.b == key.b;
}

const ttable_entry_t *ttable_probe(const ttable_t *self, engine_key_t key)
{
    const ttable_entry_t *b = s_bucket(self, key);
    for (int i = 0; i < TT_BUCKET; i++)
        if (s_same(&b[i], key))
            return &b[i];
    return NULL;
}

/* The entry to overwrite for key: its own, an empty one, else the least valuable. */
static ttable_entry_t *s_victim(const ttable_t *self, ttable_entry_t *b, engine_key_t key)
{
    ttable_entry_t *worst = &b[0];
    int worst_value = 1 << 30;
    for (int i = 0; i < TT_BUCKET; i++) {
        if (s_same(&b[i], key) || b[i].depth == 0)
            return &b[i];
        int age = (self->generation - (b[i].genbound >> 2)) & 63;
        int value = b[i].depth - 8 * age;
        if (value < worst_value) {
            worst_value = value;
            worst = &b[i];
        }
    }
    return worst;
}

void ttable_store(ttable_t *self, engine_key_t key, int draft, int score, engine_bound_t bound, int eval,
              engine_move_t move)
{
    ttable_entry_t *e = s_victim(self, s_bucket(self, key), key);
    bool same = s_same(e, key);
    if (same && bound != ENGINE_BOUND_EXACT && draft + 1 < e->depth - 2
        && (e->genbound >> 2) == self->generation)
        return; /* keep a much deeper result of this search */
    if (move == ENGINE_MOVE_NONE && same)
        move = e->move;
    e->key = key;
    e->move = move;
    e->score = (int16_t)score;
    e->eval = (int16_t)eval;
    e->depth = (uint8_t)(draft + 1 > 255 ? 255 : draft + 1);
    e->genbound = (uint8_t)(self->generation << 2 | bound);
}

int ttable_hashfull(const ttable_t *self)
{
    uint64_t n = self->nbuckets * TT_BUCKET < 1000 ? self->nbuckets * TT_BUCKET : 1000;
    int used = 0;
    for (uint64_t i = 0; i < n; i++)
        used += self->entries[i].depth != 0 && (self->entries[i].genbound >> 2) == self->generation;
    return n ? (int)(used * 1000 / n) : 0;
}
