/* ttable.c: the search's transposition table (ttable.h): buckets of four
 * slots, replace the same key, else the shallowest slot of an older search.
 * A slot is three atomic words (relaxed: plain moves on x86-64): the data
 * (move, score, eval, depth, generation and bound packed in 64 bits) and the
 * two key words each xor the data, checked on every read. */
#include "ttable.h"

#include "bigmem.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

enum { TT_BUCKET = 4 };

typedef struct {
    _Atomic uint64_t k0, k1, data;
} s_slot_t;

struct ttable {
    s_slot_t *slots;
    uint64_t nbuckets;
    uint8_t generation; /* 6 bits */
};

ttable_t *ttable_new(size_t bytes)
{
    ttable_t *self = calloc(1, sizeof *self);
    if (self == NULL)
        return NULL;
    self->nbuckets = bytes / (sizeof(s_slot_t) * TT_BUCKET);
    if (self->nbuckets == 0)
        self->nbuckets = 1;
    size_t size = (size_t)self->nbuckets * TT_BUCKET * sizeof(s_slot_t);
    self->slots = bigmem_alloc(size); /* zeroed; a bucket (96 bytes) spans two cache lines */
    if (self->slots == NULL) {
        free(self);
        return NULL;
    }
    return self;
}

void ttable_destroy(ttable_t **self_p)
{
    if (self_p == NULL || *self_p == NULL)
        return;
    bigmem_free((*self_p)->slots);
    free(*self_p);
    *self_p = NULL;
}

void ttable_clear(ttable_t *self)
{
    memset(self->slots, 0, self->nbuckets * TT_BUCKET * sizeof(s_slot_t));
    self->generation = 0;
}

void ttable_new_search(ttable_t *self)
{
    self->generation = (uint8_t)((self->generation + 1) & 63);
}

static s_slot_t *s_bucket(const ttable_t *self, engine_key_t key)
{
    uint64_t h = (key.a ^ (key.b * UINT64_C(0x9E3779B97F4A7C15))) * UINT64_C(0xD6E8FEB86659FD93);
    h ^= h >> 32;
    uint64_t idx = (uint64_t)(((unsigned __int128)h * self->nbuckets) >> 64);
    return self->slots + idx * TT_BUCKET;
}

static uint64_t s_pack(const ttable_entry_t *e)
{
    return (uint64_t)e->move | (uint64_t)(uint16_t)e->score << 16 | (uint64_t)(uint16_t)e->eval << 32
           | (uint64_t)e->depth << 48 | (uint64_t)e->genbound << 56;
}

/* Reads slot into *e; false if the slot is empty or torn (its key words disagree with its data). */
static bool s_read(s_slot_t *slot, ttable_entry_t *e)
{
    uint64_t data = atomic_load_explicit(&slot->data, memory_order_relaxed);
    e->key.a = atomic_load_explicit(&slot->k0, memory_order_relaxed) ^ data;
    e->key.b = atomic_load_explicit(&slot->k1, memory_order_relaxed) ^ data;
    e->move = (engine_move_t)data;
    e->score = (int16_t)(uint16_t)(data >> 16);
    e->eval = (int16_t)(uint16_t)(data >> 32);
    e->depth = (uint8_t)(data >> 48);
    e->genbound = (uint8_t)(data >> 56);
    return e->depth != 0;
}

static bool s_same(const ttable_entry_t *e, engine_key_t key)
{
    return e->depth != 0 && e->key.a == key.a && e->key.b == key.b;
}

void ttable_prefetch(const ttable_t *self, engine_key_t key)
{
    const char *b = (const char *)s_bucket(self, key);
    __builtin_prefetch(b);
    __builtin_prefetch(b + sizeof(s_slot_t) * TT_BUCKET - 1);
}

bool ttable_probe(const ttable_t *self, engine_key_t key, ttable_entry_t *out)
{
    s_slot_t *b = s_bucket(self, key);
    for (int i = 0; i < TT_BUCKET; i++)
        if (s_read(&b[i], out) && s_same(out, key))
            return true;
    return false;
}

/* The slot to overwrite for key: its own, an empty one, else the least
 * valuable; *old is what it holds now. */
static s_slot_t *s_victim(const ttable_t *self, s_slot_t *b, engine_key_t key, ttable_entry_t *old)
{
    s_slot_t *worst = &b[0];
    int worst_value = 1 << 30;
    ttable_entry_t e, worst_e = {0};
    for (int i = 0; i < TT_BUCKET; i++) {
        if (!s_read(&b[i], &e) || s_same(&e, key)) {
            *old = e;
            return &b[i];
        }
        int age = (self->generation - (e.genbound >> 2)) & 63;
        int value = e.depth - 8 * age;
        if (value < worst_value) {
            worst_value = value;
            worst = &b[i];
            worst_e = e;
        }
    }
    *old = worst_e;
    return worst;
}

void ttable_store(ttable_t *self, engine_key_t key, int draft, int score, engine_bound_t bound, int eval,
                  engine_move_t move)
{
    ttable_entry_t old;
    s_slot_t *slot = s_victim(self, s_bucket(self, key), key, &old);
    bool same = s_same(&old, key);
    if (same && bound != ENGINE_BOUND_EXACT && draft + 1 < old.depth - 2 && (old.genbound >> 2) == self->generation)
        return; /* keep a much deeper result of this search */
    if (move == ENGINE_MOVE_NONE && same)
        move = old.move;
    ttable_entry_t e = {
        .key = key, .move = move, .score = (int16_t)score, .eval = (int16_t)eval,
        .depth = (uint8_t)(draft + 1 > 255 ? 255 : draft + 1), .genbound = (uint8_t)(self->generation << 2 | bound),
    };
    uint64_t data = s_pack(&e);
    atomic_store_explicit(&slot->data, data, memory_order_relaxed);
    atomic_store_explicit(&slot->k0, key.a ^ data, memory_order_relaxed);
    atomic_store_explicit(&slot->k1, key.b ^ data, memory_order_relaxed);
}

int ttable_hashfull(const ttable_t *self)
{
    uint64_t n = self->nbuckets * TT_BUCKET < 1000 ? self->nbuckets * TT_BUCKET : 1000;
    int used = 0;
    ttable_entry_t e;
    for (uint64_t i = 0; i < n; i++)
        used += s_read(&self->slots[i], &e) && (e.genbound >> 2) == self->generation;
    return n ? (int)(used * 1000 / n) : 0;
}
