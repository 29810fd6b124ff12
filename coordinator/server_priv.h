/* server_priv.h: the coordinator server's state, shared by server.c (loop) and server_msg.c (messages). */
#pragma once

#include "ajob.h"
#include "journal.h"
#include "ssolve.h"
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

typedef struct server_rx_s server_rx_t;
typedef struct ssolve_t_ ssolve_fwd_t; /* a received message awaiting its batch (server_msg.c) */

struct server_s {
    const opts_t *opts;
    const job_t *job;
    sched_t *sched;
    journal_t *journal;
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
    int64_t stall_since, stall_said_ms; /* server_stall.c */
    char refuse_reason[MSG_TEXT_MAX];   /* the last REFUSE's reason, cleaned */
    unsigned refusals_logged;
    count_t nodes_done;          /* weighted count of finished tasks so far */
    server_summary_t sum;
    ssolve_t *solve;             /* a --solve job (ssolve_server.c), or NULL: perft */
    ajob_t *analyse;             /* an --analyse job (aserver.c), or NULL: perft */
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

/* A task was sent to p: its credit is used, its principal pinned. */
void server_count_dispatch(server_t *self, peer_t *p, int64_t now);

/* Sends as many tasks to the peer as its credit allows. */
void server_dispatch(server_t *self, peer_t *peer);

/* Marks the job failed with a message. */
void server_fail(server_t *self, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Verify: one error line naming task i's workers and their counts. */
void server_report_votes(server_t *self, size_t i, const char *what);

/* Reads and handles every waiting message (up to a batch). */
void server_read(server_t *self);

/* The --solve job's side of the server (ssolve_server.c): leases one pair
 * per idle OCTP/2 session; a forgotten session's pairs go back (returns
 * how many); OCTP/2 messages and a solve job's REFUSE, HANDBACK and ERROR
 * (true when handled); leases renewed by every message; expiry and progress. */
void server_solve_dispatch(server_t *self, peer_t *p);
size_t server_solve_forget(server_t *self, peer_t *p);
bool server_solve_message(server_t *self, peer_t *p, const msg_t *m);
void server_solve_renew(server_t *self, const peer_t *p, int64_t now);
void server_solve_timers(server_t *self, int64_t now);

/* The --analyse job's side of the server (aserver.c): task i's ANALYSE;
 * ANALYSED handled and a RESULT refused (true when the message was the
 * job's); an accepted task committed (journal, totals: false on a journal
 * error); texts of a task and of one of its results (by the number
 * ajob_intern gave it) for the verify reports. */
void server_analyse_task(const server_t *self, size_t i, msg_t *m);
bool server_analyse_message(server_t *self, peer_t *p, const msg_t *m);
bool server_analyse_commit(server_t *self, size_t i);
void server_analyse_task_text(const server_t *self, size_t i, char *buf, size_t len);
void server_analyse_result_text(const server_t *self, size_t i, count_t id, char *buf, size_t len);

/* What a result did to the scheduler (sched_result's outcome): committed,
 * reported or counted; `nodes` is what the worker sent (for a late conflict). */
void server_outcome(server_t *self, size_t i, sched_outcome_t o, count_t nodes, const peer_t *p);

/* Handles the ROUTER's connection events: a session whose connection closed,
 * or whose file descriptor a new connection now holds, is forgotten. Called
 * after a batch is received and before it is handled, so a message from a
 * new connection never lands in the session of a vanished one. */
void server_watch_links(server_t *self);
