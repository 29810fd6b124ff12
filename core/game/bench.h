/* bench.h: the fixed perft workloads of `octad bench` and their node-count signature (the
 * sum of their counts), shared by `octad bench` and the coordinator's --report, so both
 * print the same number for the same build. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "base/types.h"

typedef struct {
    const char *name;       /* "octad start, 1 thread, no hash" */
    variant_t variant;
    const char *text;       /* NULL: the variant's start */
    int depth, quick_depth; /* the full depth, and --quick's */
    int threads;            /* 0: one per core */
    int hash_mb;
} bench_work_t;

/* The workloads, in the order `octad bench` prints them. */
size_t bench_work_nb(void);
const bench_work_t *bench_work_at(size_t k);

/* Runs workload w `repeat` times (1..15) at its full or quick depth: its nodes and the median
 * wall seconds. 0, or -1 with err naming the workload and the problem (memory, runs that
 * disagree). */
int bench_run(const bench_work_t *w, bool quick, int repeat, count_t *nodes, double *median, char *err,
              size_t errlen);

/* The signature: the sum of every workload's nodes, each run once at its full or quick
 * depth (what `octad bench` or `octad bench --quick` prints last). 0, or -1 with err. */
int bench_signature(bool quick, count_t *out, char *err, size_t errlen);
