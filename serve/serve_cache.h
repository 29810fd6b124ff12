/* serve_cache.h: the last answers given, by request (route and ofen), so a
 * position asked again costs a lookup: answers from the tables never change
 * while the server runs. Least recently used first out; thread-safe. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

typedef struct serve_cache serve_cache_t;

/* A cache of at most capacity answers (0: keeps none). NULL out of memory. */
serve_cache_t *serve_cache_new(size_t capacity);

/* Frees *self_p and every answer, sets it to NULL; safe on NULL. */
void serve_cache_destroy(serve_cache_t **self_p);

/* On a hit, a copy of the answer for key in *body (the caller frees it) and
 * its length; false on a miss (or out of memory). */
bool serve_cache_get(serve_cache_t *self, const char *key, char **body, size_t *len);

/* Keeps a copy of body under key (nothing if out of memory or capacity 0). */
void serve_cache_put(serve_cache_t *self, const char *key, const char *body, size_t len);
