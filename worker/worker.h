/* worker.h: one worker process's session with a coordinator (OCTP, proto/PROTOCOL.md). */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "msg.h"

typedef struct {
    const char *endpoint;          /* coordinator ROUTER endpoint */
    int threads;                   /* compute threads, >= 1 */
    int prefetch;                  /* tasks asked for beyond the threads, >= 0 */
    size_t hash_mb;                /* table size: one shared by the threads where exact, else split */
    char name[MSG_NAME_MAX];       /* for the coordinator's logs */
    bool quiet;                    /* no informational logs on stderr */
    bool once;                     /* exit 0 when the coordinator says BYE */
    int once_wait_s;               /* with once: seconds without a session, after one, before giving up (exit 4) */
    const char *server_key_file;   /* CURVE: coordinator public key file, or NULL */
    const char *secret_file;       /* CURVE: this worker's secret key file, or NULL */
    unsigned inject_fault;         /* testing only: every Nth result is off by one (0: never) */
    const char *tables;            /* solve tasks: table cache, or the coordinator's shared directory (NULL: a temporary one) */
    int protocol;                  /* highest OCTP version spoken: 4, 3 (no USAGE), 2 (no analysis) or 1 (perft only) */
    unsigned delay_ms;             /* testing only: each solve, verify or analyse task waits this long first */
    unsigned spoil;                /* testing only: every Nth pair made has a wrong record (sound checksums) */
    unsigned damage;               /* testing only: every Nth pair made has a byte changed after its checksums */
    uint64_t memory;               /* --memory, bytes: what a pair solved here may take at its peak (0: 3/4 of RAM) */
    struct status_http_s *http;    /* --http: the status server (main.c's), or NULL (wstatus.h) */
    const char *http_text;         /* --http: the address it listens on, as the log line names it */
} worker_opts_t;

/* Runs the worker until a byte arrives on stop_fd (SIGTERM/SIGINT: hands back
 * unfinished tasks, says BYE), the coordinator says BYE (with opts->once), or
 * a fatal error, or (with opts->once) a session lost and no new one within
 * opts->once_wait_s seconds. Returns the process exit status (0 ok, 1 failure, 4
 * EXIT_NO_COORDINATOR: that last case). Closing
 * the session afterwards is bounded: if libzmq cannot let go within 3 s (its
 * I/O thread stuck resolving a coordinator name that is gone), the process
 * exits from another thread with that same status, and worker_run never returns. */
int worker_run(const worker_opts_t *opts, int stop_fd);
