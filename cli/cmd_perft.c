/* cmd_perft.c: `octad perft`: counts, divide, stats, time and nodes/s. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "cmd.h"
#include "count.h"
#include "err.h"
#include "opt.h"
#include "perft_engine_opts.h"
#include "perft_run.h"

static const char s_usage[] =
    "usage: octad perft [DEPTH] [options]\n"
    "Counts the leaves of the legal-move tree of a position, exactly.\n\n";

static const char s_epilogue[] =
    "\nAgainst another engine (each has its own --help):\n"
    "  --compare \"COMMAND\"  run COMMAND as a perft engine, compare its divide with ours\n"
    "                  and descend to the first difference (with --protocol uci|perftree,\n"
    "                  --timeout S, --json)\n"
    "  --check-engine \"COMMAND\"  compare with another engine on every position of a\n"
    "                  suite: --suite FILE [--max-depth N]\n"
    "\nPrints: nodes, time (seconds) and nps. Exit status 0, or 2 on bad usage or a bad position.\n";

typedef struct {
    args_pos_t pos;
    perft_opts_t run;
    long hash_mb;
    bool quiet;
} s_opts_t;

/* `octad perft 11`: the depth alone. */
static int s_plain(const char *arg, void *base, char *err, size_t errlen)
{
    s_opts_t *o = base;
    long long v;
    char why[160];
    if (arg[0] < '0' || arg[0] > '9')
        return err_printf(err, errlen, "unexpected argument '%.40s' (a position goes after --ofen)", arg);
    if (opt_read_int(arg, 0, 40, &v, why, sizeof why) != 0)
        return err_printf(err, errlen, "depth: %s", why);
    o->run.depth = (int)v;
    return 0;
}

#define F(field) OPT_AT(s_opts_t, field)
static const opt_t s_rows[] = {
    {"--depth", 0, OPT_INT, "N", F(run.depth), "plies to count (default 6); DEPTH alone says the same", .lo = 0,
     .hi = 40},
    {"--divide", 0, OPT_FLAG, NULL, F(run.divide), "also print the count below each legal root move"},
    {"--stats", 0, OPT_FLAG, NULL, F(run.stats), "also print counts by kind at the last ply: captures, e.p., castles,\n"
     "promotions, checks (mates included; checks-gct without), discovered and double checks,\n"
     "mates, stalemates (no hash table used)"},
    {"--hash", 0, OPT_INT, "MB", F(hash_mb), "transposition table size in MiB (default 64; 0 = off); threads\n"
     "share one table where exact (octad on x86-64 with AVX), else split it", .lo = 0, .hi = 1 << 20},
    {"--threads", 0, OPT_INT, "N", F(run.threads), "threads (default: one per core; 1 = single-threaded)", .lo = 1,
     .hi = 1024},
    {"--quiet", 0, OPT_FLAG, NULL, F(quiet), "no progress display on stderr"},
};
#undef F

static const opt_spec_t s_spec = {.prog = "octad perft", .usage = s_usage, .epilogue = s_epilogue, .rows = s_rows,
                                  .row_nb = sizeof s_rows / sizeof s_rows[0], .plain = s_plain,
                                  ARGS_POS_SHARED(s_opts_t)};

static void s_progress(const perft_progress_t *p, void *ctx)
{
    char nodes[COUNT_TEXT_MAX];
    (void)ctx;
    fprintf(stderr, "\r  tasks %zu/%zu  nodes %s  %.1f s   ", p->tasks_done, p->tasks_total,
            count_format(p->nodes, nodes), p->seconds);
    fflush(stderr);
}

/* Parses argv into *o; returns OPT_HELP (help printed), 0 ok, or EXIT_USAGE. */
static int s_parse(int argc, char **argv, s_opts_t *o)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o->pos = (args_pos_t){.variant = VARIANT_OCTAD, .start = -1};
    o->run = (perft_opts_t){.depth = 6, .threads = cores > 0 ? (int)cores : 1};
    o->hash_mb = 64;
    int rc = opt_parse(&s_spec, argc, argv, o);
    o->run.hash_bytes = (size_t)o->hash_mb << 20;
    return rc;
}

static void s_print(const game_pos_t *pos, const s_opts_t *o, const perft_result_t *r)
{
    char b[COUNT_TEXT_MAX], text[GAME_TEXT_MAX];
    game_format(pos, text, sizeof text);
    printf("variant    %s\nposition   %s\ndepth      %d\n", game_variant_name(pos->variant), text,
           o->run.depth);
    printf("threads    %d\n", o->run.threads);
    if (o->run.stats)
        puts("hash       off (--stats uses no table)");
    else if (o->run.hash_bytes == 0)
        puts("hash       off");
    else
        printf("hash       %zu MB\n", o->run.hash_bytes >> 20);
    if (o->run.divide)
        for (int i = 0; i < r->root_nb; i++)
            printf("%s: %s\n", r->root_uoi[i], count_format(r->root_nodes[i], b));
    if (o->run.stats)
        count_print_stats(stdout, &r->stats, pos->variant);
    printf("nodes      %s\n", count_format(r->nodes, b));
    printf("time       %.3f\n", r->seconds);
    printf("nps        %.0f\n", r->seconds > 0 ? (double)r->nodes / r->seconds : 0.0);
}

/* The modes of `octad perft` that drive another engine, by the option that selects them. */
static const struct {
    const char *option;
    int (*run)(int argc, char **argv);
} s_modes[] = {
    {"--compare", cmd_perft_compare},
    {"--check-engine", cmd_perft_check},
};

int cmd_perft(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        for (size_t m = 0; m < sizeof s_modes / sizeof s_modes[0]; m++) {
            size_t n = strlen(s_modes[m].option);
            if (strncmp(argv[i], s_modes[m].option, n) == 0 && (argv[i][n] == '\0' || argv[i][n] == '='))
                return s_modes[m].run(argc, argv);
        }
    s_opts_t o = {0};
    game_pos_t pos;
    perft_result_t *r;
    char err[256];
    int rc = s_parse(argc, argv, &o);
    if (rc != 0)
        return rc < 0 ? EXIT_OK : rc;
    if (args_pos_resolve("perft", &o.pos, &pos) != 0)
        return EXIT_USAGE;
    if (!o.quiet && isatty(STDERR_FILENO)) {
        o.run.progress = s_progress;
        o.run.progress_every = 0.25;
    }
    r = malloc(sizeof *r);
    if (r == NULL || perft_run(&pos, &o.run, r, err, sizeof err) != 0) {
        args_error("perft", "%s", r ? err : "out of memory");
        free(r);
        return EXIT_FAIL;
    }
    if (o.run.progress)
        fprintf(stderr, "\r%60s\r", "");
    s_print(&pos, &o, r);
    free(r);
    return EXIT_OK;
}
