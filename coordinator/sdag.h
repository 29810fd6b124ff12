/* sdag.h: a solve job's pairs as a dependency graph (proto/PROTOCOL.md section 11.2):
 * which pairs wait for others, may be solved, are made (--verify) and done. Leases and
 * refusals are the scheduler's (sched.h), as for every kind. No sockets and no files:
 * coordinator/ssolve.c drives it. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "msg.h"

enum { SDAG_DEPS_MAX = 64 };

typedef enum {
    SDAG_WAITING,      /* a pair it depends on is not done */
    SDAG_READY,        /* may be solved: its task is the scheduler's (queued, leased, fetched) */
    SDAG_MADE,         /* --verify: its files are in the directory, its check task is the scheduler's */
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
    double weight;                     /* piece placements of its tables, for order */
    uint64_t memory;                   /* bytes solving it takes at its peak (solve_pair_memory) */
    uint64_t held;                     /* of that, counted against the local budget by its current lease */
    int maker;                         /* principal (name_id) that made its files, -1 none */
    int bad_maker;                     /* principal whose copy failed verification: not to solve it again, -1 */
    bool preloaded;                    /* done when the run started */
} sdag_pair_t;

typedef struct {
    sdag_pair_t *pairs;
    int n;
    int done;
    int preloaded;
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

/* Pair i is done: its dependants may become ready. The pairs that did are written to ready
 * (NULL: not written; room for g->n); returns how many. */
int sdag_done(sdag_t *g, int i, int *ready);
