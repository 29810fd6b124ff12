/* peers.c: worker sessions in a fixed table; names interned to small ids (see peers.h). */
#include "peers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PEERS_MAX = 1024, NAMES_MAX = 4096, STRANGERS_MAX = 64 };

struct peers_s {
    peer_t slot[PEERS_MAX];
    size_t count;
    size_t hi;              /* one past the highest slot ever used */
    uint32_t next_serial;
    char (*names)[MSG_NAME_MAX];
    size_t name_nb;
    wire_peer_t strangers[STRANGERS_MAX];
    size_t stranger_next;
};

peers_t *peers_new(void)
{
    peers_t *self = calloc(1, sizeof *self);
    if (self == NULL)
        return NULL;
    self->names = calloc(NAMES_MAX, MSG_NAME_MAX);
    if (self->names == NULL) {
        free(self);
        return NULL;
    }
    self->next_serial = 1;
    return self;
}

void peers_destroy(peers_t **self_p)
{
    if (*self_p == NULL)
        return;
    free((*self_p)->names);
    free(*self_p);
    *self_p = NULL;
}

static bool s_same(const wire_peer_t *a, const wire_peer_t *b)
{
    return a->len == b->len && memcmp(a->id, b->id, a->len) == 0;
}

peer_t *peers_find(peers_t *self, const wire_peer_t *id)
{
    for (size_t i = 0; i < self->hi; i++)
        if (self->slot[i].used && s_same(&self->slot[i].id, id))
            return &self->slot[i];
    return NULL;
}

/* The id of a name, interned on first sight (the last id is shared when full). */
static uint16_t s_intern(peers_t *self, const char *name)
{
    for (size_t i = 0; i < self->name_nb; i++)
        if (strcmp(self->names[i], name) == 0)
            return (uint16_t)i;
    if (self->name_nb == NAMES_MAX)
        return NAMES_MAX - 1;
    snprintf(self->names[self->name_nb], MSG_NAME_MAX, "%s", name);
    return (uint16_t)self->name_nb++;
}

peer_t *peers_add(peers_t *self, const wire_peer_t *id, const char *name, uint32_t threads, int64_t now)
{
    for (size_t i = 0; i < PEERS_MAX; i++) {
        peer_t *p = &self->slot[i];
        if (p->used)
            continue;
        memset(p, 0, sizeof *p);
        p->used = true;
        p->id = *id;
        p->serial = self->next_serial++;
        p->name_id = s_intern(self, name);
        snprintf(p->name, sizeof p->name, "%s", name);
        p->threads = threads;
        p->last_recv = p->last_send = now;
        self->count++;
        if (i + 1 > self->hi)
            self->hi = i + 1;
        return p;
    }
    return NULL;
}

void peers_remove(peers_t *self, peer_t *peer)
{
    if (peer == NULL || !peer->used)
        return;
    peer->used = false;
    self->count--;
}

peer_t *peers_at(peers_t *self, size_t i) { return &self->slot[i]; }
size_t peers_cap(const peers_t *self) { return self->hi; }
size_t peers_count(const peers_t *self) { return self->count; }

size_t peers_names_alive(const peers_t *self)
{
    size_t n = 0;
    for (size_t i = 0; i < self->hi; i++) {
        if (!self->slot[i].used)
            continue;
        bool first = true;
        for (size_t j = 0; j < i && first; j++)
            first = !(self->slot[j].used && self->slot[j].name_id == self->slot[i].name_id);
        n += first;
    }
    return n;
}

const char *peers_name_of(const peers_t *self, uint16_t name_id)
{
    return name_id < self->name_nb ? self->names[name_id] : "?";
}

bool peers_stranger_seen(peers_t *self, const wire_peer_t *id)
{
    for (size_t i = 0; i < STRANGERS_MAX; i++)
        if (s_same(&self->strangers[i], id))
            return true;
    self->strangers[self->stranger_next] = *id;
    self->stranger_next = (self->stranger_next + 1) % STRANGERS_MAX;
    return false;
}
