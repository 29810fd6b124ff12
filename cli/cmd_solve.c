/* cmd_solve.c: `octad solve` (generate tables, answer a position) and
 * `octad probe` (read a position's value, distances and best moves). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "answer.h"
#include "args.h"
#include "cmd.h"
#include "err.h"
#include "index.h"
#include "probe.h"
#include "sig.h"
#include "start.h"
#include "repack.h"
#include "solve.h"
#include "solve_count.h"

#define DEFAULT_TABLES "octad-tables"

typedef struct {
    const char *dir;
    const char *text;
    long max_pieces, threads;
    uint64_t memory;
    bool json, pv, quiet, repack, count, deployed;
} s_opts_t;

static const char s_usage_solve[] =
    "usage: octad solve [POSITION] [--tables DIR] [--max-pieces N] [--threads N] [--memory GB]\n"
    "                   [--json] [--quiet]\n"
    "       octad solve --repack [--tables DIR]\n"
    "       octad solve --count [--tables DIR] [--max-pieces N] [--json]\n"
    "Generates octad tablebases by retrograde analysis and answers a position.\n\n"
    "With --max-pieces N, solves every table with at most N pieces (kings included,\n"
    "2-8) and writes DIR/SUMMARY (value counts and CRC-32C of each table).\n"
    "Otherwise solves the tables POSITION needs (default: the start position) and\n"
    "prints its value as `octad probe` does. Tables already in DIR are reused, so an\n"
    "interrupted solve resumes where it stopped. Pairs of tables are solved at once\n"
    "while their estimated memory fits in --memory.\n\n";

static const char s_usage_probe[] =
    "usage: octad probe [POSITION] [--tables DIR] [--json] [--pv]\n"
    "       octad probe --deployed [--tables DIR] [--json]\n"
    "Prints an octad position's value from the tables: win, cursed-win (won only\n"
    "without the 25-move rule), draw, blessed-loss or loss for the side to move, at\n"
    "the position's halfmove clock; dtz (plies to the next pawn move, capture or\n"
    "change of rights, or mate) and dtm (plies to mate, without the 25-move rule);\n"
    "and the best moves. Default POSITION: the start.\n\n";

/* POSITION: one only. */
static int s_plain(const char *arg, void *base, char *err, size_t errlen)
{
    s_opts_t *o = base;
    if (o->text != NULL)
        return err_printf(err, errlen, "one position only (quote the OFEN: it contains spaces)");
    o->text = arg;
    return 0;
}

#define F(field) OPT_AT(s_opts_t, field)
static const opt_t s_rows_solve[] = {
    {"--tables", 0, OPT_STRING, "DIR", F(dir), "table directory (default: $OCTAD_TABLES or ./" DEFAULT_TABLES ")"},
    {"--max-pieces", 0, OPT_INT, "N", F(max_pieces), "solve every table up to N pieces", .lo = 2, .hi = 8},
    {"--threads", 0, OPT_INT, "N", F(threads), "worker threads (default: one per core)", .lo = 1, .hi = 64},
    {"--memory", 0, OPT_GB, "GB", F(memory), "memory the pairs solved at once may use (decimal GB, 1e9 bytes;\n"
     "default: 3/4 of RAM)"},
    {"--repack", 0, OPT_FLAG, NULL, F(repack), "rewrite table files of format version 1 as version 2\n"
     "(compressed), each checked as it is read back; solves nothing"},
    {"--count", 0, OPT_FLAG, NULL, F(count), "count the game positions the tables up to --max-pieces (default\n"
     "8) stand for: both sides to move, mirror images apart, with\n"
     "castling rights, without positions with a legal e.p. capture;\n"
     "every file's checksums are checked; solves nothing"},
    {"--json", 0, OPT_FLAG, NULL, F(json), "machine-readable result"},
    {"--quiet", 0, OPT_FLAG, NULL, F(quiet), "no progress lines"},
};
static const opt_t s_rows_probe[] = {
    {"--tables", 0, OPT_STRING, "DIR", F(dir), "table directory (default: $OCTAD_TABLES or ./" DEFAULT_TABLES ")"},
    {"--json", 0, OPT_FLAG, NULL, F(json), "one JSON object: wdl, dtz, dtm, best, moves"},
    {"--pv", 0, OPT_FLAG, NULL, F(pv), "the optimal line to mate (or as far as it goes)"},
    {"--deployed", 0, OPT_FLAG, NULL, F(deployed), "the value of every deployed start (0-143, numbered as in\n"
     "octad selfplay --start; 39 is the standard start), one\nline each (JSON: one array), and a tally"},
};
#undef F

static const opt_spec_t s_spec_solve = {.prog = "octad solve", .usage = s_usage_solve, .rows = s_rows_solve,
                                        .row_nb = sizeof s_rows_solve / sizeof s_rows_solve[0], .plain = s_plain};
static const opt_spec_t s_spec_probe = {.prog = "octad probe", .usage = s_usage_probe, .rows = s_rows_probe,
                                        .row_nb = sizeof s_rows_probe / sizeof s_rows_probe[0], .plain = s_plain};

/* Parses the options of solve (solve = true) or probe. 0 ok, OPT_HELP (help shown), or EXIT_USAGE. */
static int s_parse(bool solve, int argc, char **argv, s_opts_t *o)
{
    const char *env = getenv("OCTAD_TABLES");
    *o = (s_opts_t){.dir = env && *env ? env : DEFAULT_TABLES, .max_pieces = -1, .threads = -1};
    int rc = opt_parse(solve ? &s_spec_solve : &s_spec_probe, argc, argv, o);
    if (rc != 0)
        return rc;
    if (o->threads < 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        o->threads = n > 0 ? n : 1;
    }
    return 0;
}

static int s_position(const char *cmd, const char *text, octad_pos_t *out)
{
    game_pos_t g;
    char err[256];
    if (game_parse(VARIANT_OCTAD, text ? text : game_start_text(VARIANT_OCTAD), &g, err, sizeof err) < 0) {
        args_error(cmd, "%s", err);
        return -1;
    }
    *out = g.u.octad;
    return 0;
}

/* octad probe --deployed: every deployed start's value, and a tally. */
static int s_probe_deployed(const s_opts_t *o)
{
    if (o->text || o->pv) {
        args_error("probe", "--deployed takes no position and no --pv");
        return EXIT_USAGE;
    }
    store_t *store = store_new_bounded(o->dir, (size_t)STORE_MEMORY_DEFAULT_MB << 20);
    answer_t *a = calloc(START_DEPLOYED_NB, sizeof *a);
    if (!store || !a) {
        args_error("probe", "out of memory");
        store_destroy(&store);
        free(a);
        return EXIT_FAIL;
    }
    for (int n = 0; n < START_DEPLOYED_NB; n++) {
        char ofen[GAME_TEXT_MAX], err[512];
        if (start_deployed_ofen(n, ofen, sizeof ofen) < 0 || answer_get(store, ofen, &a[n], err, sizeof err) < 0) {
            args_error("probe", "start %d: %s (generate tables with: octad solve --max-pieces 8 --tables %s)", n, err,
                       o->dir);
            store_destroy(&store);
            free(a);
            return EXIT_FAIL;
        }
    }
    answer_print_starts(stdout, a, START_DEPLOYED_NB, o->json);
    if (o->json)
        printf("\n");
    store_destroy(&store);
    free(a);
    return EXIT_OK;
}

int cmd_probe(int argc, char **argv)
{
    s_opts_t o;
    int rc = s_parse(false, argc, argv, &o);
    if (rc != 0)
        return rc < 0 ? EXIT_OK : rc;
    if (o.deployed)
        return s_probe_deployed(&o);
    octad_pos_t p;
    if (s_position("probe", o.text, &p) < 0)
        return EXIT_USAGE;
    store_t *store = store_new_bounded(o.dir, (size_t)STORE_MEMORY_DEFAULT_MB << 20);
    probe_value_t v;
    if (!store || probe_position(store, &p, &v) < 0) {
        args_error("probe", "%s (generate tables with: octad solve --tables %s)", store ? store_error(store) : "out of memory", o.dir);
        store_destroy(&store);
        return EXIT_FAIL;
    }
    answer_print(stdout, store, &p, &v, o.json, o.pv);
    if (o.json)
        printf("\n");
    store_destroy(&store);
    return EXIT_OK;
}

static void s_progress(void *ctx, const solve_progress_t *p)
{
    const s_opts_t *o = ctx;
    if (o->quiet)
        return;
    double rate = p->seconds > 0 ? (double)p->positions / p->seconds : 0;
    char eta[32] = "";
    if (p->eta >= 0)
        snprintf(eta, sizeof eta, ", ETA %.0f s", p->eta);
    fprintf(stderr, "solve: [%d/%d] %-12s %s; %llu positions, %.2f M/s, %.1f%% of slots, %.1f s%s\n",
            p->pairs_done, p->pairs_total, p->name, p->skipped ? "already there" : "solved",
            (unsigned long long)p->positions, rate / 1e6,
            p->slots_total ? 100.0 * (double)p->slots_done / (double)p->slots_total : 100.0, p->seconds, eta);
}

static int s_make_dir(const char *dir)
{
    if (mkdir(dir, 0755) == 0 || errno == EEXIST)
        return 0;
    args_error("solve", "cannot create the table directory %s: %s", dir, strerror(errno));
    return -1;
}

static void s_repacked(void *ctx, const char *name, uint64_t before, uint64_t after)
{
    const s_opts_t *o = ctx;
    if (!o->quiet)
        fprintf(stderr, "solve: %s repacked, %.1f MB -> %.1f MB\n", name, (double)before / 1e6, (double)after / 1e6);
}

/* octad solve --repack: every version-1 file in the directory becomes version 2. */
static int s_repack(const s_opts_t *o)
{
    if (o->text || o->max_pieces > 0) {
        args_error("solve", "--repack takes no position and no --max-pieces");
        return EXIT_USAGE;
    }
    repack_stats_t st;
    char err[512];
    int rc = repack_dir(o->dir, s_repacked, (void *)o, &st, err, sizeof err);
    if (o->json)
        printf("{\"files\":%d,\"repacked\":%d,\"bytes_before\":%llu,\"bytes_after\":%llu,\"ok\":%s}\n", st.files,
               st.repacked, (unsigned long long)st.bytes_before, (unsigned long long)st.bytes_after,
               rc == 0 ? "true" : "false");
    else if (rc == 0)
        printf("%d table files, %d repacked (%.1f MB -> %.1f MB)\n", st.files, st.repacked,
               (double)st.bytes_before / 1e6, (double)st.bytes_after / 1e6);
    if (rc < 0) {
        args_error("solve", "%s", err);
        return EXIT_FAIL;
    }
    return EXIT_OK;
}

int cmd_solve(int argc, char **argv)
{
    s_opts_t o;
    int rc = s_parse(true, argc, argv, &o);
    if (rc != 0)
        return rc < 0 ? EXIT_OK : rc;
    if (o.repack && o.count) {
        args_error("solve", "--repack and --count are separate jobs: give one");
        return EXIT_USAGE;
    }
    if (o.repack)
        return s_repack(&o);
    if (o.count) {
        if (o.text) {
            args_error("solve", "--count takes no position");
            return EXIT_USAGE;
        }
        return solve_count_run(o.dir, o.max_pieces > 0 ? (int)o.max_pieces : 8, o.json, o.quiet);
    }
    octad_pos_t p;
    if (s_position("solve", o.text, &p) < 0 || s_make_dir(o.dir) < 0)
        return EXIT_USAGE;
    index_init();
    solve_opts_t so = {.dir = o.dir, .max_pieces = (int)o.max_pieces, .threads = (int)o.threads,
                       .memory = o.memory, .progress = s_progress, .ctx = &o};
    gen_stats_t st = {0};
    char err[512];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (o.max_pieces > 0) {
        if (solve_all(&so, &st, err, sizeof err) < 0 || solve_write_summary(o.dir, err, sizeof err) < 0) {
            args_error("solve", "%s", err);
            return EXIT_FAIL;
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
        if (o.json)
            printf("{\"max_pieces\":%ld,\"positions\":%llu,\"seconds\":%.3f,\"win\":%llu,\"cursed_win\":%llu,"
                   "\"draw\":%llu,\"blessed_loss\":%llu,\"loss\":%llu,\"max_dtz\":%d,\"max_dtm\":%d}\n",
                   o.max_pieces, (unsigned long long)st.positions, s, (unsigned long long)st.counts[REC_WIN],
                   (unsigned long long)st.counts[REC_CURSED], (unsigned long long)st.counts[REC_DRAW],
                   (unsigned long long)st.counts[REC_BLESSED], (unsigned long long)st.counts[REC_LOSS], st.max_dtz,
                   st.max_dtm);
        else
            printf("solved %llu positions in %.2f s (%.2f M/s); tables and SUMMARY in %s\n",
                   (unsigned long long)st.positions, s, s > 0 ? st.positions / s / 1e6 : 0.0, o.dir);
        return EXIT_OK;
    }
    octad_pos_t w = p;
    if (w.side != OCTAD_WHITE)
        index_flip(&p, &w);
    int table = index_table_of(&w);
    int *pairs = malloc(sizeof *pairs * (size_t)sig_pair_nb());
    int n = pairs ? solve_closure(table, pairs) : 0;
    store_t *store = store_new(o.dir);
    for (int i = 0; i < n && store; i++) {
        if (solve_pair_done(o.dir, pairs[i]))
            continue;
        if (solve_pair(store, pairs[i], &so, &st, err, sizeof err) < 0) {
            args_error("solve", "%s", err);
            store_destroy(&store);
            free(pairs);
            return EXIT_FAIL;
        }
        char name[SIG_NAME_MAX];
        sig_table_name(sig_pair_table(pairs[i]), name, sizeof name);
        if (!o.quiet)
            fprintf(stderr, "solve: %s solved (%llu positions so far)\n", name, (unsigned long long)st.positions);
    }
    free(pairs);
    probe_value_t v;
    if (!store || probe_position(store, &p, &v) < 0) {
        args_error("solve", "%s", store ? store_error(store) : "out of memory");
        store_destroy(&store);
        return EXIT_FAIL;
    }
    answer_print(stdout, store, &p, &v, o.json, false);
    if (o.json)
        printf("\n");
    store_destroy(&store);
    return EXIT_OK;
}
