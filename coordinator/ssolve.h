/* ssolve.h: `coordinator --solve`: the job's state (the pair graph, the table directory
 * and its journal DIR/solve.journal), and what the solve kind adds to the one task life
 * cycle (tasks.h; proto/PROTOCOL.md section 11). */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "opts.h"
#include "peers.h"
#include "sdag.h"
#include "ssolve_journal.h"
#include "server.h"
#include "tasks.h"
#include "xfer.h"

/* Made files of one pair being fetched from (or checked for) the worker that made them. */
typedef struct {
    msg_tableref_t refs[2];
    int n, cur;
    uint32_t serial;              /* the maker's session: its lease on the pair's task */
    xfer_t x;
    bool on;
} ssolve_pull_t;

/* The job; tasks_t first (tasks.h): make pair k is task k; under --verify, check pair k is
 * task n + k (n pairs), queued once the pair is made, for another worker than its maker. */
typedef struct ssolve_s {
    tasks_t t;                    /* t.nodes_done: legal positions solved this run */
    sdag_t g;
    const opts_t *opts;
    char dir[XFER_PATH_MAX];
    char dir_id[MSG_TABLE_NAME_MAX];
    ssolve_pull_t **pulls;        /* per graph pair, while its files are fetched */
    int *ready;                   /* scratch: pairs that became ready (g.n) */
    ssolve_journal_t *journal;    /* DIR/solve.journal: pairs made and verified */
    char (*makers)[SSOLVE_PRINCIPAL_MAX]; /* per pair: the principal that made its files, "" unknown */
    uint64_t solved, verified_nb, rejected_chunks, failed_checks;
    char (*texts)[GAME_TEXT_MAX]; /* --ofen POS or the deployed starts: answered at the end */
    int ntexts;
    uint64_t local_memory;        /* what the local workers' pairs may take together (3/4 of RAM) */
    msg_tableref_t needs[MSG_NEEDS_MAX]; /* the needs of the SOLVE or VERIFY being sent (bulk) */
    uint8_t chunk_data[MSG_CHUNK_MAX];   /* the bytes of the CHUNK being served (bulk) */
} ssolve_t;

/* Opens the job: makes DIR and its id, builds the graph, opens DIR/solve.journal, takes
 * pairs whose files are there as done (under --verify: only those the journal, or an
 * earlier coordinator's DIR/VERIFIED, records as verified with their files' size and CRC;
 * the others get a VERIFY, never from the maker its M record names).
 * NULL with a message in err; *usage when the cause is bad input. */
ssolve_t *ssolve_new(const opts_t *o, char *err, size_t errlen, bool *usage);

/* Frees *self_p; NULLs it. */
void ssolve_destroy(ssolve_t **self_p);

/* Pair i's files are in DIR and verified by `verifier` (a principal): its V record in the
 * journal (synced). 0, or -1 with a message. */
int ssolve_record_verified(ssolve_t *self, int i, const char *verifier, char *err, size_t errlen);

/* Moves pair i's files to NAME.otb.rejected (a failed verification). */
void ssolve_reject_files(ssolve_t *self, int i);

/* Checks that DIR holds pair i's files exactly as refs say (size, CRC-32C,
 * header of the right table) and that each file's records match their own
 * checksums (tbfile_check). 0, or -1 with a message. */
int ssolve_check_files(ssolve_t *self, int i, const msg_tableref_t *refs, int n, char *err, size_t errlen);

/* Writes DIR/SUMMARY and prints the final report (JSON with --json). 0, or -1. */
int ssolve_report(ssolve_t *self, const server_summary_t *sum);

/* --report (kind.h `publish`): the job (pieces, position or starts, the table directory), the
 * pairs and positions solved, and the answers as --json prints them. 0, or -1 after a message
 * or when out of memory. */
int ssolve_publish(ssolve_t *self, job_publish_t *out);

/* What the solve kind adds to the task life cycle (ssolve_server.c): its tasks scheduled
 * (the pairs made, ready or done as ssolve_new found them); 0, or -1 out of memory. */
int ssolve_schedule(ssolve_t *self);

/* The row's `message` (kind.h): SOLVED, VERIFIED, CHUNK, FETCH; the rest to tasks_message. */
bool ssolve_message(server_t *s, void *job, peer_t *p, const msg_t *m);
