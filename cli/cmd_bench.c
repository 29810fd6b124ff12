/* cmd_bench.c: `octad bench`: fixed perft workloads, a node-count signature and nodes/s. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "cmd.h"
#include "count.h"
#include "perft_run.h"
#include "variant_opt.h"

typedef struct {
    const char *name;
    variant_t variant;
    const char *text;
    int depth, quick_depth;
    int threads;       /* 0: one per core */
    int hash_mb;
} s_work_t;

/* The workloads. Their node counts are not stored here: the signature is
 * their sum, computed by running them, so a changed count changes it. The quick
 * depths still take long enough to time (chess counts so fast that they are the
 * full ones); a run shorter than S_TIMEABLE_MS prints no time. */
static const s_work_t s_works[] = {
    {"octad start, 1 thread, no hash", VARIANT_OCTAD, NULL, 9, 8, 1, 0},
    {"octad start, 1 thread, hash 256 MB", VARIANT_OCTAD, NULL, 12, 10, 1, 256},
    {"octad deployed, 1 thread, no hash", VARIANT_OCTAD, "pknp/4/4/PKNP w NCncf - 0 1", 9, 8, 1, 0},
    {"octad start, all cores, hash 256 MB", VARIANT_OCTAD, NULL, 12, 10, 0, 256},
    {"chess start, 1 thread, no hash", VARIANT_CHESS, NULL, 6, 6, 1, 0},
    {"chess kiwipete, 1 thread, no hash", VARIANT_CHESS,
     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 5, 1, 0},
    {"chess960 #0, 1 thread, no hash", VARIANT_CHESS960,
     "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1", 6, 6, 1, 0},
};

enum { S_TIMEABLE_MS = 10 };

typedef struct {
    bool quick, only;
    int repeat;
    variant_t variant;
} s_opts_t;

/* --variant V: only that variant's workloads; the field is the whole s_opts_t. */
static int s_variant(const char *text, void *field, char *err, size_t errlen)
{
    s_opts_t *o = field;
    o->only = true;
    return variant_opt_parse(text, &o->variant, err, errlen);
}

#define F(field) OPT_AT(s_opts_t, field)
static const opt_t s_rows[] = {
    {"--quick", 0, OPT_FLAG, NULL, F(quick), "shallower octad depths (a few seconds in all)"},
    {"--repeat", 0, OPT_INT, "N", F(repeat), "runs of each workload, the median time is shown (default 3)", .lo = 1,
     .hi = 15},
    {"--variant", 0, OPT_CUSTOM, "V", .off = 0, .size = sizeof(s_opts_t), "only the workloads of one variant",
     .parse = s_variant},
};
#undef F

static const opt_spec_t s_spec = {
    .prog = "octad bench", .rows = s_rows, .row_nb = sizeof s_rows / sizeof s_rows[0],
    .usage = "usage: octad bench [--quick] [--repeat N] [--variant V]\n"
             "Runs fixed perft workloads and prints, for each, nodes, the median time of N\n"
             "runs and nodes/s, then a node-count signature (the sum of all node counts).\n\n"};

static int s_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Runs one workload `repeat` times; returns 0 and its nodes and median seconds. */
static int s_run_work(const s_work_t *w, bool quick, int repeat, count_t *nodes, double *median)
{
    game_pos_t pos;
    char err[256];
    double times[16];
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    perft_opts_t o = {.depth = quick ? w->quick_depth : w->depth,
                      .threads = w->threads ? w->threads : (cores > 0 ? (int)cores : 1),
                      .hash_bytes = (size_t)w->hash_mb << 20};
    perft_result_t *r = malloc(sizeof *r);
    const char *text = w->text ? w->text : game_start_text(w->variant);
    if (r == NULL || game_parse(w->variant, text, &pos, err, sizeof err) != 0) {
        args_error("bench", "workload '%s': %s", w->name, r ? err : "out of memory");
        free(r);
        return -1;
    }
    for (int i = 0; i < repeat; i++) {
        if (perft_run(&pos, &o, r, err, sizeof err) != 0) {
            args_error("bench", "workload '%s': %s", w->name, err);
            free(r);
            return -1;
        }
        times[i] = r->seconds;
        if (i > 0 && r->nodes != *nodes) {
            args_error("bench", "workload '%s': runs disagree", w->name);
            free(r);
            return -1;
        }
        *nodes = r->nodes;
    }
    qsort(times, (size_t)repeat, sizeof times[0], s_cmp_double);
    *median = times[repeat / 2];
    free(r);
    return 0;
}

int cmd_bench(int argc, char **argv)
{
    s_opts_t o = {.repeat = 3, .variant = VARIANT_OCTAD};
    int rc = opt_parse(&s_spec, argc, argv, &o);
    if (rc != 0)
        return rc < 0 ? EXIT_OK : rc;
    count_t signature = 0;
    char b[COUNT_TEXT_MAX];
    printf("%-38s %5s %16s %10s %10s\n", "workload", "depth", "nodes", "median s", "Mnodes/s");
    for (size_t i = 0; i < sizeof s_works / sizeof s_works[0]; i++) {
        const s_work_t *w = &s_works[i];
        count_t nodes = 0;
        double secs;
        if (o.only && w->variant != o.variant)
            continue;
        if (s_run_work(w, o.quick, o.repeat, &nodes, &secs) != 0)
            return EXIT_FAIL;
        signature += nodes;
        printf("%-38s %5d %16s ", w->name, o.quick ? w->quick_depth : w->depth, count_format(nodes, b));
        if (secs * 1000 < S_TIMEABLE_MS)
            printf("%10s %10s\n", "< 0.010", "-"); /* too short to time */
        else
            printf("%10.3f %10.1f\n", secs, (double)nodes / secs / 1e6);
        fflush(stdout);
    }
    printf("signature %s\n", count_format(signature, b));
    return EXIT_OK;
}
