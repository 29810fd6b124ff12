/* tasks.h: the task life cycle of every job kind (perft, analyse, solve), over the one
 * scheduler (sched.c): dispatch, leases, renewal, expiry, late answers, refusals,
 * handbacks, answers and verify votes, the stall check and the progress line, written
 * once (docs/cluster-design.md, "Task life cycle").
 *
 * A kind's job begins with a tasks_t (its first member), so the row's server operations
 * are these functions (kind.h): they take the job as void * and read its tasks_t. The
 * kind fills tasks_t in its `open` and supplies tasks_ops_t for what is its own: the task
 * message, whether a task fits a worker, committing an accepted answer, texts for
 * reports. Its answer messages are its own (the kind's `message`); REFUSE and HANDBACK
 * are handled here. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "credit.h"
#include "journal.h"
#include "kind.h"
#include "sched.h"

typedef struct tasks_s tasks_t;

/* What a kind tells the life cycle. A task's answer is the sched_answer_t the kind derives
 * from the result it checked (sched.h): perft's count, analyse's ajob_answer number. */
typedef struct {
    const char *answer_noun;  /* "count", "analysis": "an impossible count for task 3" */
    const char *amount_noun;  /* "nodes", "positions": what t->nodes_done counts (the progress line) */
    /* A session computes one task at a time (a solve pair takes every thread of its worker),
     * and a lease may outlive the computation (its answer is being fetched): every message
     * of the session renews its leases. */
    bool exclusive;
    /* Task i's message (TASK, ANALYSE, SOLVE) for worker p with its lease (--lease); 0, or
     * -1 after server_fail. Its bulk fields may point into the job, valid until the next
     * task_msg (the caller sends m first). */
    int (*task_msg)(server_t *s, tasks_t *t, size_t i, const peer_t *p, msg_t *m);
    /* Or NULL (every task fits every worker, taken in the scheduler's order): how queued
     * task i ranks for worker p, < 0 when it does not fit it (sched_rank_fn). */
    long (*rank)(server_t *s, tasks_t *t, size_t i, const peer_t *p);
    /* Journals (t->journal may be NULL) and counts accepted task i whose answer is v (adding
     * to t->nodes_done); false after server_fail on a journal error. */
    bool (*commit)(server_t *s, tasks_t *t, size_t i, sched_answer_t v);
    /* Task i for a report ("ppkn/4/4/NKPP w NCFncf -, depth 5"; "move c1c2, depth 7"). */
    void (*task_text)(const tasks_t *t, size_t i, char *buf, size_t len);
    /* Answer v of task i for a report ("1234", "[c1c2 cp 23 ...]"). */
    void (*answer_text)(const tasks_t *t, size_t i, sched_answer_t v, char *buf, size_t len);
    /* Or NULL (no position of its own): task i's position, its remaining depth and its
     * multiplicity (the paths from the root its answer stands for), for --dump-tasks. */
    void (*frontier)(const tasks_t *t, size_t i, char *pos, size_t len, int *depth, count_t *weight);
} tasks_ops_t;

typedef struct tasks_book_s tasks_book_t; /* tasks_dump.c */

struct tasks_s {
    const tasks_ops_t *ops;
    sched_t *sched;                   /* the kind's; freed by tasks_close */
    journal_t *journal;               /* or NULL; freed by tasks_close */
    size_t task_nb, loaded;           /* tasks, and those the journal had */
    uint64_t job_id;
    variant_t variant;
    count_t nodes_done;               /* nodes of the tasks finished this run (perft: weighted) */
    char refuse_reason[MSG_TEXT_MAX + 80]; /* the last refusal's worker and reason, cleaned */
    credit_t *credit;                 /* the contributors (the journal's and this run's); tasks_credit */
    journal_credit_t by;              /* who answers the task being committed (tasks_answer) */
    bool by_recorded;                 /* tasks_record took it */
    peer_t *by_peer;                  /* the session answering, during tasks_answer (else NULL) */
    unsigned refusals_logged;
    uint64_t refusals;                /* REFUSEs taken (and refusals of a worker's answer) */
    tasks_book_t *book;               /* --dump-tasks: who answered each task this run (tasks_dump.c) */
};

/* Frees the scheduler and closes the journal; safe twice. */
void tasks_close(tasks_t *t);

/* An answer to task i (an index already checked against t->task_nb) from p, its value v
 * (stats: perft's, or NULL) and the wall milliseconds it reports: given to the scheduler,
 * then committed (credited to p), reported or counted. */
void tasks_answer(server_t *s, tasks_t *t, peer_t *p, size_t i, sched_answer_t v, const perft_stats_t *stats,
                  uint64_t wall_ms);

/* For a kind's `commit`: journals task i (its key, its count and stats) with its credit
 * record (the worker answering, and `amount`, what the task adds to the total), adds it to
 * the contributors and to t->nodes_done. false after server_fail on a journal error. */
bool tasks_record(server_t *s, tasks_t *t, size_t i, const char *key, count_t nodes, const perft_stats_t *stats,
                  count_t amount);

/* Who answers task i, in t->by (tasks_record and tasks_credit_by take it): worker p, the wall
 * milliseconds it reports, the CPU it reported since its last credited task; amount 0. */
void tasks_by(tasks_t *t, const peer_t *p, size_t i, uint64_t wall_ms);

/* Credits t->by (its worker and amount) to the contributors and the --dump-tasks book without
 * a journal record (tasks_record's part; solve, whose tables are its record, calls it alone).
 * false after server_fail when out of memory. */
bool tasks_credit_by(server_t *s, tasks_t *t, size_t i);

/* The contributors: the journal's credit records (loaded on the first call) and this
 * run's; NULL when out of memory. */
credit_t *tasks_credit(tasks_t *t);

/* The answer of p to task i, fetched or checked by the kind after sched_take: given to the
 * scheduler (as tasks_answer, without counting p's computation again). */
void tasks_accept(server_t *s, tasks_t *t, peer_t *p, size_t i, sched_answer_t v);

/* The kind refuses p's answer to task i (why: a clean text naming it; bad files, failed
 * transfer): the task goes to another worker and p is not offered it again (lease.h,
 * rule 2), as if p had refused it. */
void tasks_refuse_answer(server_t *s, tasks_t *t, peer_t *p, size_t i, const char *why);

/* An answer that cannot be task i's (why): dropped, the task goes to another worker, and
 * p's session ends (its other leases go back too): a worker that lies or is broken. */
void tasks_bad_answer(server_t *s, tasks_t *t, peer_t *p, size_t i, const char *why);

/* An answer to task i from p that must be computed again (malformed for a real task). */
void tasks_retry(server_t *s, tasks_t *t, peer_t *p, size_t i);

/* One error line naming task i's workers and their answers (verify). */
void tasks_report_votes(server_t *s, const tasks_t *t, size_t i, const char *what);

/* --dump-tasks (tasks_dump.c): keeps who answered task i this run (t->by, what tasks_record
 * journals) when the options ask for the dump; false after server_fail when out of memory. */
bool tasks_book_note(server_t *s, tasks_t *t, size_t i);

/* Frees the book; safe twice (tasks_close calls it). */
void tasks_book_free(tasks_t *t);

/* The row's `dump_tasks` (kind.h) for a job that begins with a tasks_t: a CSV header, then one
 * row per task (docs/status.md, "Task dump"). 0, or -1 on a write error or out of memory. */
int tasks_dump(void *job, FILE *out);

/* The row's operations (kind.h) for a job that begins with a tasks_t. */
uint64_t tasks_job_id(const void *job);
variant_t tasks_variant(const void *job);
bool tasks_finished(const void *job);
bool tasks_has_work(const void *job);
void tasks_status(const void *job, char *buf, size_t len);
/* The task counts and the nodes of the tasks done this run (the kind adds what the job is). */
void tasks_progress(const tasks_t *t, job_progress_t *out);
void tasks_dispatch(server_t *s, void *job, peer_t *p);
size_t tasks_forget(server_t *s, void *job, peer_t *p);
void tasks_renew(server_t *s, void *job, const peer_t *p, int64_t now);
void tasks_expire(server_t *s, void *job, int64_t now);
void tasks_timers(server_t *s, void *job, int64_t now); /* stall check and progress: tasks_timers.c */
/* REFUSE and HANDBACK (true); anything else false: a kind's `message` handles its answer
 * message and passes the rest here. */
bool tasks_message(server_t *s, void *job, peer_t *p, const msg_t *m);
