/* server_priv.h: the coordinator server's state and its services to the job kinds (kind.h).
 *
 * Files, each calling only those above it by name (docs/cluster-design.md):
 *   server_io.c    the services: log, send, drop, fail, forget a session, count a dispatch
 *   server_link.c  the private default socket and the ROUTER's connection events
 *   server_msg.c   receiving and handling the session messages (HELLO, CREDIT, ...)
 *   server.c       the socket, the event loop and its timers
 *   server_status.c the status snapshot for --http (status.h): an observer of the loop
 * The job kinds (kind_*.c, tasks*.c, ssolve_server.c) use the services; the server
 * reaches them only through the row it was given (self->kind). */
#pragma once

#include "kind.h"
#include "peers.h"
#include "server.h"
#include "wire.h"
#if OCTAD_HAVE_CURVE
#include "curve.h"
#endif

/* Kinds of dropped input, each logged once. */
typedef enum {
    DROP_MALFORMED,
    DROP_VERSION,
    DROP_STRANGER,
    DROP_UNEXPECTED,
    DROP_OTHER_JOB,
    DROP_NOT_LEASED,
    DROP_BAD_RESULT,
    DROP_CREDIT,
    DROP_FULL,
    DROP_KIND_NB
} drop_kind_t;

typedef struct server_rx_s server_rx_t; /* a received message awaiting its batch (server_msg.c) */

struct server_s {
    const opts_t *opts;
    const job_ops_t *kind;       /* the job's row (kind.h) */
    void *job;                   /* the kind's job, the caller's */
    peers_t *peers;
    void *ctx, *router;
    void *monitor;               /* PAIR receiving the ROUTER's connect/disconnect events */
    server_rx_t *rx;             /* the receive batch (server_read) */
    char endpoint[256];
    char ipc_dir[128];           /* the private directory of the default ipc socket, or empty */
    char ipc_path[160];          /* its socket file */
    int64_t start_ms, first_dispatch_ms, last_result_ms, next_expire_ms, next_progress_ms, next_timers_ms;
    uint64_t drops[DROP_KIND_NB];
    bool failed;
    int end_code;                /* server_run's result once failed: 1, or SERVER_DISPUTED */
    bool verify_waiting_logged;
    int64_t stall_since, stall_said_ms; /* the kind's stall clock (its timers) */
    server_summary_t sum;
    status_http_t *status;       /* --http, or NULL (serve/status/status_http.h) */
    /* The loop's observer, or NULL: called on every timer turn (now: the monotonic clock) and
     * at the start and end of the run (final). server_set_status installs the status page's. */
    void (*observe)(server_t *self, int64_t now, bool final);
    struct status_snap_s *snap;  /* its snapshot, filled here and copied by status_publish */
    int64_t next_status_ms;
    int64_t start_wall;          /* Unix seconds the run began */
#if OCTAD_HAVE_CURVE
    curve_auth_t *zap;           /* the ZAP allow-list handler (proto/curve.h) */
    size_t refused_logged;       /* refused CURVE clients logged so far */
#endif
};

/* Milliseconds on the monotonic clock. */
int64_t server_now_ms(void);

/* Informational log line on stderr (nothing with --quiet). */
void server_log(const server_t *self, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Error line on stderr (always). */
void server_error(const server_t *self, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Counts a dropped message; logs the first of each kind with `why`. */
void server_drop(server_t *self, drop_kind_t kind, const char *why);

/* Sends msg to a peer identity; returns 0, or -1 (peer gone or queue full). */
int server_send(server_t *self, const wire_peer_t *to, const msg_t *msg);

/* Ends a worker session: its leases go back to the queue. */
void server_forget(server_t *self, peer_t *peer, const char *why);

/* Sends ERROR code + text (cut to 255 bytes) to a peer identity. */
void server_reply_error(server_t *self, const wire_peer_t *to, msg_code_t code, const char *text);

/* The same in the envelope of `version` when it is higher than ERROR's own: the answer to a
 * connection without a session, in the version it spoke, which a worker whose session has
 * that version takes (PROTOCOL.md 11.1: it drops a message of another version). */
void server_reply_error_as(server_t *self, const wire_peer_t *to, uint32_t version, msg_code_t code,
                           const char *text);

/* A task was sent to p: its credit is used, its principal pinned. */
void server_count_dispatch(server_t *self, peer_t *p, int64_t now);

/* Marks the job failed with a message. */
void server_fail(server_t *self, const char *fmt, ...) __attribute__((format(printf, 2, 3)));


/* Reads and handles every waiting message (up to a batch). */
void server_read(server_t *self);

/* Handles the ROUTER's connection events: a session whose connection closed,
 * or whose file descriptor a new connection now holds, is forgotten. Called
 * after a batch is received and before it is handled, so a message from a
 * new connection never lands in the session of a vanished one. */
void server_watch_links(server_t *self);
