/* bench_util.h: what the benchmark programs share: CPU time (the machine is
 * shared: a busy neighbour must not count) and the median of rounds. */
#pragma once

#include <stdlib.h>
#include <time.h>

/* CPU seconds this process has used. */
static inline double bench_cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..n-1] (v is sorted in place). */
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return v[n / 2];
}

/* The number of rounds argv[i] asks for (5 when absent), within 1..max. */
static inline int bench_rounds(int argc, char **argv, int i, int max)
{
    int r = argc > i ? atoi(argv[i]) : 5;
    return r < 1 ? 1 : r > max ? max : r;
}
