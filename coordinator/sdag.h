/* sdag.h: a solve job's pairs as a dependency graph (proto/PROTOCOL.md
 * section 11.2): which pairs are ready, leased, being pulled or verified,
 * and done. No sockets and no files: coordinator/ssolve.c drives it. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lease.h"
#include "msg.h"

enum { SDAG_DEPS_MAX = 64 };

typedef enum {
    SDAG_WAITING,      /* a pair it depends on is not done */
    SDAG_READY,        /* may be solved */
    SDAG_SOLVING,      /* SOLVE leased */
    SDAG_PULLING,      /* SOLVED came; its files are being fetched or checked */
    SDAG_CHECK_READY,  /* --verify: made, waiting for a VERIFY */
    SDAG_CHECKING,     /* VERIFY leased */
    SDAG_DONE
} sdag_state_t;

typedef struct {
    int pair;                          /* sig pair index */
    int ntables;
    int tables[2];                     /* table ids: primary, flip */
    char name[MSG_TABLE_NAME_MAX];     /* the primary table's name */
    int deps[SDAG_DEPS_MAX];           /* indexes (in the graph) of the pairs it needs */
    int ndeps;
    int children[SDAG_DEPS_MAX];       /* the child table ids (needs) */
    int nchildren;
    int undone;                        /* deps not done */
    sdag_state_t state;
    double weight;                     /* piece placements of its tables, for order and ETA */
    uint64_t memory;                   /* bytes solving it takes at its peak (solve_pair_memory) */
    uint64_t held;                     /* of that, counted against the local budget by its current lease */
    uint64_t task_id;                  /* the current lease's task id */
    uint32_t serial;                   /* the session holding it */
    int64_t lease_until;
    int maker;                         /* principal (name_id) that made its files, -1 none */
    int bad_maker;                     /* principal whose copy failed verification: not to solve it again, -1 */
    lease_memory_t mem;                /* its expired leases, and the principals that refused it or
                                          whose transfer of it failed (lease.h's rules) */
    bool preloaded;                    /* done when the run started */
} sdag_pair_t;

typedef struct {
    sdag_pair_t *pairs;
    int n;
    int done;
    int preloaded;
    uint64_t next_task_id;
    double weight_total, weight_done_run; /* pairs to do this run, and done in it */
} sdag_t;

/* Builds the graph of every pair with at most max_pieces pieces that has a
 * file (pairs drawn whatever the squares have none), in solving order.
 * 0, or -1 out of memory. */
int sdag_build(sdag_t *g, int max_pieces);

/* Builds the graph of the pairs that the given tables need (solve_closure of
 * each, the tables' own pairs included), in solving order. 0, or -1 out of
 * memory. */
int sdag_build_for(sdag_t *g, const int *tables, int n);

/* Frees the graph. */
void sdag_free(sdag_t *g);

/* Marks pair i done from the start (its files were there). Call for each,
 * then sdag_settle. */
void sdag_preload(sdag_t *g, int i);

/* Makes every waiting pair whose deps are done ready. */
void sdag_settle(sdag_t *g);

/* The index of the graph pair holding table `table`, or -1. */
int sdag_find_table(const sdag_t *g, int table);

/* Whether principal `who` may take pair i (it has not refused it; for solving, it did not make a bad copy). */
bool sdag_allowed(const sdag_pair_t *p, int who);

/* The next task for principal `who`: a made pair to verify whose maker is
 * someone else (first), else the heaviest ready pair it may take, among the
 * pairs whose memory is at most mem_free. -1 none. */
int sdag_pick(const sdag_t *g, int who, bool verify, uint64_t mem_free);

/* Bytes held by the leases (SOLVING or CHECKING) that counted memory (held). */
uint64_t sdag_held(const sdag_t *g);

/* Leases pair i (READY -> SOLVING, CHECK_READY -> CHECKING) to a session;
 * returns the new task id. */
uint64_t sdag_lease(sdag_t *g, int i, uint32_t serial, int64_t until);

/* The pair leased under task_id to serial, in one of the states given, or -1. */
int sdag_by_task(const sdag_t *g, uint64_t task_id, uint32_t serial);

/* Puts pair i back: SOLVING/PULLING -> READY, CHECKING -> CHECK_READY. */
void sdag_release(sdag_t *g, int i);

/* Pair i's lease expired: put back as sdag_release, and the lease remembered, so that its
 * late answer is still taken (lease.h, rule 1; sdag_take_late). */
void sdag_expire(sdag_t *g, int i);

/* A late answer (lease.h, rule 1): the pair whose expired lease was task_id of serial, if
 * it is not done and is in the phase of the answer (want: SDAG_SOLVING for SOLVED,
 * SDAG_CHECKING for VERIFIED), is leased to serial again under task_id until `until`, in
 * state want; a lease of another session on it ends. Returns the pair, or -1. */
int sdag_take_late(sdag_t *g, uint64_t task_id, uint32_t serial, sdag_state_t want, int64_t until);

/* Principal who refused pair i, or its transfer failed: not offered it again (lease.h, rule 2). */
void sdag_avoid(sdag_t *g, int i, int who);

/* Pair i is done: its dependants may become ready. */
void sdag_done(sdag_t *g, int i);

/* Leases of serial: renewed until `until` (every message renews them). */
void sdag_renew(sdag_t *g, uint32_t serial, int64_t until);
