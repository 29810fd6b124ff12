/* cmd_perft.c: `octad perft`: counts, divide, stats, time and nodes/s. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "cmd.h"
#include "count.h"
#include "perft_run.h"

static const char s_help[] =
    "usage: octad perft [DEPTH] [options]\n"
    "Counts the leaves of the legal-move tree of a position, exactly.\n\n"
    "%s"
    "  --depth N       plies to count (default 6); DEPTH alone says the same\n"
    "  --divide        also print the count below each legal root move\n"
    "  --stats         also print counts by kind at the last ply (no hash table used)\n"
    "  --hash MB       transposition table size in MiB (default 64; 0 = off); threads\n"
    "                  share one table where exact (octad on x86-64 with AVX), else split it\n"
    "  --threads N     threads (default: one per core; 1 = single-threaded)\n"
    "  --quiet         no progress display on stderr\n"
    "  --help          this text\n\n"
    "Prints: nodes, time (seconds) and nps. Exit status 0, or 2 on bad usage or a bad position.\n";

typedef struct {
    args_pos_t pos;
    perft_opts_t run;
    bool quiet;
} s_opts_t;

static void s_progress(const perft_progress_t *p, void *ctx)
{
    char nodes[COUNT_TEXT_MAX];
    (void)ctx;
    fprintf(stderr, "\r  tasks %zu/%zu  nodes %s  %.1f s   ", p->tasks_done, p->tasks_total,
            count_format(p->nodes, nodes), p->seconds);
    fflush(stderr);
}

/* Parses argv into *o; returns -1 done (help printed), 0 ok, 2 usage error. */
static int s_parse(int argc, char **argv, s_opts_t *o)
{
    long v;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o->pos = (args_pos_t){.variant = VARIANT_OCTAD, .start = -1};
    o->run = (perft_opts_t){.depth = 6, .threads = cores > 0 ? (int)cores : 1,
                            .hash_bytes = (size_t)64 << 20};
    for (int i = 0; i < argc; i++) {
        const char *val = NULL;
        int rc = args_pos_option("perft", argc, argv, &i, &o->pos);
        if (rc < 0)
            return EXIT_USAGE;
        if (rc > 0)
            continue;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf(s_help, ARGS_POS_HELP);
            return -1;
        } else if (strcmp(argv[i], "--divide") == 0) {
            o->run.divide = true;
        } else if (strcmp(argv[i], "--stats") == 0) {
            o->run.stats = true;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            o->quiet = true;
        } else if ((rc = args_value("perft", argc, argv, &i, "--depth", &val)) != 0) {
            if (rc < 0 || args_int("perft", "--depth", val, 0, 40, &v) != 0)
                return EXIT_USAGE;
            o->run.depth = (int)v;
        } else if ((rc = args_value("perft", argc, argv, &i, "--hash", &val)) != 0) {
            if (rc < 0 || args_int("perft", "--hash", val, 0, 1 << 20, &v) != 0)
                return EXIT_USAGE;
            o->run.hash_bytes = (size_t)v << 20;
        } else if ((rc = args_value("perft", argc, argv, &i, "--threads", &val)) != 0) {
            if (rc < 0 || args_int("perft", "--threads", val, 1, 1024, &v) != 0)
                return EXIT_USAGE;
            o->run.threads = (int)v;
        } else if (argv[i][0] >= '0' && argv[i][0] <= '9') { /* `octad perft 11`: the depth */
            if (args_int("perft", "depth", argv[i], 0, 40, &v) != 0)
                return EXIT_USAGE;
            o->run.depth = (int)v;
        } else {
            args_error("perft", "unknown option '%.40s' (see octad perft --help)", argv[i]);
            return EXIT_USAGE;
        }
    }
    return 0;
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

int cmd_perft(int argc, char **argv)
{
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
