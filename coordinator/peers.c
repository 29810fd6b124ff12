/* peers.c: worker sessions in a table of fixed blocks, found by identity through a hash index;
 * principals interned to small ids, found by text through another (see peers.h). */
#include "peers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve.h"
#include "hash.h"

_Static_assert(sizeof((peer_t *)0)->fingerprint == CURVE_FINGERPRINT_MAX, "peer_t.fingerprint holds a fingerprint");

enum {
    NAMES_MAX = UINT16_MAX,  /* principal ids are 16-bit (the scheduler keeps them in leases) */
    BLOCK = 256,             /* slots and principals are allocated in blocks that never move */
    STRANGERS_MAX = 64,
    LABEL_MAX = MSG_NAME_MAX + 32,
};
_Static_assert(PEERS_MAX % BLOCK == 0, "whole blocks of sessions");

/* A principal: a CURVE key, or a declared name without CURVE. */
typedef struct {
    char text[64]; /* WIRE_USER_ID_MAX and MSG_NAME_MAX are both 64 */
    char label[LABEL_MAX];
    uint32_t live;           /* sessions alive under it */
    bool pinned;             /* the scheduler knows its id: never reused */
    bool used;
} s_name_t;
_Static_assert((int)WIRE_USER_ID_MAX <= 64 && (int)MSG_NAME_MAX <= 64, "principal text fits");

/* An open-addressing index (linear probing, power-of-two size, at most half full) from a key
 * to an entry number; cells hold number + 1, 0 is empty. The keys live in the entries. */
typedef struct {
    uint32_t *cell;
    size_t size, used;
} s_index_t;

struct peers_s {
    peer_t *slot[PEERS_MAX / BLOCK]; /* slot i is slot[i / BLOCK][i % BLOCK] */
    size_t count;
    size_t hi;              /* one past the highest slot ever used */
    size_t free_from;       /* no slot below it is free */
    uint32_t next_serial;
    s_index_t by_id;        /* identity -> slot (several when an identity is claimed again) */
    s_name_t *names[(NAMES_MAX + BLOCK - 1) / BLOCK];
    size_t name_nb;         /* entries ever used (reused ones included) */
    size_t names_alive;     /* principals with live > 0 */
    s_index_t by_text;      /* principal text -> name id */
    wire_peer_t strangers[STRANGERS_MAX];
    size_t stranger_next;
};

static peer_t *s_slot(const peers_t *self, size_t i) { return &self->slot[i / BLOCK][i % BLOCK]; }
static s_name_t *s_name(const peers_t *self, size_t i) { return &self->names[i / BLOCK][i % BLOCK]; }

/* The slot number of a session of this table. */
static size_t s_index_of(const peers_t *self, const peer_t *p)
{
    for (size_t b = 0; b < PEERS_MAX / BLOCK; b++)
        if (self->slot[b] != NULL && (uintptr_t)p >= (uintptr_t)self->slot[b] &&
            (uintptr_t)p < (uintptr_t)(self->slot[b] + BLOCK))
            return b * BLOCK + (size_t)(p - self->slot[b]);
    return SIZE_MAX;
}

static uint64_t s_hash_id(const wire_peer_t *id) { return hash_fnv1a_add(HASH_FNV1A_BASIS, id->id, id->len); }

/* The key hash of entry e of an index (the index does not know what it indexes). */
typedef uint64_t (*s_key_of_t)(const peers_t *self, uint32_t e);
static uint64_t s_key_of_slot(const peers_t *self, uint32_t e) { return s_hash_id(&s_slot(self, e)->id); }
static uint64_t s_key_of_name(const peers_t *self, uint32_t e) { return hash_fnv1a(s_name(self, e)->text); }

/* Puts entry e of key hash h in the index, doubling it first when it would be over half full.
 * -1 when out of memory. */
static int s_index_put(peers_t *self, s_index_t *x, s_key_of_t key_of, uint64_t h, uint32_t e)
{
    if (2 * (x->used + 1) > x->size) {
        size_t size = x->size ? 2 * x->size : 1024;
        uint32_t *cell = calloc(size, sizeof *cell);
        if (cell == NULL)
            return -1;
        for (size_t i = 0; i < x->size; i++)
            if (x->cell[i] != 0) {
                size_t j = key_of(self, x->cell[i] - 1) & (size - 1);
                while (cell[j] != 0)
                    j = (j + 1) & (size - 1);
                cell[j] = x->cell[i];
            }
        free(x->cell);
        x->cell = cell;
        x->size = size;
    }
    size_t j = h & (x->size - 1);
    while (x->cell[j] != 0)
        j = (j + 1) & (x->size - 1);
    x->cell[j] = e + 1;
    x->used++;
    return 0;
}

/* Removes entry e (of key hash h) from the index, shifting back the cells after it so that no
 * probe sequence is broken (no tombstones). */
static void s_index_del(peers_t *self, s_index_t *x, s_key_of_t key_of, uint64_t h, uint32_t e)
{
    if (x->size == 0)
        return;
    size_t mask = x->size - 1, j = h & mask;
    while (x->cell[j] != 0 && x->cell[j] != e + 1)
        j = (j + 1) & mask;
    if (x->cell[j] == 0)
        return;
    x->cell[j] = 0;
    x->used--;
    for (size_t k = (j + 1) & mask; x->cell[k] != 0; k = (k + 1) & mask) {
        size_t home = key_of(self, x->cell[k] - 1) & mask;
        /* the cell at k may move to the hole at j if its home is not in (j, k] (cyclically) */
        if ((k > j && (home <= j || home > k)) || (k < j && home <= j && home > k)) {
            x->cell[j] = x->cell[k];
            x->cell[k] = 0;
            j = k;
        }
    }
}

peers_t *peers_new(void)
{
    peers_t *self = calloc(1, sizeof *self);
    if (self == NULL)
        return NULL;
    self->next_serial = 1;
    return self;
}

void peers_destroy(peers_t **self_p)
{
    if (*self_p == NULL)
        return;
    peers_t *self = *self_p;
    for (size_t b = 0; b < sizeof self->slot / sizeof *self->slot; b++)
        free(self->slot[b]);
    for (size_t b = 0; b < sizeof self->names / sizeof *self->names; b++)
        free(self->names[b]);
    free(self->by_id.cell);
    free(self->by_text.cell);
    free(self);
    *self_p = NULL;
}

static bool s_same(const wire_peer_t *a, const wire_peer_t *b)
{
    return a->len == b->len && memcmp(a->id, b->id, a->len) == 0;
}

peer_t *peers_find(peers_t *self, const wire_peer_t *id)
{
    /* every session of this identity is in the run of cells from its home: the lowest slot wins */
    if (self->by_id.size == 0)
        return NULL;
    size_t mask = self->by_id.size - 1, best = SIZE_MAX;
    for (size_t j = s_hash_id(id) & mask; self->by_id.cell[j] != 0; j = (j + 1) & mask) {
        size_t e = self->by_id.cell[j] - 1;
        if (e < best && s_same(&s_slot(self, e)->id, id))
            best = e;
    }
    return best == SIZE_MAX ? NULL : s_slot(self, best);
}

bool peers_same_link(const peer_t *p, const wire_meta_t *meta)
{
    return p->fd == meta->fd && strcmp(p->user_id, meta->user_id) == 0;
}

static int s_find_name(const peers_t *self, const char *text)
{
    if (self->by_text.size == 0)
        return -1;
    size_t mask = self->by_text.size - 1;
    for (size_t j = hash_fnv1a(text) & mask; self->by_text.cell[j] != 0; j = (j + 1) & mask) {
        uint32_t e = self->by_text.cell[j] - 1;
        if (strcmp(s_name(self, e)->text, text) == 0)
            return (int)e;
    }
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
        if (self->names[self->name_nb / BLOCK] == NULL &&
            (self->names[self->name_nb / BLOCK] = calloc(BLOCK, sizeof(s_name_t))) == NULL)
            return -1;
        i = (int)self->name_nb;
    } else {
        for (size_t k = 0; k < NAMES_MAX && i < 0; k++)
            if (!s_name(self, k)->pinned && s_name(self, k)->live == 0)
                i = (int)k;
        if (i < 0)
            return -1;
    }
    s_name_t *n = s_name(self, (size_t)i);
    if (n->used)
        s_index_del(self, &self->by_text, s_key_of_name, hash_fnv1a(n->text), (uint32_t)i);
    if (s_index_put(self, &self->by_text, s_key_of_name, hash_fnv1a(text), (uint32_t)i) != 0) {
        n->used = false; /* an entry reused but not indexed again is forgotten */
        return -1;
    }
    if ((size_t)i == self->name_nb)
        self->name_nb++;
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
    return i >= 0 ? s_name(self, (size_t)i)->live : 0;
}

peer_t *peers_add(peers_t *self, const wire_peer_t *id, const wire_meta_t *meta, const char *name,
                  uint32_t threads, int64_t now)
{
    bool is_key = meta->user_id[0] != '\0';
    if (is_key && s_key_live(self, meta) >= PEERS_PER_KEY_MAX)
        return NULL;
    size_t i = self->free_from;
    while (i < self->hi && s_slot(self, i)->used)
        i++;
    if (i >= PEERS_MAX)
        return NULL;
    if (self->slot[i / BLOCK] == NULL && (self->slot[i / BLOCK] = calloc(BLOCK, sizeof(peer_t))) == NULL)
        return NULL;
    int name_id = s_intern(self, is_key ? meta->user_id : name, name, is_key);
    if (name_id < 0)
        return NULL;
    peer_t *p = s_slot(self, i);
    if (s_index_put(self, &self->by_id, s_key_of_slot, s_hash_id(id), (uint32_t)i) != 0)
        return NULL;
    if (i + 1 > self->hi)
        self->hi = i + 1;
    self->free_from = i + 1;
    *p = (peer_t){.used = true, .id = *id, .fd = meta->fd, .serial = self->next_serial++,
                  .name_id = (uint16_t)name_id, .threads = threads, .since = now, .last_recv = now,
                  .last_send = now};
    snprintf(p->user_id, sizeof p->user_id, "%s", meta->user_id);
    snprintf(p->address, sizeof p->address, "%s", meta->address);
    if (is_key)
        curve_fingerprint(meta->user_id, p->fingerprint);
    snprintf(p->name, sizeof p->name, "%s", name);
    if (s_name(self, (size_t)name_id)->live++ == 0)
        self->names_alive++;
    self->count++;
    return p;
}

peer_t *peers_victim(peers_t *self, const wire_meta_t *meta)
{
    bool key_full = meta->user_id[0] != '\0' && s_key_live(self, meta) >= PEERS_PER_KEY_MAX;
    peer_t *best = NULL;
    for (size_t i = 0; i < self->hi; i++) {
        peer_t *p = s_slot(self, i);
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
    size_t i = s_index_of(self, peer);
    s_index_del(self, &self->by_id, s_key_of_slot, s_hash_id(&peer->id), (uint32_t)i);
    peer->used = false;
    if (i < self->free_from)
        self->free_from = i;
    self->count--;
    if (--s_name(self, peer->name_id)->live == 0)
        self->names_alive--;
}

void peers_pin(peers_t *self, uint16_t name_id)
{
    if (name_id < self->name_nb)
        s_name(self, name_id)->pinned = true;
}

peer_t *peers_at(peers_t *self, size_t i) { return s_slot(self, i); }
size_t peers_cap(const peers_t *self) { return self->hi; }
size_t peers_count(const peers_t *self) { return self->count; }
size_t peers_names_alive(const peers_t *self) { return self->names_alive; }

const char *peers_name_of(const peers_t *self, uint16_t name_id)
{
    return name_id < self->name_nb && s_name(self, name_id)->used ? s_name(self, name_id)->label : "?";
}

const char *peers_principal_of(const peers_t *self, uint16_t name_id)
{
    return name_id < self->name_nb && s_name(self, name_id)->used ? s_name(self, name_id)->text : "";
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
