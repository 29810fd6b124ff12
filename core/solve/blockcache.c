/* blockcache.c: blocks of records in an LRU bounded by bytes (blockcache.h):
 * a hash table of chains over the blocks held, and a doubly linked list
 * from the most to the least recently used; one lock. */
#include "blockcache.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct s_node {
    uint64_t key;                 /* table << 40 | block */
    rec_t *recs;
    uint32_t n;
    struct s_node *prev, *next;   /* recency: head most recent */
    struct s_node *chain;         /* the next node of the same bucket */
} s_node_t;

struct blockcache {
    pthread_mutex_t lock;
    s_node_t **buckets;
    size_t nbuckets;              /* a power of two */
    s_node_t *head, *tail;
    blockcache_stats_t st;
    uint32_t block;                   /* records a buffer holds */
    rec_t *spares[BLOCKCACHE_SPARES]; /* buffers of dropped blocks */
    int nspares;
};

enum { S_BUCKETS_MIN = 64 };

static uint64_t s_key(int table, uint64_t b) { return (uint64_t)table << 40 | b; }

static size_t s_cost(const blockcache_t *self) { return sizeof(s_node_t) + (size_t)self->block * sizeof(rec_t); }

static size_t s_bucket(const blockcache_t *self, uint64_t key)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & (self->nbuckets - 1);
}

blockcache_t *blockcache_new(size_t budget, uint32_t block)
{
    blockcache_t *self = calloc(1, sizeof *self);
    if (!self || !(self->buckets = calloc(S_BUCKETS_MIN, sizeof *self->buckets))) {
        free(self);
        return NULL;
    }
    self->nbuckets = S_BUCKETS_MIN;
    self->st.budget = budget;
    self->block = block;
    pthread_mutex_init(&self->lock, NULL);
    return self;
}

void blockcache_destroy(blockcache_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    blockcache_t *self = *self_p;
    for (s_node_t *n = self->head, *next; n; n = next) {
        next = n->next;
        free(n->recs);
        free(n);
    }
    for (int i = 0; i < self->nspares; i++)
        free(self->spares[i]);
    pthread_mutex_destroy(&self->lock);
    free(self->buckets);
    free(self);
    *self_p = NULL;
}

static s_node_t *s_find(const blockcache_t *self, uint64_t key)
{
    s_node_t *n = self->buckets[s_bucket(self, key)];
    while (n && n->key != key)
        n = n->chain;
    return n;
}

static void s_unlink(blockcache_t *self, s_node_t *n)
{
    if (n->prev)
        n->prev->next = n->next;
    else
        self->head = n->next;
    if (n->next)
        n->next->prev = n->prev;
    else
        self->tail = n->prev;
    n->prev = n->next = NULL;
}

static void s_push_front(blockcache_t *self, s_node_t *n)
{
    n->next = self->head;
    if (self->head)
        self->head->prev = n;
    self->head = n;
    if (!self->tail)
        self->tail = n;
}

/* Takes n out of its bucket's chain. */
static void s_unchain(blockcache_t *self, s_node_t *n)
{
    s_node_t **p = &self->buckets[s_bucket(self, n->key)];
    while (*p != n)
        p = &(*p)->chain;
    *p = n->chain;
}

/* Doubles the buckets when the chains grow long (nothing when memory is short). */
static void s_grow(blockcache_t *self)
{
    size_t nb = self->nbuckets * 2;
    s_node_t **nbk = calloc(nb, sizeof *nbk);
    if (!nbk)
        return;
    free(self->buckets);
    self->buckets = nbk;
    self->nbuckets = nb;
    for (s_node_t *n = self->head; n; n = n->next) {
        size_t i = s_bucket(self, n->key);
        n->chain = nbk[i];
        nbk[i] = n;
    }
}

bool blockcache_get(blockcache_t *self, int table, uint64_t b, uint32_t i, rec_t *out)
{
    uint64_t key = s_key(table, b);
    pthread_mutex_lock(&self->lock);
    s_node_t *n = s_find(self, key);
    if (n) {
        if (n != self->head) {
            s_unlink(self, n);
            s_push_front(self, n);
        }
        *out = n->recs[i];
        self->st.hits++;
    } else {
        self->st.misses++;
    }
    pthread_mutex_unlock(&self->lock);
    return n != NULL;
}

void blockcache_put(blockcache_t *self, int table, uint64_t b, rec_t *recs, uint32_t count)
{
    uint64_t key = s_key(table, b);
    size_t cost = s_cost(self);
    s_node_t *fresh = cost <= self->st.budget ? malloc(sizeof *fresh) : NULL;
    s_node_t *dropped = NULL; /* freed after the lock is released */
    pthread_mutex_lock(&self->lock);
    if (fresh && !s_find(self, key)) {
        *fresh = (s_node_t){.key = key, .recs = recs, .n = count};
        recs = NULL;
        while (self->st.bytes + cost > self->st.budget) {
            s_node_t *old = self->tail;
            s_unlink(self, old);
            s_unchain(self, old);
            self->st.bytes -= cost;
            self->st.blocks--;
            self->st.evictions++;
            if (self->nspares < BLOCKCACHE_SPARES) {
                self->spares[self->nspares++] = old->recs; /* for blockcache_buffer */
                old->recs = NULL;
            }
            old->chain = dropped;
            dropped = old;
        }
        size_t i = s_bucket(self, key);
        fresh->chain = self->buckets[i];
        self->buckets[i] = fresh;
        s_push_front(self, fresh);
        self->st.bytes += cost;
        self->st.blocks++;
        if (self->st.blocks > self->nbuckets)
            s_grow(self);
        fresh = NULL;
    }
    pthread_mutex_unlock(&self->lock);
    free(fresh);
    free(recs);
    while (dropped) {
        s_node_t *next = dropped->chain;
        free(dropped->recs);
        free(dropped);
        dropped = next;
    }
}

rec_t *blockcache_buffer(blockcache_t *self)
{
    rec_t *recs = NULL;
    pthread_mutex_lock(&self->lock);
    if (self->nspares)
        recs = self->spares[--self->nspares];
    pthread_mutex_unlock(&self->lock);
    return recs ? recs : malloc((size_t)self->block * sizeof(rec_t));
}

blockcache_stats_t blockcache_stats(blockcache_t *self)
{
    pthread_mutex_lock(&self->lock);
    blockcache_stats_t st = self->st;
    pthread_mutex_unlock(&self->lock);
    return st;
}
