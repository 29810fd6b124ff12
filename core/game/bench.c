/* bench.c: the bench workloads and their signature (see bench.h). */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "perft_run.h"

/* The workloads. Their node counts are not stored here: the signature is
 * their sum, computed by running them, so a changed count changes it. The quick
 * depths still take long enough to time (chess counts so fast that they are the
 * full ones). */
static const bench_work_t s_works[] = {
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

enum { S_REPEAT_MAX = 15 };

size_t bench_work_nb(void)
{
    return sizeof s_works / sizeof s_works[0];
}

const bench_work_t *bench_work_at(size_t k)
{
    return &s_works[k];
}

static int s_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int bench_run(const bench_work_t *w, bool quick, int repeat, count_t *nodes, double *median, char *err,
              size_t errlen)
{
    game_pos_t pos;
    char why[256];
    double times[S_REPEAT_MAX];
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    perft_opts_t o = {.depth = quick ? w->quick_depth : w->depth,
                      .threads = w->threads ? w->threads : (cores > 0 ? (int)cores : 1),
                      .hash_bytes = (size_t)w->hash_mb << 20};
    const char *text = w->text ? w->text : game_start_text(w->variant);
    if (repeat < 1 || repeat > S_REPEAT_MAX) {
        snprintf(err, errlen, "workload '%s': %d runs (1..%d)", w->name, repeat, S_REPEAT_MAX);
        return -1;
    }
    perft_result_t *r = malloc(sizeof *r);
    if (r == NULL || game_parse(w->variant, text, &pos, why, sizeof why) != 0) {
        snprintf(err, errlen, "workload '%s': %s", w->name, r ? why : "out of memory");
        free(r);
        return -1;
    }
    for (int i = 0; i < repeat; i++) {
        const char *fault = perft_run(&pos, &o, r, why, sizeof why) != 0 ? why
                            : i > 0 && r->nodes != *nodes              ? "runs disagree"
                                                                       : NULL;
        if (fault != NULL) {
            snprintf(err, errlen, "workload '%s': %s", w->name, fault);
            free(r);
            return -1;
        }
        times[i] = r->seconds;
        *nodes = r->nodes;
    }
    qsort(times, (size_t)repeat, sizeof times[0], s_cmp_double);
    *median = times[repeat / 2];
    free(r);
    return 0;
}

int bench_signature(bool quick, count_t *out, char *err, size_t errlen)
{
    *out = 0;
    for (size_t k = 0; k < bench_work_nb(); k++) {
        count_t nodes = 0;
        double secs;
        if (bench_run(&s_works[k], quick, 1, &nodes, &secs, err, errlen) != 0)
            return -1;
        *out += nodes;
    }
    return 0;
}
