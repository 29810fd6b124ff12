/* peers.h: the coordinator's table of worker sessions, keyed by ZeroMQ identity. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "msg.h"
#include "wire.h"

/* One welcomed worker session. */
typedef struct {
    bool used;
    wire_peer_t id;
    uint32_t serial;          /* unique per session, never reused */
    uint16_t name_id;         /* same for every session of one name */
    char name[MSG_NAME_MAX];
    uint32_t threads;         /* HELLO threads: the most credit it may hold */
    uint32_t credit;          /* tasks it asked for and has not been sent */
    uint32_t leased;          /* tasks sent and not answered */
    int64_t last_recv, last_send;
    uint64_t results;
    uint64_t bad_nb;          /* malformed or unexpected messages from it */
} peer_t;

typedef struct peers_s peers_t;

/* New empty table; NULL when out of memory. */
peers_t *peers_new(void);

/* Frees *self_p; NULLs it. */
void peers_destroy(peers_t **self_p);

/* The session of identity id, or NULL. */
peer_t *peers_find(peers_t *self, const wire_peer_t *id);

/* Starts a session for id (replacing an older one of the same identity: the
 * caller must have dropped it first) with a fresh serial; NULL if the table is full. */
peer_t *peers_add(peers_t *self, const wire_peer_t *id, const char *name, uint32_t threads, int64_t now);

/* Ends a session. */
void peers_remove(peers_t *self, peer_t *peer);

/* Slot access for iteration: i in [0, peers_cap()). Unused slots have used == false. */
peer_t *peers_at(peers_t *self, size_t i);
size_t peers_cap(const peers_t *self);

/* Sessions alive, and distinct names among them. */
size_t peers_count(const peers_t *self);
size_t peers_names_alive(const peers_t *self);

/* The name of a name id ("?" if unknown). */
const char *peers_name_of(const peers_t *self, uint16_t name_id);

/* Whether an identity was refused recently (NOT_WELCOME sent); remembers it if not. */
bool peers_stranger_seen(peers_t *self, const wire_peer_t *id);
