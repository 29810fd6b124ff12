/* wsolve_run.h: a worker's SOLVE or VERIFY task as the pool runs it: one pair solved with
 * solve_pair, or its files checked by the independent verifier (core/verify/), and the answer
 * message it makes. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "msg.h"
#include "store.h"
#include "xfer.h"

/* A decoded SOLVE or VERIFY (the pool job's arg: one block). */
typedef struct {
    bool verify;                 /* VERIFY, else SOLVE */
    char name[MSG_TABLE_NAME_MAX]; /* the pair, by its primary table's name */
    int pair;                    /* sig pair index */
    int ntables;
    int tables[2];               /* the pair's table ids */
    char dir[XFER_PATH_MAX];     /* where the tables are read and written */
    bool shared;                 /* dir is the coordinator's own directory (nothing fetched) */
    bool corrupt;                /* testing only (--test-spoil): one record of the first file made is wrong */
    bool damage;                 /* testing only (--test-damage): its last byte is changed after the checksums */
    unsigned delay_ms;           /* testing only (--test-delay-ms): the run waits this long first */
    uint64_t task_id, job_id;
    msg_tableref_t fetch[MSG_NEEDS_MAX + MSG_PAIR_TABLES_MAX]; /* the tables to fetch before it runs */
    uint32_t nfetch, ifetch;     /* how many, and how many are here */
} wsolve_task_t;

/* A finished task (the pool job's result). */
typedef struct {
    bool failed;
    char err[MSG_TEXT_MAX];      /* why, when failed */
    bool in_shared;              /* the task's `shared` */
    char name[MSG_TABLE_NAME_MAX]; /* the task's pair */
    msg_t answer;                /* SOLVED or VERIFIED */
} wsolve_result_t;

/* Initialises the solver's and verifier's tables; once, before any thread. */
void wsolve_run_init(void);

/* Reads a SOLVE or VERIFY into *t (its pair must be a primary table's name, a VERIFY's tables
 * the pair's files); the ids first, also on error. 0, or -1 with a message. */
int wsolve_run_prepare(wsolve_task_t *t, const msg_t *m, const char *dir, char *err, size_t errlen);

/* Does the work with `threads` threads and fills *out. *store is the store over t->dir kept
 * across pairs (as solve_all keeps one): made here when NULL, destroyed after a failed solve. */
void wsolve_run(const wsolve_task_t *t, store_t **store, int threads, wsolve_result_t *out);
