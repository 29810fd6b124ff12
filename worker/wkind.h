/* wkind.h: a kind of task the worker runs on its compute pool (perft, analyse, solve): one row
 * each, defined in the kind's own file; the pool (compute.c) and the I/O thread (worker.c) call
 * through the row and name no kind. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "msg.h"
#include "worker.h"

/* One task to run, decoded by its kind's prepare on the I/O thread. */
typedef struct wkind_s wkind_t;
typedef struct {
    const wkind_t *kind;
    uint64_t task_id;
    uint64_t job_id;
    uint32_t gen;       /* session generation the task belongs to */
    void *arg;          /* the kind's decoded task (malloc'd by prepare, one block; the pool frees it) */
} compute_job_t;

/* One finished task. */
typedef struct {
    const wkind_t *kind;
    uint64_t task_id;
    uint64_t job_id;
    uint32_t gen;
    uint64_t elapsed_ms;
    void *result;       /* the kind's result (malloc'd by run, or NULL: out of memory); the taker frees it */
} compute_done_t;

/* What a task of the pool may use: the pool's table budget (prepared once by
 * shared_new), this thread's own state (made by run as it needs, freed by
 * thread_free when the thread ends), and the pool's thread count (an exclusive
 * task has them all: it may run that many threads of its own). */
typedef struct {
    void *shared;       /* the kind's pool-wide state (shared_new), or NULL */
    size_t hash_each;   /* bytes of a table each thread may make for itself */
    void **thread;      /* this thread's state of this kind (NULL at first) */
    int threads;        /* the pool's threads */
} wkind_env_t;

/* What a kind's state on the I/O thread (open) may use: the worker's options, and the
 * session to send on and log to (both on the I/O thread only). */
typedef struct {
    const worker_opts_t *opts;
    void (*send)(void *ctx, const msg_t *m);
    void (*log)(void *ctx, bool always, const char *text);
    void *ctx;
} wkind_io_t;

/* prepare, fetch and message: the task is not ready yet (a phase before it runs). */
enum { WKIND_HOLD = -1 };
/* Message types a row lists (unused slots are MSG_NONE). */
enum { WKIND_MSG_MAX = 2 };

struct wkind_s {
    const char *name;        /* "perft", "analyse", "solve": for logs */
    msg_type_t tasks[WKIND_MSG_MAX];  /* the messages that carry a task of this kind */
    msg_type_t others[WKIND_MSG_MAX]; /* other messages of the session it handles (message), if any */
    uint32_t version;        /* the lowest session version that has it */
    /* An exclusive task takes the whole pool: it starts once the running tasks have
     * finished, nothing else runs while it is queued or running, and no other task is
     * taken meanwhile (compute.h). */
    bool exclusive;
    /* The kind's state on the I/O thread, made at start-up (for a session version that has
     * the kind), or NULL; -1 with a message in err. And its release at the end, NULLing it;
     * running: a task still runs on the pool as the process ends (leave the files it may be
     * writing). May be NULL. */
    int (*open)(const wkind_io_t *io, void **state, char *err, size_t errlen);
    void (*close)(void **state, bool running);
    /* Checks the task message m and fills job's task_id and job_id (first, also when it
     * refuses) and job->arg (gen is the caller's). Returns 0, or the msg_code_t to REFUSE it
     * with and the reason in reason. It sends nothing. delay_ms: testing only
     * (--test-delay-ms), for the kinds that take it. */
    int (*prepare)(void *state, const msg_t *m, unsigned delay_ms, compute_job_t *job, char *reason, size_t len);
    /* May be NULL (the task runs at once). The phase before a prepared task the worker has
     * taken runs (solve: fetching its tables): 0 (run it now), WKIND_HOLD (the worker holds it
     * and passes the kind's other messages to message until it is ready), or the msg_code_t
     * to REFUSE it with. Exclusive rows only: the worker holds one task at a time. */
    int (*fetch)(void *state, compute_job_t *job, char *reason, size_t len);
    /* One of `others` (m). held: the task of this kind the worker holds, or NULL. Returns
     * WKIND_HOLD (held, if any, stays held), 0 (held is ready: run it), or the msg_code_t to
     * REFUSE held with. May be NULL if `others` is empty. */
    int (*message)(void *state, const msg_t *m, compute_job_t *held, char *reason, size_t len);
    /* The session ended (its held task is dropped by the worker): stop what it started. May be NULL. */
    void (*reset)(void *state);
    /* Pool-wide state from the pool's table budget of hash_bytes (NULL if the kind keeps none);
     * -1 with a message in err if it cannot be had. And its release. May be NULL. */
    int (*shared_new)(size_t hash_bytes, void **shared, char *err, size_t errlen);
    void (*shared_free)(void **shared);
    /* On a compute thread: runs job->arg and returns its malloc'd result (NULL: out of memory). */
    void *(*run)(const compute_job_t *job, const wkind_env_t *env);
    /* Frees this thread's state of the kind (*state may be NULL); NULLs it. May be NULL. */
    void (*thread_free)(void **state);
    /* On the I/O thread: encodes a finished task's answer into m, whose bulk fields may point
     * into d->result (the caller sends m before it frees d->result). perturb (testing only,
     * --inject-fault) makes it wrong on purpose, for the kinds whose answers can be. Returns 0,
     * or the msg_code_t to REFUSE the task with and the reason. */
    int (*answer)(void *state, const compute_done_t *d, bool perturb, msg_t *m, char *reason, size_t len);
};

/* The pool kinds, one row each (wkinds.c): what the worker runs on its compute pool. */
extern const wkind_t *const WKINDS[];
enum { WKIND_NB = 3 };

/* The row that takes message `type` (as a task when *task, else as one of its others), or NULL. */
const wkind_t *wkind_find(msg_type_t type, bool *task);

/* The row's index in WKINDS. */
int wkind_index(const wkind_t *kind);
