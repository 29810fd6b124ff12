/* wsolve.h: the worker's OCTP/2 tasks (proto/PROTOCOL.md section 11): a
 * SOLVE or VERIFY at a time, the tables it needs fetched into the cache
 * (or read from a shared directory), the pair solved or verified on a
 * thread of its own, and FETCHes of the files it made answered. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "msg.h"

typedef struct wsolve_s wsolve_t;

/* Sends one message to the coordinator (the worker's session version). */
typedef void (*wsolve_send_fn)(void *ctx, const msg_t *m);

/* Logs one line (always: also under --quiet). */
typedef void (*wsolve_log_fn)(void *ctx, bool always, const char *text);

typedef struct {
    const char *tables;    /* --tables DIR (cache, or shared with the coordinator), or NULL */
    int threads;           /* threads of a solve or a verification */
    int wake_fd;           /* written (one byte) when a task's thread ends */
    uint64_t memory;       /* bytes a pair may take at its peak (solve_pair_memory); larger ones are refused */
    unsigned inject_fault; /* testing only: every Nth CHUNK served is corrupt (0: never) */
    unsigned spoil;        /* testing only: every Nth pair made has one record wrong (0: never) */
    unsigned damage;       /* testing only: every Nth pair made has a file damaged after its checksums */
    unsigned delay_ms;     /* testing only: a task's thread waits this long first */
    wsolve_send_fn send;
    wsolve_log_fn log;
    void *ctx;
} wsolve_opts_t;

/* Makes the table directory (or a private temporary one when opts->tables
 * is NULL, removed by wsolve_destroy). NULL with a message in err. */
wsolve_t *wsolve_new(const wsolve_opts_t *opts, char *err, size_t errlen);

/* Whether a task is held: fetching, running, or a thread still running for
 * a task whose session ended. A busy worker asks for no work. */
bool wsolve_busy(const wsolve_t *self);

/* The id of the task held for this session (0: none), for HANDBACK. */
uint64_t wsolve_task_id(const wsolve_t *self);

/* Handles a SOLVE, VERIFY, FETCH or CHUNK of the current session. */
void wsolve_on_message(wsolve_t *self, const msg_t *m);

/* Sends the answer of a task whose thread has ended (SOLVED, VERIFIED, or REFUSE). */
void wsolve_poll(wsolve_t *self);

/* The session ended: transfers stop (their good prefixes kept), the task is
 * forgotten (a running thread's result is dropped when it ends). */
void wsolve_reset(wsolve_t *self);

/* Frees *self_p (waits for a running thread) and NULLs it; safe on NULL. */
void wsolve_destroy(wsolve_t **self_p);
