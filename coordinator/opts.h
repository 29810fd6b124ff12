/* opts.h: the coordinator's command line (see coordinator --help). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exit_codes.h"
#include "log_line.h"
#include "serve_query.h"
#include "types.h"

enum { OPTS_ALLOW_MAX = 16 };

typedef struct {
    int depth;                     /* --perft N */
    variant_t variant;
    const char *text;              /* --ofen/--fen, or NULL: the start (or --start) */
    long start;                    /* --start N (Chess960), -1 if not given */
    const char *bind;              /* NULL: embedded (loopback, ephemeral port) */
    int local_workers;             /* -1: one per core */
    int split_depth;               /* -1: auto */
    bool divide, stats, verify, json, quiet, insecure;
    bool no_copies;                /* --no-copies: idle workers never get copies of running tasks (lease.h, rule 3) */
    const char *journal;
    bool have_expect;
    count_t expect;
    size_t hash_mb;                /* table of each local worker process */
    uint32_t lease_ms, heartbeat_ms, liveness;
    uint32_t stall_ms;             /* --stall-timeout: end a job no connected worker can advance (0: never) */
    const char *curve_secret;
    const char *allow[OPTS_ALLOW_MAX];
    int allow_nb;
    uint64_t bench_dispatch;       /* > 0: N empty tasks instead of a perft */
    int worker_prefetch;           /* --worker-prefetch for local workers */
    const char *endpoint_file;     /* write the bound endpoint there (for scripts and tests) */
    bool solve;                    /* --solve: octad tablebases instead of a perft (OCTP/2) */
    int max_pieces;                /* --max-pieces N (2..8); 0 with a position or --starts */
    bool starts;                   /* --solve --starts: the 144 deployed starts' tables and values */
    uint64_t memory;               /* --solve --memory, bytes: the local workers' budget together (0: 3/4 of RAM) */
    const char *tables;            /* --tables DIR: the tables, and the solve job's journal */
    int analyse;                   /* --analyse D: search every root move to depth D (OCTP/3); 0: no */
    int multipv;                   /* --multipv: 0 not given, 1 the best, -1 "all" */
    bool multipv_all;              /* --multipv all: print every root move, not only the best */
    const char *moves;             /* --moves "M1 M2 ...": the game from the position to the analysed one */
    bool have_status;              /* --status [ADDR:]PORT: the live status over HTTP (status.h) */
    serve_listen_t status;
    int status_hold_s;             /* --status-hold S: serve the final status S seconds after the end */
    const char *report;            /* --report FILE: FILE.json and FILE.md at the end (publish.h) */
    const char *dump_tasks;        /* --dump-tasks FILE: every task as a CSV row at the end (tasks_dump.c) */
    log_format_t log_format;       /* --log-format text|json (log_line.h) */
} opts_t;

/* Parses argv (after the program name) into *o (core/base/opt.h: one row per option),
 * then checks the options against each other. Returns OPT_HELP (-1) after printing the
 * help, 0 ok, or EXIT_USAGE after printing a one-line message. */
int opts_parse(int argc, char **argv, opts_t *o);

/* Prints the help text on stdout. */
void opts_help(void);
