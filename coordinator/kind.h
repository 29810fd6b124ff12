/* kind.h: a job kind (perft, analyse, solve) as one row of operations: main.c and the
 * server call through the row and never ask which kind runs (CONTRIBUTING.md, "Adding a
 * job kind"; docs/cluster-design.md).
 *
 * A row is defined in its kind's own file (kind_perft.c, kind_analyse.c, kind_solve.c)
 * and listed once in kind.c. The job is the kind's own state, opaque to everyone else:
 * the row's `open` makes it, every other operation gets it back, `close` frees it.
 * Every operation is required (none may be NULL). The server operations run on the
 * server's thread, between messages; they talk to workers and log only through the
 * server's services (server_priv.h: server_send, server_log, server_fail, server_forget,
 * server_count_dispatch, ...), never through another kind. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "credit.h"
#include "msg.h"
#include "opts.h"
#include "peers.h"
#include "server.h"
#include "spawn.h"
#include "game.h"
#include "types.h"

/* How far a job is, for the status server (status.h): what the job is, its units of work
 * (tasks, pairs) and the amount they produce (nodes, positions). Filled by the row's
 * `progress` on the server's thread. */
typedef struct {
    char what[160];          /* "perft 7", "analyse depth 12", "solve up to 4 pieces" */
    char position[GAME_TEXT_MAX]; /* the root position, or "" (solve) */
    int depth;               /* perft and analyse depth; solve: the pieces; 0 if none */
    const char *unit;        /* "tasks", "pairs": the units counted below */
    uint64_t done, total;    /* units done (the journal's included) and in the job */
    uint64_t loaded;         /* units found done at the start (journal, tables on disk) */
    uint64_t queued, running; /* units waiting, units leased */
    const char *amount_noun; /* "nodes", "positions": a Prometheus name part ([a-z_]) */
    count_t amount;          /* produced by the units done this run */
    bool resumed;            /* an earlier run of the job left its journal (or tables): this run resumes it */
    int64_t job_started_at;  /* Unix seconds the job first started (its journal's start record), 0:
                              * unknown (resumed from a journal older than start records) or no journal */
} job_progress_t;

struct json_t; /* jansson's */

/* What --report publishes of a finished job besides what every job has (publish.h): the
 * row's `publish` adds members to the two objects, made by the caller, and names the
 * contributors. */
typedef struct {
    struct json_t *job;      /* what the job is: "variant", "position", "depth", its parameters */
    struct json_t *result;   /* what it found: counts, values, the check against a reference */
    credit_t *contributors;  /* who did the units (the journal's too), borrowed; NULL: none known */
    const char *amount_noun; /* what a contributor's amount counts: "nodes", "positions" */
} job_publish_t;

struct job_ops_s {
    const char *name;      /* "perft": in messages ("a solve job needs OCTP/2") */
    uint32_t min_version;  /* the OCTP version of its task messages: older workers are refused at HELLO */

    /* Set-up and result, called by main.c. */
    /* Whether the command line asks for this kind (the last row takes every command line). */
    bool (*wanted)(const opts_t *o);
    /* Makes the job from the options: its tasks, its journal (or table directory) opened and
     * loaded, a line on stderr saying what was loaded. 0 with *job set, or an exit status
     * (EXIT_USAGE: bad input; EXIT_FAIL) after a message on stderr. */
    int (*open)(const opts_t *o, void **job);
    /* Frees *job and NULLs it; safe on NULL. */
    void (*close)(void **job);
    /* The local workers it wants for -j N (the endpoint and quiet are filled by the caller). */
    void (*spawn_opts)(const void *job, const opts_t *o, spawn_opts_t *so);
    /* After a successful run: prints the result on stdout and a summary on stderr; returns
     * the exit status. */
    int (*report)(void *job, const opts_t *o, const server_summary_t *sum);
    /* After `report` said the job is done (exit 0 or 3), for --report: fills out (above).
     * 0, or -1 when out of memory or the result cannot be read (a message on stderr). */
    int (*publish)(void *job, const opts_t *o, const server_summary_t *sum, job_publish_t *out);
    /* For --dump-tasks: a CSV header line and one line per unit of work (tasks_dump). 0, or -1
     * on a write error or out of memory. */
    int (*dump_tasks)(void *job, FILE *out);

    /* What the server asks about the job. */
    uint64_t (*job_id)(const void *job);        /* WELCOME's and every task's job id, never 0 */
    variant_t (*variant)(const void *job);      /* a worker must compute it (HELLO variants) */
    bool (*finished)(const void *job);          /* every task done: the run ends */
    bool (*has_work)(const void *job);          /* a task may wait for a worker: offer it to the peers */
    void (*status)(const void *job, char *buf, size_t len); /* "12 of 84 tasks done (journaled)" */
    void (*progress)(const void *job, job_progress_t *out); /* the status server's figures (zeroed by the caller) */

    /* The task life cycle, called by the server. */
    /* Sends peer p as many tasks as its credit allows (server_count_dispatch for each). */
    void (*dispatch)(server_t *s, void *job, peer_t *p);
    /* Session p ends: its leases go back to the queue; returns how many. */
    size_t (*forget)(server_t *s, void *job, peer_t *p);
    /* p was heard from: its leases run until now + --lease. */
    void (*renew)(server_t *s, void *job, const peer_t *p, int64_t now);
    /* Leases past their deadline go back to the queue (every 50 ms). */
    void (*expire)(server_t *s, void *job, int64_t now);
    /* Stall detection and the progress line (every 20 ms). */
    void (*timers)(server_t *s, void *job, int64_t now);
    /* A message of session p that is the kind's (its answers, REFUSE, HANDBACK, table
     * transfers): true when handled; false lets the server handle it (CREDIT, HEARTBEAT,
     * BYE, ERROR; anything else is dropped as unexpected). */
    bool (*message)(server_t *s, void *job, peer_t *p, const msg_t *m);
};

extern const job_ops_t kind_perft, kind_analyse, kind_solve;

/* The row the command line asks for (the first row whose `wanted` says so). */
const job_ops_t *kind_pick(const opts_t *o);
