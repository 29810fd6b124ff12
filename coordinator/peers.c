/* peers.c: worker sessions in a fixed table; principals interned to small ids (see peers.h). */
#include "peers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve.h"

_Static_assert(sizeof((peer_t *)0)->fingerprint == CURVE_FINGERPRINT_MAX, "peer_t.fingerprint holds a fingerprint");

enum { NAMES_MAX = 4096, STRANGERS_MAX = 64, LABEL_MAX = MSG_NAME_MAX + 32 };

/* A principal: a CURVE key, or a declared name without CURVE. */
typedef struct {
    char text[64]; /* WIRE_USER_ID_MAX and MSG_NAME_MAX are both 64 */
    char label[LABEL_MAX];
    uint32_t live;           /* sessions alive under it */
    bool pinned;             /* the scheduler knows its id: never reused */
    bool used;
} s_name_t;
_Static_assert((int)WIRE_USER_ID_MAX <= 64 && (int)MSG_NAME_MAX <= 64, "principal text fits");

struct peers_s {
    peer_t slot[PEERS_MAX];
    size_t count;
    size_t hi;              /* one past the highest slot ever used */
    uint32_t next_serial;
    s_name_t *names;
    size_t name_nb;         /* entries ever used (reused ones included) */
    size_t names_alive;     /* principals with live > 0 */
    wire_peer_t strangers[STRANGERS_MAX];
    size_t stranger_next;
};

peers_t *peers_new(void)
{
    peers_t *self = calloc(1, sizeof *self);
    if (self == NULL)
        return NULL;
    self->names = calloc(NAMES_MAX, sizeof *self->names);
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

bool peers_same_link(const peer_t *p, const wire_meta_t *meta)
{
    return p->fd == meta->fd && strcmp(p->user_id, meta->user_id) == 0;
}

static int s_find_name(const peers_t *self, const char *text)
{
    for (size_t i = 0; i < self->name_nb; i++)
        if (self->names[i].used && strcmp(self->names[i].text, text) == 0)
            return (int)i;
    return -1;
}

/* The id of a principal, interned on first sight; an entry nobody uses and the
 * scheduler never saw is reused when the table is full. -1 if none is free. */
static int s_intern(peers_t *self, const char *text, const char *name, bool is_key)
{
    int i = s_find_name(self, text);
    if (i >= 0)
        return i;
    if (self->name_nb < NAMES_MAX) {
        i = (int)self->name_nb++;
    } else {
        for (size_t k = 0; k < NAMES_MAX && i < 0; k++)
            if (!self->names[k].pinned && self->names[k].live == 0)
                i = (int)k;
        if (i < 0)
            return -1;
    }
    s_name_t *n = &self->names[i];
    *n = (s_name_t){.used = true};
    snprintf(n->text, sizeof n->text, "%s", text);
    if (is_key) {
        char fp[CURVE_FINGERPRINT_MAX];
        curve_fingerprint(text, fp);
        snprintf(n->label, sizeof n->label, "%s [key %s]", name, fp);
    } else {
        snprintf(n->label, sizeof n->label, "%s", name);
    }
    return i;
}

/* Sessions alive under the principal of meta's key (0 without a key). */
static uint32_t s_key_live(const peers_t *self, const wire_meta_t *meta)
{
    int i = meta->user_id[0] != '\0' ? s_find_name(self, meta->user_id) : -1;
    return i >= 0 ? self->names[i].live : 0;
}

peer_t *peers_add(peers_t *self, const wire_peer_t *id, const wire_meta_t *meta, const char *name,
                  uint32_t threads, int64_t now)
{
    bool is_key = meta->user_id[0] != '\0';
    if (is_key && s_key_live(self, meta) >= PEERS_PER_KEY_MAX)
        return NULL;
    peer_t *p = NULL;
    for (size_t i = 0; i < PEERS_MAX && p == NULL; i++)
        if (!self->slot[i].used) {
            p = &self->slot[i];
            if (i + 1 > self->hi)
                self->hi = i + 1;
        }
    if (p == NULL)
        return NULL;
    int name_id = s_intern(self, is_key ? meta->user_id : name, name, is_key);
    if (name_id < 0)
        return NULL;
    *p = (peer_t){.used = true, .id = *id, .fd = meta->fd, .serial = self->next_serial++,
                  .name_id = (uint16_t)name_id, .threads = threads, .since = now, .last_recv = now,
                  .last_send = now};
    snprintf(p->user_id, sizeof p->user_id, "%s", meta->user_id);
    snprintf(p->address, sizeof p->address, "%s", meta->address);
    if (is_key)
        curve_fingerprint(meta->user_id, p->fingerprint);
    snprintf(p->name, sizeof p->name, "%s", name);
    if (self->names[name_id].live++ == 0)
        self->names_alive++;
    self->count++;
    return p;
}

peer_t *peers_victim(peers_t *self, const wire_meta_t *meta)
{
    bool key_full = meta->user_id[0] != '\0' && s_key_live(self, meta) >= PEERS_PER_KEY_MAX;
    peer_t *best = NULL;
    for (size_t i = 0; i < self->hi; i++) {
        peer_t *p = &self->slot[i];
        if (!p->used || p->leased > 0 || p->results > 0)
            continue;
        if (key_full && strcmp(p->user_id, meta->user_id) != 0)
            continue;
        if (best == NULL || p->serial < best->serial)
            best = p;
    }
    return best;
}

void peers_remove(peers_t *self, peer_t *peer)
{
    if (peer == NULL || !peer->used)
        return;
    peer->used = false;
    self->count--;
    if (--self->names[peer->name_id].live == 0)
        self->names_alive--;
}

void peers_pin(peers_t *self, uint16_t name_id)
{
    if (name_id < NAMES_MAX)
        self->names[name_id].pinned = true;
}

peer_t *peers_at(peers_t *self, size_t i) { return &self->slot[i]; }
size_t peers_cap(const peers_t *self) { return self->hi; }
size_t peers_count(const peers_t *self) { return self->count; }
size_t peers_names_alive(const peers_t *self) { return self->names_alive; }

const char *peers_name_of(const peers_t *self, uint16_t name_id)
{
    return name_id < self->name_nb && self->names[name_id].used ? self->names[name_id].label : "?";
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
