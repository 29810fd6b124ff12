/* serve_cache.c: answers by request, least recently used out (serve_cache.h):
 * a chained hash table over a doubly linked recency list, under one mutex. */
#include "serve_cache.h"

#include "hash.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct s_entry {
    char *key, *body;
    size_t len;
    uint64_t hash;
    struct s_entry *next_in_bucket, *newer, *older;
} s_entry_t;

struct serve_cache {
    pthread_mutex_t lock;
    size_t capacity, count, nbuckets;
    s_entry_t **buckets;
    s_entry_t *newest, *oldest;
};

static uint64_t s_hash(const char *key)
{
    return hash_fnv1a(key);
}

serve_cache_t *serve_cache_new(size_t capacity)
{
    serve_cache_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->capacity = capacity;
    self->nbuckets = capacity ? capacity * 2 : 1;
    if (!(self->buckets = calloc(self->nbuckets, sizeof *self->buckets))) {
        free(self);
        return NULL;
    }
    pthread_mutex_init(&self->lock, NULL);
    return self;
}

void serve_cache_destroy(serve_cache_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    serve_cache_t *self = *self_p;
    for (s_entry_t *e = self->newest, *next; e; e = next) {
        next = e->older;
        free(e->key);
        free(e->body);
        free(e);
    }
    pthread_mutex_destroy(&self->lock);
    free(self->buckets);
    free(self);
    *self_p = NULL;
}

static s_entry_t **s_slot(serve_cache_t *self, const char *key, uint64_t h)
{
    s_entry_t **p = &self->buckets[h % self->nbuckets];
    while (*p && ((*p)->hash != h || strcmp((*p)->key, key) != 0))
        p = &(*p)->next_in_bucket;
    return p;
}

static void s_unlink(serve_cache_t *self, s_entry_t *e)
{
    *(e->newer ? &e->newer->older : &self->newest) = e->older;
    *(e->older ? &e->older->newer : &self->oldest) = e->newer;
    e->newer = e->older = NULL;
}

static void s_push_newest(serve_cache_t *self, s_entry_t *e)
{
    e->older = self->newest;
    if (self->newest)
        self->newest->newer = e;
    self->newest = e;
    if (!self->oldest)
        self->oldest = e;
}

bool serve_cache_get(serve_cache_t *self, const char *key, char **body, size_t *len)
{
    uint64_t h = s_hash(key);
    bool hit = false;
    pthread_mutex_lock(&self->lock);
    s_entry_t *e = *s_slot(self, key, h);
    if (e && (*body = malloc(e->len + 1))) {
        memcpy(*body, e->body, e->len + 1);
        *len = e->len;
        s_unlink(self, e);
        s_push_newest(self, e);
        hit = true;
    }
    pthread_mutex_unlock(&self->lock);
    return hit;
}

/* Drops the least recently used answer. */
static void s_evict(serve_cache_t *self)
{
    s_entry_t *e = self->oldest;
    *s_slot(self, e->key, e->hash) = e->next_in_bucket;
    s_unlink(self, e);
    free(e->key);
    free(e->body);
    free(e);
    self->count--;
}

void serve_cache_put(serve_cache_t *self, const char *key, const char *body, size_t len)
{
    if (self->capacity == 0)
        return;
    s_entry_t *e = calloc(1, sizeof *e);
    if (!e || !(e->key = strdup(key)) || !(e->body = malloc(len + 1))) {
        if (e)
            free(e->key);
        free(e);
        return;
    }
    memcpy(e->body, body, len);
    e->body[len] = '\0';
    e->len = len;
    e->hash = s_hash(key);
    pthread_mutex_lock(&self->lock);
    s_entry_t **slot = s_slot(self, key, e->hash);
    if (*slot) { /* another thread put it first */
        pthread_mutex_unlock(&self->lock);
        free(e->key);
        free(e->body);
        free(e);
        return;
    }
    *slot = e;
    s_push_newest(self, e);
    if (++self->count > self->capacity)
        s_evict(self);
    pthread_mutex_unlock(&self->lock);
}
