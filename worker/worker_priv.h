/* worker_priv.h: the worker's I/O-thread state (worker.h), shared by its files only, each using
 * only those before it: worker_io.c (clock, log lines, sending), worker_tasks.c (credit and
 * task intake), worker.c (session, heartbeats, reconnects, results). Nothing else includes it. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "compute.h"
#include "msg.h"
#include "wkind.h"
#include "worker.h"
#include "wstatus.h"
#if OCTAD_HAVE_CURVE
#include "curve.h"
#endif

/* Session states: no socket (waiting to reconnect), HELLO sent, WELCOMEd. */
typedef enum { S_WAITING, S_HELLO, S_ACTIVE } s_state_t;

typedef struct {
    const worker_opts_t *opts;
    void *ctx;
    void *sock;
    compute_t *compute;
    void *kind_state[WKIND_NB]; /* each row's state on this thread (wkind_t.open), or NULL */
    compute_job_t held;      /* a task in the phase before it runs (wkind_t.fetch), when holding */
    bool holding;
    uint32_t version;        /* the protocol version of HELLO and of the session */
    int wake_rd, wake_wr;
    s_state_t state;
    uint32_t gen;            /* bumped on every new session */
    uint32_t hb_ms, liveness;
    uint64_t job_id;
    int64_t last_recv, last_send, state_since, reconnect_at;
    int64_t lost_at;         /* when the last welcomed session was lost (--once gives up once_wait_s after) */
    int64_t last_flush;      /* when held results were last taken and sent */
    int64_t backoff_ms;
    size_t credit_out;       /* credit given this session and not yet used by a TASK */
    int capacity;            /* threads + prefetch */
    uint64_t bad_nb, unexpected_nb;
    uint64_t result_nb;
    uint64_t cpu_base_ms;    /* the process's CPU time at this session's WELCOME (USAGE, OCTP/4) */
    uint64_t sessions;       /* sessions welcomed */
    msg_bulk_store_t *rx_bulk; /* the bulk fields of the message being handled (s_read_socket) */
    wstatus_t *status;       /* --http, or NULL */
    bool done;               /* leave the loop */
    int exit_code;
#if OCTAD_HAVE_CURVE
    bool curve;
    bool curve_hinted;       /* the refused-key hint was logged */
    curve_keys_t keys;
    char server_pub[CURVE_Z85_MAX];
#endif
} s_worker_t;

/* worker_io.c. The monotonic clock in milliseconds. */
int64_t worker_now(void);

/* A line to stderr under the worker's name; unless always, not under --quiet. */
void worker_log(const s_worker_t *w, bool always, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Sends msg stamped with the session's version; nothing without a socket, a failure logged. */
void worker_send(s_worker_t *w, msg_t *msg);

/* worker_tasks.c. Asks for tasks until every slot (thread or prefetch) is busy or promised; nothing while
 * an exclusive task is held, queued or running (it takes every thread). */
void worker_top_up(s_worker_t *w);

/* Sends a REFUSE of the task with its code and reason, and logs it. */
void worker_refuse(s_worker_t *w, uint64_t task_id, uint64_t job_id, msg_code_t code, const char *reason);

/* A message of a pool kind: a task, or one of its others (unexpected before WELCOME or below
 * the kind's protocol version). */
void worker_on_kind_message(s_worker_t *w, const wkind_t *kind, bool task, const msg_t *m);
