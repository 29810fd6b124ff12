/* oracle_answer.c: the cost of the oracle's work per request, without HTTP:
 * over warm tables (each position asked once before timing), the time of one
 * probe_position (the position's value alone), of one oracle_position (the
 * value and every move's, as JSON) and of json_dumps of that answer.
 *
 *   bench_oracle_answer DIR [ROUNDS [MEMORY_MB]] < positions.txt   (one OFEN a line)
 *
 * MEMORY_MB: the tables' memory budget (octad serve --memory); 0 or none: read whole.
 *
 * CPU time (the machine is shared). Prints per round the mean nanoseconds of each over all positions, then the
 * medians of the rounds. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "octad/octad.h"
#include "oracle.h"
#include "probe.h"
#include "store.h"

enum { S_MAX = 100000, S_ROUNDS_MAX = 15 };

/* CPU nanoseconds of this (single-threaded) process. */
static double s_now(void) { return bench_cpu_seconds() * 1e9; }

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_oracle_answer DIR [ROUNDS [MEMORY_MB]] < positions\n");
        return 2;
    }
    int rounds = bench_rounds(argc, argv, 2, S_ROUNDS_MAX);
    static char text[S_MAX][96];
    static octad_pos_t pos[S_MAX];
    int n = 0;
    char err[256];
    octad_init();
    while (n < S_MAX && fgets(text[n], sizeof text[n], stdin)) {
        text[n][strcspn(text[n], "\n")] = '\0';
        if (octad_parse(text[n], &pos[n], err, sizeof err) == 0)
            n++;
    }
    size_t memory = argc > 3 ? (size_t)atoll(argv[3]) << 20 : 0;
    oracle_t *o = oracle_new(argv[1], memory);
    store_t *st = store_new_bounded(argv[1], memory);
    if (!o || !st || n == 0) {
        fprintf(stderr, "bench_oracle_answer: no positions, or out of memory\n");
        return 1;
    }
    probe_value_t v;
    for (int i = 0; i < n; i++) { /* warm: every table these need is loaded */
        json_t *a = NULL;
        if (oracle_position(o, text[i], &a, err, sizeof err) != ORACLE_OK || probe_position(st, &pos[i], &v) < 0) {
            fprintf(stderr, "bench_oracle_answer: %s: %s\n", text[i], err);
            return 1;
        }
        json_decref(a);
    }
    double probe_ns[S_ROUNDS_MAX], answer_ns[S_ROUNDS_MAX], dump_ns[S_ROUNDS_MAX];
    long sink = 0;
    for (int r = 0; r < rounds; r++) {
        double t0 = s_now();
        for (int i = 0; i < n; i++) {
            probe_position(st, &pos[i], &v);
            sink += v.dtm;
        }
        double t1 = s_now(), dump = 0;
        for (int i = 0; i < n; i++) {
            json_t *a = NULL;
            oracle_position(o, text[i], &a, err, sizeof err);
            double d0 = s_now();
            char *s = json_dumps(a, JSON_COMPACT);
            dump += s_now() - d0;
            sink += (long)strlen(s);
            free(s);
            json_decref(a);
        }
        double t2 = s_now();
        probe_ns[r] = (t1 - t0) / n;
        dump_ns[r] = dump / n;
        answer_ns[r] = (t2 - t1 - dump) / n;
        printf("round %d: %d positions: probe_position %.0f ns, oracle_position %.0f ns, json_dumps %.0f ns\n", r + 1,
               n, probe_ns[r], answer_ns[r], dump_ns[r]);
    }
    printf("median: probe_position %.0f ns, oracle_position %.0f ns, json_dumps %.0f ns (checksum %ld)\n",
           bench_median(probe_ns, rounds), bench_median(answer_ns, rounds), bench_median(dump_ns, rounds), sink % 1000);
    oracle_destroy(&o);
    store_destroy(&st);
    return 0;
}
