/* cmd_bench.c: `octad bench`: fixed perft workloads, a node-count signature and nodes/s. */
#include <stdio.h>

#include "args.h"
#include "bench.h"
#include "cmd.h"
#include "count.h"
#include "variant_opt.h"

/* A run shorter than this prints no time. */
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

int cmd_bench(int argc, char **argv)
{
    s_opts_t o = {.repeat = 3, .variant = VARIANT_OCTAD};
    int rc = opt_parse(&s_spec, argc, argv, &o);
    if (rc != 0)
        return rc < 0 ? EXIT_OK : rc;
    count_t signature = 0;
    char b[COUNT_TEXT_MAX];
    printf("%-38s %5s %16s %10s %10s\n", "workload", "depth", "nodes", "median s", "Mnodes/s");
    for (size_t i = 0; i < bench_work_nb(); i++) {
        const bench_work_t *w = bench_work_at(i);
        count_t nodes = 0;
        double secs;
        char err[400];
        if (o.only && w->variant != o.variant)
            continue;
        if (bench_run(w, o.quick, o.repeat, &nodes, &secs, err, sizeof err) != 0) {
            args_error("bench", "%s", err);
            return EXIT_FAIL;
        }
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
