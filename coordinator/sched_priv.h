/* sched_priv.h: the scheduler's private state (sched.h), shared by its files only: sched.c (task
 * states, the queue, leases and verify votes) and sched_range.c (the affinity ranges of fresh
 * tasks). Nothing outside the scheduler includes it. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lease.h"
#include "sched.h"

enum { LEASE_MAX = 3, VOTE_MAX = 3, RANGES_MAX = 4096 };
#define NO_POS UINT32_MAX

typedef struct {
    uint32_t serial;
    uint16_t name_id;
    int64_t deadline;
} s_lease_t;

typedef struct {
    bool done;
    uint8_t want;        /* agreeing results needed: 1, or 2 in verify (3 after a disagreement) */
    uint8_t lease_nb, queued_nb, vote_nb;
    uint32_t inflight_pos; /* index in inflight[], or NO_POS */
    uint64_t leased_at;    /* order of its oldest live lease (rule 3 copies the oldest first) */
    uint32_t leases_given, leases_ended; /* sched_task_counts */
    s_lease_t lease[LEASE_MAX];
    lease_memory_t mem;    /* expired leases and refusing names (lease.h's rules) */
} s_task_t;

/* A run of fresh (never leased) tasks [next, end) that one worker session takes in order. */
typedef struct {
    uint32_t serial;   /* 0: free slot */
    bool orphan;       /* its session ended: the next thief takes it whole */
    size_t next, end;
} s_range_t;

struct sched_s {
    size_t task_nb, done_nb;
    s_range_t *ranges;                        /* affinity ranges (not in verify mode) */
    size_t range_nb;
    size_t fresh_nb;                          /* fresh tasks not yet leased, in ranges */
    bool verify, with_stats;
    s_task_t *tasks;
    sched_answer_t *answers;
    perft_stats_t *stats;
    sched_vote_t (*votes)[VOTE_MAX];          /* verify only */
    perft_stats_t (*vote_stats)[VOTE_MAX];    /* verify with stats only */
    uint32_t *ring;                           /* the queue of task indices */
    size_t ring_cap, ring_head, ring_nb;
    uint32_t *inflight;                       /* tasks with at least one lease */
    size_t inflight_nb;
    sched_end_fn on_end;                      /* or NULL */
    void *on_end_ctx;
    uint64_t lease_seq;                       /* leases given so far: their order */
    uint64_t copies_nb;                       /* copies given to idle workers (sched_copy) */
    bool copies;                              /* rule 3 on (sched_set_copies) */
    bool copy_wanted;                         /* sched_copy_wanted, kept by s_changed */
};

/* The range of a session, or NULL. */
s_range_t *sched_range_of(sched_t *self, uint32_t serial);

/* The next fresh task for a session: in order from its own range, for table
 * locality (neighbouring tasks share subtrees), stealing when it runs dry. -1 if none. */
long sched_range_next_fresh(sched_t *self, uint32_t serial);
