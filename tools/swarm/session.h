/* session.h: one simulated worker session of the swarm (docs/swarm.md): its own ZeroMQ DEALER
 * (its own identity) speaking the real worker protocol (proto/PROTOCOL.md: HELLO, WELCOME,
 * CREDIT, TASK, RESULT, HEARTBEAT, BYE) and answering perft TASKs for real, computed on the
 * calling thread by the worker's own perft row (worker/wperft.c), one task in flight. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "msg.h"

/* States: HELLO sent; WELCOMEd; ended (BYE, refused, or a fatal error); vanished (silent on purpose). */
typedef enum { SESSION_HELLO, SESSION_ACTIVE, SESSION_ENDED, SESSION_VANISHED } session_state_t;

typedef struct {
    void *sock;
    char name[MSG_NAME_MAX];
    session_state_t state;
    uint32_t version;      /* the protocol version of HELLO and of the session */
    uint32_t hb_ms;        /* the coordinator's heartbeat interval (WELCOME) */
    int64_t last_send;     /* ms, CLOCK_MONOTONIC */
    bool credit_out;       /* one CREDIT given and not yet used by a TASK */
    bool welcomed;         /* a WELCOME came at least once */
    bool lost;             /* ended without a BYE: an ERROR, no WELCOME, or the coordinator went silent */
    uint32_t liveness;     /* the coordinator's liveness (WELCOME) */
    int64_t opened, last_recv; /* ms, CLOCK_MONOTONIC */
    uint64_t answered, refused, dropped;
    void *thread_state;    /* the perft row's per-thread state (none: no table) */
} session_t;

/* Opens s's DEALER in ctx, connects it to endpoint and says HELLO as `name` (cut to
 * MSG_NAME_MAX - 1 bytes). Returns 0, or -1 with the problem in err. */
int session_open(session_t *s, void *ctx, const char *endpoint, const char *name, char *err, size_t errlen);

/* Reads and answers every message waiting on s's socket (a TASK is computed here, before
 * this returns). Messages with bulk fields (none of perft's) are dropped. */
void session_read(session_t *s);

/* Sends a HEARTBEAT when s has sent nothing for its heartbeat interval. Ends s as lost
 * when no WELCOME came within SESSION_HELLO_WAIT_MS, or nothing came from the coordinator
 * for SESSION_SILENT_MIN_MS or twice its liveness, whichever is longer (the thread may
 * have been computing other sessions' tasks meanwhile). Returns the ms until it next
 * needs to be called (INT64_MAX when never). */
enum { SESSION_HELLO_WAIT_MS = 30000, SESSION_SILENT_MIN_MS = 10000 };
int64_t session_tick(session_t *s, int64_t now);

/* Makes s go silent at once, as a machine that vanished: it reads, answers and sends
 * nothing more; its socket stays open (no disconnect reaches the coordinator), so only
 * missed heartbeats and leases tell the coordinator. */
void session_vanish(session_t *s);

/* Closes s's socket (linger 0). */
void session_close(session_t *s);

/* ms on CLOCK_MONOTONIC. */
int64_t session_now(void);
