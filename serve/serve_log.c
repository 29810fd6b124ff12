/* serve_log.c: failures logged once (serve_log.h). */
#include "serve_log.h"

#include "hash.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

struct serve_log {
    FILE *f;
    pthread_mutex_t lock;
    int n;
    uint64_t seen[SERVE_LOG_KEPT]; /* FNV-1a hashes of the messages written */
};

serve_log_t *serve_log_new(FILE *f)
{
    serve_log_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->f = f;
    pthread_mutex_init(&self->lock, NULL);
    return self;
}

void serve_log_destroy(serve_log_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    pthread_mutex_destroy(&(*self_p)->lock);
    free(*self_p);
    *self_p = NULL;
}

static uint64_t s_hash(const char *what, const char *message)
{
    static const unsigned char separator = 0xff; /* no text byte: "ab"+"c" differs from "a"+"bc" */
    uint64_t h = hash_fnv1a_add(hash_fnv1a(what), &separator, 1);
    return hash_fnv1a_text(h, message);
}

void serve_log_once(serve_log_t *self, const char *what, const char *message)
{
    uint64_t h = s_hash(what, message);
    pthread_mutex_lock(&self->lock);
    bool seen = false;
    for (int i = 0; i < self->n && !seen; i++)
        seen = self->seen[i] == h;
    if (!seen) {
        if (self->n < SERVE_LOG_KEPT)
            self->seen[self->n++] = h;
        fprintf(self->f, "octad serve: %s: %s\n", what, message);
        fflush(self->f);
    }
    pthread_mutex_unlock(&self->lock);
}
