/* solve.h: the octad solver's entry points: generate tables (one pair at a
 * time, or everything up to a number of pieces), and read their summary. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gen.h"
#include "store.h"

/* Progress of a solve, reported after each pair. */
typedef struct {
    int pair, pairs_done, pairs_total;
    const char *name;      /* primary table's name */
    uint64_t positions;    /* legal positions solved so far (this run) */
    uint64_t slots_done;   /* index slots of the pairs solved so far (this run) */
    uint64_t slots_total;  /* index slots of every pair this run solves */
    double seconds;        /* wall time of this run so far */
    double eta;            /* seconds still to go at this run's rate, -1 unknown */
    bool skipped;          /* the pair's files were already there */
} solve_progress_t;

typedef void (*solve_progress_fn)(void *ctx, const solve_progress_t *p);

typedef struct {
    const char *dir;       /* where tables are written and read */
    int max_pieces;        /* pairs with at most this many pieces, kings included */
    int threads;           /* worker threads (units of one key run in parallel) */
    uint64_t memory;       /* bytes the pairs solved at once may use (0: 3/4 of RAM) */
    solve_progress_fn progress;
    void *ctx;
} solve_opts_t;

/* Solves pair i into dir: both tables, written atomically; the tables its
 * exits need must be in store (or dir). Adds into *st. 0, or -1 + message. */
int solve_pair(store_t *store, int pair, const solve_opts_t *opts, gen_stats_t *st, char *err, size_t errlen);

/* Bytes solving pair i takes at its peak (its records, the work arrays of
 * its largest unit, the tables its exits read), estimated from its layout. */
uint64_t solve_pair_memory(int pair);

/* Three quarters of the machine's memory: the default budget of a solve. */
uint64_t solve_default_memory(void);

/* Whether pair i's table files are present in dir with a sound header. */
bool solve_pair_done(const char *dir, int pair);

/* Solves every pair with at most opts->max_pieces pieces in dependency order,
 * skipping pairs whose files are already there (so an interrupted solve
 * resumes where it stopped). 0, or -1 + message. */
int solve_all(const solve_opts_t *opts, gen_stats_t *st, char *err, size_t errlen);

/* The pairs a table depends on, transitively, itself included, in solving
 * order: writes pair indexes into out (capacity sig_pair_nb()), returns n. */
int solve_closure(int table, int *out);

/* Writes dir/SUMMARY: one line per table file present (name, records, value
 * counts, max dtz/dtm, CRC-32C), sorted by name. 0, or -1 + message. */
int solve_write_summary(const char *dir, char *err, size_t errlen);
