/* wkind.h: a kind of task the worker runs on its compute pool (perft, analyse): one row each,
 * defined in the kind's own file; the pool (compute.c) and the I/O thread (worker.c) call
 * through the row and name no kind. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "msg.h"

/* One task to run, decoded by its kind's prepare on the I/O thread. */
typedef struct wkind_s wkind_t;
typedef struct {
    const wkind_t *kind;
    uint64_t task_id;
    uint64_t job_id;
    uint32_t gen;       /* session generation the task belongs to */
    void *arg;          /* the kind's decoded task (malloc'd by prepare; the pool frees it) */
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
 * shared_new) and this thread's own state (made by run as it needs, freed by
 * thread_free when the thread ends). */
typedef struct {
    void *shared;       /* the kind's pool-wide state (shared_new), or NULL */
    size_t hash_each;   /* bytes of a table each thread may make for itself */
    void **thread;      /* this thread's state of this kind (NULL at first) */
} wkind_env_t;

struct wkind_s {
    const char *name;        /* "perft", "analyse": for logs */
    msg_type_t type;         /* the message that carries a task of this kind */
    uint32_t version;        /* the lowest session version that has it */
    /* Checks the task message m and fills job's task_id and job_id (first, also when it
     * refuses) and job->arg (gen is the caller's). Returns 0, or the msg_code_t to REFUSE it with and the reason in reason. delay_ms:
     * testing only (--test-delay-ms), for the kinds that take it. */
    int (*prepare)(const msg_t *m, unsigned delay_ms, compute_job_t *job, char *reason, size_t len);
    /* Pool-wide state from the pool's table budget of hash_bytes (NULL if the kind keeps none);
     * -1 with a message in err if it cannot be had. And its release. May be NULL. */
    int (*shared_new)(size_t hash_bytes, void **shared, char *err, size_t errlen);
    void (*shared_free)(void **shared);
    /* On a compute thread: runs job->arg and returns its malloc'd result (NULL: out of memory). */
    void *(*run)(const compute_job_t *job, const wkind_env_t *env);
    /* Frees this thread's state of the kind (*state may be NULL); NULLs it. May be NULL. */
    void (*thread_free)(void **state);
    /* Encodes a finished task's answer into m. perturb (testing only, --inject-fault) makes it
     * wrong on purpose. Returns 0, or the msg_code_t to REFUSE the task with and the reason. */
    int (*answer)(const compute_done_t *d, bool perturb, msg_t *m, char *reason, size_t len);
};

/* The pool kinds, one row each (wkinds.c): what the worker runs on its compute pool. */
extern const wkind_t *const WKINDS[];
enum { WKIND_NB = 2 };

/* The row whose task message is `type`, or NULL. */
const wkind_t *wkind_find(msg_type_t type);
