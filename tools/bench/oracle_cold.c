/* oracle_cold.c: the cost of a first answer from a cold store (no table open
 * yet, as after `octad serve` starts or for each `octad probe`), under the
 * full check at open and the quick one (tbsource.h), side by side: for each
 * position, a new bounded store, the position's value and every move's
 * (what an answer of the oracle needs: its table and those its captures and
 * promotions lead to), the store destroyed.
 *
 *   bench_oracle_cold DIR [ROUNDS] < positions.txt   (one OFEN a line)
 *
 * A line "table NAME" (e.g. "table KRNvKRN") times the opening of that one
 * table file instead (tbsource_open under each check, then closed).
 *
 * The files are read through the page cache: run once before timing so that
 * both checks find them there. The two checks alternate, the first of each
 * round changing. Prints per position the tables opened, their bytes, and the
 * median over the rounds of wall and CPU milliseconds under each check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "index.h"
#include "octad/octad.h"
#include "probe.h"
#include "sig.h"
#include "store.h"

enum { S_MAX = 64, S_ROUNDS_MAX = 21 };

static double s_wall(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Opens and closes table `table` under `check`: wall and CPU seconds; its bytes. */
static int s_open_one(const char *dir, int table, tbsource_check_t check, double *wall, double *cpu,
                      store_tables_t *opened)
{
    char err[512];
    double w0 = s_wall(), c0 = bench_cpu_seconds();
    tbsource_t *src = tbsource_open(dir, table, check, err, sizeof err);
    *wall = s_wall() - w0;
    *cpu = bench_cpu_seconds() - c0;
    if (!src) {
        fprintf(stderr, "bench_oracle_cold: %s\n", err);
        return -1;
    }
    *opened = (store_tables_t){1, tbsource_bytes(src)};
    tbsource_close(&src);
    return 0;
}

/* One cold answer of p under `check`: wall and CPU seconds; the tables it opened. */
static int s_cold(const char *dir, const octad_pos_t *p, tbsource_check_t check, double *wall, double *cpu,
                  store_tables_t *opened)
{
    store_t *st = store_new_bounded(dir, (size_t)STORE_MEMORY_DEFAULT_MB << 20);
    if (!st)
        return -1;
    store_set_check(st, check);
    probe_value_t v;
    probe_move_t moves[GAME_MOVES_MAX];
    int nbest;
    double w0 = s_wall(), c0 = bench_cpu_seconds();
    int rc = probe_position(st, p, &v) < 0 || probe_moves(st, p, moves, &nbest) < 0 ? -1 : 0;
    *wall = s_wall() - w0;
    *cpu = bench_cpu_seconds() - c0;
    *opened = store_tables(st);
    if (rc < 0)
        fprintf(stderr, "bench_oracle_cold: %s\n", store_error(st));
    store_destroy(&st);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_oracle_cold DIR [ROUNDS] < positions\n");
        return 2;
    }
    int rounds = bench_rounds(argc, argv, 2, S_ROUNDS_MAX);
    static char text[S_MAX][96];
    octad_pos_t pos[S_MAX];
    int table[S_MAX], n = 0; /* table[i] >= 0: a "table NAME" line */
    char err[256];
    octad_init();
    index_init();
    while (n < S_MAX && fgets(text[n], sizeof text[n], stdin)) {
        text[n][strcspn(text[n], "\n")] = '\0';
        table[n] = -1;
        if (strncmp(text[n], "table ", 6) == 0 ? sig_table_parse(text[n] + 6, &table[n], err, sizeof err) == 0
                                                 : octad_parse(text[n], &pos[n], err, sizeof err) == 0)
            n++;
        else
            fprintf(stderr, "bench_oracle_cold: skipped %s: %s\n", text[n], err);
    }
    if (n == 0) {
        fprintf(stderr, "bench_oracle_cold: no positions\n");
        return 1;
    }
    printf("%-28s %6s %12s | %21s | %21s\n", "position", "tables", "bytes", "full: wall / cpu ms",
           "quick: wall / cpu ms");
    for (int i = 0; i < n; i++) {
        double wall[2][S_ROUNDS_MAX], cpu[2][S_ROUNDS_MAX];
        store_tables_t opened[2];
        for (int r = 0; r < rounds; r++)
            for (int k = 0; k < 2; k++) {
                int c = (k + r) % 2; /* 0 full, 1 quick; the first of the round alternates */
                tbsource_check_t check = c ? TBSOURCE_CHECK_QUICK : TBSOURCE_CHECK_FULL;
                if ((table[i] >= 0 ? s_open_one(argv[1], table[i], check, &wall[c][r], &cpu[c][r], &opened[c])
                                   : s_cold(argv[1], &pos[i], check, &wall[c][r], &cpu[c][r], &opened[c])) < 0)
                    return 1;
            }
        printf("%-28s %6d %12zu | %9.1f / %9.1f | %9.1f / %9.1f\n", text[i], opened[1].open, opened[1].bytes,
               1e3 * bench_median(wall[0], rounds), 1e3 * bench_median(cpu[0], rounds),
               1e3 * bench_median(wall[1], rounds), 1e3 * bench_median(cpu[1], rounds));
    }
    return 0;
}
