/* wsolve_run.h: what a worker's solve or verify thread does: one pair
 * solved with solve_pair, or its files checked by the independent verifier
 * (core/verify/), and the answer message it makes. */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "msg.h"
#include "store.h"

typedef struct {
    bool verify;                 /* VERIFY, else SOLVE */
    int pair;                    /* sig pair index */
    int ntables;
    int tables[2];               /* the pair's table ids */
    char dir[4096];              /* where the tables are read and written */
    store_t *store;              /* the worker's store over dir, kept across pairs (as solve_all keeps one) */
    int threads;
    bool corrupt;                /* testing only (--test-spoil): one record of the first file made is wrong */
    bool damage;                 /* testing only (--test-damage): its last byte is changed after the checksums */
    uint64_t task_id, job_id;
    uint32_t gen;                /* the session it was started for */
    atomic_bool finished;
    bool failed;
    char err[MSG_TEXT_MAX];
    msg_t answer;                /* SOLVED or VERIFIED */
} wsolve_run_t;

/* Initialises the solver's and verifier's tables; once, before any thread. */
void wsolve_run_init(void);

/* Reads a SOLVE or VERIFY into *r (r->store is kept) (its pair must be a primary table's name,
 * a VERIFY's tables the pair's files). 0, or -1 with a message. */
int wsolve_run_prepare(wsolve_run_t *r, const msg_t *m, const char *dir, int threads, char *err, size_t errlen);

/* Does the work and fills r->answer, or sets r->failed and r->err; sets
 * r->finished last. */
void wsolve_run(wsolve_run_t *r);
