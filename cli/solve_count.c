/* solve_tbcount.c: `octad solve --count` (solve_count.h). */
#include "solve_count.h"

#include <stdio.h>
#include <time.h>

#include "args.h"
#include "tbcount.h"

typedef struct {
    bool quiet;
    int done;
    time_t last;
} s_progress_t;

static void s_progress(void *ctx, const char *name, int pieces, bool has_file, const tbcount_t *c)
{
    s_progress_t *p = ctx;
    p->done++;
    time_t now = time(NULL);
    if (p->quiet || now == p->last)
        return;
    p->last = now;
    fprintf(stderr, "count: %d tables, last %s (%d pieces%s): %llu legal records, %llu positions\n", p->done, name,
            pieces, has_file ? "" : ", no file", (unsigned long long)c->legal, (unsigned long long)c->positions);
}

static void s_print_json(const tbcount_t *by, int max_pieces, const tbcount_t *all)
{
    printf("{\"max_pieces\":%d,\"by_pieces\":[", max_pieces);
    for (int k = 2; k <= max_pieces; k++)
        printf("%s{\"pieces\":%d,\"tables\":%llu,\"records\":%llu,\"legal\":%llu,\"positions\":%llu}",
               k > 2 ? "," : "", k, (unsigned long long)by[k].tables, (unsigned long long)by[k].records,
               (unsigned long long)by[k].legal, (unsigned long long)by[k].positions);
    printf("],\"tables\":%llu,\"records\":%llu,\"legal\":%llu,\"positions\":%llu}\n", (unsigned long long)all->tables,
           (unsigned long long)all->records, (unsigned long long)all->legal, (unsigned long long)all->positions);
}

static void s_print_text(const tbcount_t *by, int max_pieces, const tbcount_t *all)
{
    printf("%-7s %7s %15s %15s %16s\n", "pieces", "tables", "slots", "legal records", "positions");
    for (int k = 2; k <= max_pieces; k++)
        printf("%-7d %7llu %15llu %15llu %16llu\n", k, (unsigned long long)by[k].tables,
               (unsigned long long)by[k].records, (unsigned long long)by[k].legal,
               (unsigned long long)by[k].positions);
    printf("%-7s %7llu %15llu %15llu %16llu\n", "all", (unsigned long long)all->tables,
           (unsigned long long)all->records, (unsigned long long)all->legal, (unsigned long long)all->positions);
    printf("positions: both sides to move, mirror images counted apart, castling rights\n"
           "included; without positions that have a legal e.p. capture (not stored)\n");
}

int solve_count_run(const char *dir, int max_pieces, bool json, bool quiet)
{
    tbcount_t by[9], all = {0};
    s_progress_t p = {.quiet = quiet};
    char err[512];
    if (count_dir(dir, max_pieces, s_progress, &p, by, err, sizeof err) < 0) {
        args_error("solve", "%s", err);
        return EXIT_FAIL;
    }
    for (int k = 2; k <= max_pieces; k++) {
        all.tables += by[k].tables;
        all.records += by[k].records;
        all.legal += by[k].legal;
        all.positions += by[k].positions;
    }
    if (json)
        s_print_json(by, max_pieces, &all);
    else
        s_print_text(by, max_pieces, &all);
    return EXIT_OK;
}
