/* peers.h: the coordinator's table of worker sessions, keyed by ZeroMQ identity
 * and bound to one connection (and CURVE key), and the interned principals. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "msg.h"
#include "wire.h"

/* PEERS_MAX sessions at most (their slots are allocated as they come, 256 at a time); the
 * file descriptors of the process bound it first on most machines (docs/swarm.md). */
enum { PEERS_MAX = 32768, PEERS_PER_KEY_MAX = 256 };

/* One welcomed worker session. */
typedef struct {
    bool used;
    wire_peer_t id;
    int fd;                   /* the connection it said HELLO on (wire_meta_t.fd) */
    char user_id[WIRE_USER_ID_MAX]; /* its CURVE key (ZAP User-Id), empty without CURVE */
    char fingerprint[17];     /* curve_fingerprint of that key (never the key), empty without CURVE */
    char address[WIRE_ADDRESS_MAX]; /* its IP address (tcp), empty otherwise */
    uint32_t serial;          /* unique per session, never reused */
    uint16_t name_id;         /* its principal: same for every session of one key (CURVE) or name */
    char name[MSG_NAME_MAX];  /* the name it declared, cleaned for logs */
    uint32_t threads;         /* HELLO threads: the most credit it may hold */
    uint32_t hash_mb;         /* HELLO hash size, for the log */
    uint32_t version;         /* the session's protocol version (its HELLO's) */
    uint32_t credit;          /* tasks it asked for and has not been sent */
    uint32_t leased;          /* tasks sent and not answered */
    bool credited;            /* it has sent a CREDIT (got past HELLO) */
    int64_t since;            /* when it said HELLO */
    int64_t last_recv, last_send;
    uint64_t results;
    count_t amount;           /* nodes of the tasks credited to it, as the total counts them (solve: positions of its SOLVED) */
    uint64_t bad_nb;          /* malformed or unexpected messages from it */
    uint64_t refusals;        /* tasks it refused (REFUSE) */
    uint64_t disagreements;   /* verify: its answers that differed from another worker's */
    double wall_s;            /* the wall time its accepted answers report */
    bool cpu_known;           /* it reported its CPU time (USAGE, OCTP/4) */
    uint64_t cpu_ms;          /* the CPU time it last reported (since its WELCOME) */
    uint64_t cpu_credited_ms; /* the part of it already credited to journaled tasks */
} peer_t;

typedef struct peers_s peers_t;

/* New empty table; NULL when out of memory. */
peers_t *peers_new(void);

/* Frees *self_p; NULLs it. */
void peers_destroy(peers_t **self_p);

/* The session of identity id, or NULL. */
peer_t *peers_find(peers_t *self, const wire_peer_t *id);

/* Whether a message that came over `meta` belongs to session p (same connection and key). */
bool peers_same_link(const peer_t *p, const wire_meta_t *meta);

/* Starts a session for id on the connection and key of meta, with a fresh
 * serial. Its principal is the CURVE key when there is one, else the declared
 * name (already cleaned for logs). NULL when the table is full, the principal
 * table is full, or the key holds PEERS_PER_KEY_MAX sessions: the caller
 * evicts (peers_victim) and retries, or refuses. */
peer_t *peers_add(peers_t *self, const wire_peer_t *id, const wire_meta_t *meta, const char *name,
                  uint32_t threads, int64_t now);

/* The session to evict so that a newcomer (of principal text `principal`, may
 * be NULL) fits: the oldest one that has never been given work (no lease, no
 * result), preferring one of the same key when that key is at its bound.
 * NULL if every session is doing work. */
peer_t *peers_victim(peers_t *self, const wire_meta_t *meta);

/* Ends a session. */
void peers_remove(peers_t *self, peer_t *peer);

/* The principal of a session was given a task: its id is kept for the job (the
 * scheduler remembers it in leases, votes and refusals). */
void peers_pin(peers_t *self, uint16_t name_id);

/* Slot access for iteration: i in [0, peers_cap()). Unused slots have used == false. */
peer_t *peers_at(peers_t *self, size_t i);
size_t peers_cap(const peers_t *self);

/* Sessions alive, and distinct principals among them. */
size_t peers_count(const peers_t *self);
size_t peers_names_alive(const peers_t *self);

/* A principal for logs: the first name seen under it, and its key's
 * fingerprint under CURVE ("?" if unknown). */
const char *peers_name_of(const peers_t *self, uint16_t name_id);

/* A principal's own text: its CURVE key (Z85), or its declared name without CURVE (what a
 * journal records to tell workers apart across restarts); "" if unknown. */
const char *peers_principal_of(const peers_t *self, uint16_t name_id);

/* Whether an identity was refused recently (NOT_WELCOME sent); remembers it if not. */
bool peers_stranger_seen(peers_t *self, const wire_peer_t *id);
