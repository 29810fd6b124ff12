/* vt_store.c: one slot per table id; a failed open is remembered with its
 * message, so a missing table is reported once per caller, not retried. */
#include "vt_store.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

struct vt_store {
    char *dir;
    pthread_mutex_t lock;
    _Atomic(vt_table_t *) tables[VT_TABLE_NB];
    char *errors[VT_TABLE_NB];
};

vt_store_t *vt_store_new(const char *dir)
{
    vt_store_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    self->dir = strdup(dir);
    if (!self->dir) {
        free(self);
        return NULL;
    }
    pthread_mutex_init(&self->lock, NULL);
    return self;
}

void vt_store_destroy(vt_store_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    vt_store_t *self = *self_p;
    for (int i = 0; i < VT_TABLE_NB; i++) {
        vt_table_t *t = atomic_load(&self->tables[i]);
        vt_table_close(&t);
        free(self->errors[i]);
    }
    pthread_mutex_destroy(&self->lock);
    free(self->dir);
    free(self);
    *self_p = NULL;
}

void vt_store_path(const vt_store_t *self, int id, char *buf, size_t len)
{
    char name[VT_NAME_MAX];
    vt_table_name(id, name);
    snprintf(buf, len, "%s/%s.otb", self->dir, name);
}

const vt_table_t *vt_store_get(vt_store_t *self, int id, char *err, size_t errlen)
{
    vt_table_t *t = atomic_load_explicit(&self->tables[id], memory_order_acquire);
    if (t)
        return t;
    pthread_mutex_lock(&self->lock);
    t = atomic_load(&self->tables[id]);
    if (!t && !self->errors[id]) {
        char path[4096], why[512];
        vt_store_path(self, id, path, sizeof path);
        if (vt_table_open(path, id, &t, why, sizeof why) == 0) {
            atomic_store_explicit(&self->tables[id], t, memory_order_release);
        } else {
            size_t n = strlen(path) + strlen(why) + 3;
            self->errors[id] = malloc(n);
            if (self->errors[id])
                snprintf(self->errors[id], n, "%s: %s", path, why);
        }
    }
    if (!t)
        snprintf(err, errlen, "%s", self->errors[id] ? self->errors[id] : "out of memory");
    pthread_mutex_unlock(&self->lock);
    return t;
}

uint64_t vt_store_bytes(vt_store_t *self)
{
    uint64_t n = 0;
    for (int i = 0; i < VT_TABLE_NB; i++) {
        vt_table_t *t = atomic_load(&self->tables[i]);
        if (t && t->owned)
            n += 4 * t->nrecords;
    }
    return n;
}

void vt_store_trim(vt_store_t *self, uint64_t budget)
{
    if (vt_store_bytes(self) <= budget)
        return;
    for (int i = 0; i < VT_TABLE_NB; i++) {
        vt_table_t *t = atomic_exchange(&self->tables[i], NULL);
        vt_table_close(&t);
    }
}
