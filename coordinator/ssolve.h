/* ssolve.h: `coordinator --solve`: the job's state (the pair graph, the
 * table directory that is its journal, DIR/VERIFIED under --verify), and the
 * server's handling of OCTP/2 (proto/PROTOCOL.md section 11). */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "opts.h"
#include "peers.h"
#include "sdag.h"
#include "xfer.h"

/* Made files of one pair being fetched from (or checked for) their worker. */
typedef struct {
    msg_tableref_t refs[2];
    int n, cur;
    xfer_t x;
    bool on;
} ssolve_pull_t;

typedef struct ssolve_s {
    sdag_t g;
    const opts_t *opts;
    char dir[XFER_PATH_MAX];
    char dir_id[MSG_TABLE_NAME_MAX];
    uint64_t job_id;
    ssolve_pull_t **pulls;        /* per graph pair, while PULLING */
    FILE *verified;               /* DIR/VERIFIED, appended (--verify) */
    uint64_t positions;           /* legal positions solved this run */
    uint64_t solved, verified_nb, rejected_chunks, failed_checks, requeued, refused;
    int64_t start_ms;
    char (*texts)[GAME_TEXT_MAX]; /* --ofen POS or the deployed starts: answered at the end */
    int ntexts;
    char last_refusal[300];       /* the last REFUSE's worker and reason, for the stall message */
    uint64_t local_memory;        /* what the local workers' pairs may take together (3/4 of RAM) */
} ssolve_t;

struct ssolve_s;

/* Opens the job: makes DIR and its id, builds the graph, takes pairs whose
 * files are there as done (under --verify: only those listed in
 * DIR/VERIFIED with their files' size and CRC; the others get a VERIFY).
 * NULL with a message in err; *usage when the cause is bad input. */
ssolve_t *ssolve_new(const opts_t *o, char *err, size_t errlen, bool *usage);

/* Frees *self_p; NULLs it. */
void ssolve_destroy(ssolve_t **self_p);

/* Whether every pair is done. */
bool ssolve_finished(const ssolve_t *self);

/* Pair i's files are in DIR: under --verify records it in DIR/VERIFIED
 * (fsynced). 0, or -1 with a message. */
int ssolve_record_verified(ssolve_t *self, int i, const char *verifier, char *err, size_t errlen);

/* Moves pair i's files to NAME.otb.rejected (a failed verification). */
void ssolve_reject_files(ssolve_t *self, int i);

/* Checks that DIR holds pair i's files exactly as refs say (size, CRC-32C,
 * header of the right table) and that each file's records match their own
 * checksums (tbfile_check). 0, or -1 with a message. */
int ssolve_check_files(ssolve_t *self, int i, const msg_tableref_t *refs, int n, char *err, size_t errlen);

/* Writes DIR/SUMMARY and prints the final report (JSON with --json). 0, or -1. */
int ssolve_report(ssolve_t *self, double seconds, double cpu_seconds, size_t workers);

/* The solve kind's server operations (ssolve_server.c), its row's entries (kind.h;
 * the row is kind_solve.c's): the job is the ssolve_t. */
typedef struct server_s server_t;
void ssolve_dispatch(server_t *s, void *job, peer_t *p);
size_t ssolve_forget(server_t *s, void *job, peer_t *p);
void ssolve_renew(server_t *s, void *job, const peer_t *p, int64_t now);
void ssolve_expire(server_t *s, void *job, int64_t now);
void ssolve_timers(server_t *s, void *job, int64_t now);
bool ssolve_message(server_t *s, void *job, peer_t *p, const msg_t *m);
