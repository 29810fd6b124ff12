/* server.h: the coordinator's event loop: one ROUTER socket, workers, leases, progress. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opts.h"
#include "spawn.h"

typedef struct server_s server_t;
typedef struct job_ops_s job_ops_t; /* kind.h */
typedef struct status_http_s status_http_t; /* serve/status/status_http.h */

/* Counters of one run, for the final report. */
typedef struct {
    size_t loaded;              /* tasks taken from the journal */
    uint64_t dispatched;        /* TASK messages sent */
    uint64_t results;           /* RESULTs accepted (counted) */
    uint64_t duplicates;        /* RESULTs for tasks already done (dropped) */
    uint64_t copies;            /* copies of running tasks given to idle workers (lease.h, rule 3) */
    uint64_t requeued;          /* leases ended by expiry, death, handback or refusal */
    uint64_t dropped;           /* malformed, unexpected or foreign messages */
    uint64_t disagreements;     /* verify: results that differed */
    uint64_t impossible;        /* results refused as impossible counts (job_task_plausible) */
    uint64_t table_bytes_sent;  /* table file bytes sent to workers (CHUNKs answering FETCH) */
    uint64_t table_bytes_received; /* table file bytes taken from workers (CHUNKs accepted) */
    size_t workers;             /* distinct worker sessions seen */
    int local_processes;        /* worker processes this coordinator started */
    int local_threads;          /* compute threads of each */
    double seconds;             /* wall time of the run */
    int64_t started_at, finished_at; /* Unix seconds (wall clock) the run began and ended (0: not yet) */
    double dispatch_seconds;    /* first TASK sent to last result */
    double cpu_seconds;         /* the coordinator's own CPU time (user + system) */
    double worker_seconds;      /* sum of the workers' reported compute times of accepted results */
} server_summary_t;

/* Binds opts->bind (or, when NULL, a unix socket in a private 0700 directory:
 * server_link.h) with CURVE when asked, frames capped at 64 KiB. It runs the
 * job (made by kind->open) through its kind's row; the job stays the caller's.
 * Returns NULL with a message in err; *usage is set when the cause is bad input. */
server_t *server_new(const opts_t *opts, const job_ops_t *kind, void *job, char *err, size_t errlen, bool *usage);

/* The endpoint local workers connect to (the bound one, wildcard hosts made loopback). */
const char *server_endpoint(const server_t *self);

/* server_run's result when --verify ended with tasks whose results disagree. */
enum { SERVER_DISPUTED = 3 };

/* Serves until every task is done (0), or the job fails or a byte arrives on
 * stop_fd (1, message printed), or verify results could not be settled
 * before --stall-timeout (SERVER_DISPUTED, the tasks listed). spawn (may be NULL) is watched: if every local
 * worker has exited and no remote worker can come, the job fails. */
int server_run(server_t *self, spawn_t *spawn, int stop_fd);

/* Publishes the run's status to st (the caller's; NULL: none) every 250 ms and once at
 * the end of server_run (server_status.c). 0, or -1 when out of memory. */
int server_set_status(server_t *self, status_http_t *st);

/* Counters so far. */
void server_summary(const server_t *self, server_summary_t *out);

/* Says BYE to every worker, closes the socket; frees *self_p and NULLs it. */
void server_destroy(server_t **self_p);
