/* status.h: the coordinator's live status (--status, docs/status.md) as a snapshot and its
 * two renderings: JSON for GET /status, the Prometheus text exposition format for GET
 * /metrics. The event loop fills the snapshot from the job's row (kind.h `progress`) and
 * its peers (server_status.c), renders it and hands the texts to the HTTP server
 * (serve/status/status_http.h), which runs on its own thread. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kind.h"
#include "server.h"
#include "status_history.h"

/* One connected worker session. */
typedef struct {
    char name[MSG_NAME_MAX];
    uint32_t serial;          /* the session's number: two sessions may share a name */
    char address[WIRE_ADDRESS_MAX]; /* its IP address, "" when not over tcp */
    char fingerprint[17];     /* its CURVE key's fingerprint, "" without CURVE (never the key) */
    const char *state;        /* "joining", "working", "idle", "silent" (status_render.c) */
    uint32_t threads, leased;
    uint64_t tasks_done;      /* answers accepted from it */
    count_t amount;           /* nodes (positions) of its answers that passed the checks */
    double cpu_s, wall_s;     /* CPU time it reported (USAGE), compute time its accepted answers report */
    bool cpu_known;           /* false: it does not report CPU time (before OCTP/4) */
    uint64_t refusals, disagreements;
    int64_t connected_at;     /* Unix seconds of its HELLO */
    double connected_s;       /* seconds since its HELLO */
    double last_seen_s;       /* seconds since its last message (a heartbeat or any other) */
} status_worker_t;

typedef enum { STATUS_RUNNING, STATUS_FINISHED, STATUS_FAILED } status_state_t;

/* What the loop publishes. */
typedef struct status_snap_s {
    const char *kind;         /* the row's name: "perft" */
    const char *variant;      /* "octad" */
    job_progress_t progress;
    status_state_t state;
    int64_t started_at;       /* Unix seconds (wall clock) the run began */
    double elapsed_s;         /* since then (monotonic) */
    double cpu_s;             /* the coordinator's own CPU time */
    uint64_t rss_bytes, vm_bytes; /* the coordinator's resident and virtual memory (0: unknown) */
    history_t history;        /* the amount over time: the rate now and the chart */
    server_summary_t sum;     /* counters so far (requeued, results, ...) */
    size_t worker_nb;         /* workers[0..worker_nb) */
    size_t worker_cap;        /* workers has room for that many: the loop reallocates the whole
                               * snapshot to grow it, so one free() ends it */
    status_worker_t workers[];
} status_snap_t;

/* Malloc'd NUL-terminated texts of a snapshot; NULL when out of memory. */
char *status_render_json(const status_snap_t *snap);
char *status_render_metrics(const status_snap_t *snap);
