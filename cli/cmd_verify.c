/* cmd_verify.c: `octad verify-tables`, the independent check of the solver's
 * table files (core/verify/: its own reader, index and value logic; shares only
 * core/octad's move generator with the generator). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "cmd.h"
#include "err.h"
#include "verify_journal.h"
#include "vt_check.h"
#include "vt_fwdcheck.h"

#define DEFAULT_TABLES "octad-tables"

typedef struct {
    const char *dir;
    const char *journal;
    const char **names;
    int nnames;
    long threads, clock_every, max_pieces;
    bool json, quiet, forward;
} s_opts_t;

static const char s_usage[] =
    "usage: octad verify-tables [TABLE...] [--tables DIR] [--threads N] [--journal FILE] [--json] [--quiet]\n"
    "       octad verify-tables --forward [TABLE...] [--tables DIR] [--clock-every N] [--json]\n"
    "Checks octad table files independently of the generator: the header, both\n"
    "CRC-32C checksums and the size; then every slot: illegal placements (and only\n"
    "they) are marked invalid, the index maps each position back to its slot, and\n"
    "each value agrees with one ply of look-ahead through the move generator:\n"
    "  win (G-50)    a move to a loss whose dtz is one less (a zeroing move counts 1)\n"
    "  loss (G-50)   every move to a win, the slowest exactly one less\n"
    "  draw          no move to a loss, and a move to a draw (or stalemate/no material)\n"
    "  cursed-win / blessed-loss the same without the 25-move rule; dtm in every\n"
    "                case: the fastest mate when winning, the slowest when losing.\n"
    "A child reached without zeroing stands at clock 1: won or lost there iff\n"
    "1 + dtz <= 50. Positions with a legal e.p. capture are valued by look-ahead.\n"
    "TABLE is a name like KQvK (default: every .otb file in DIR).\n"
    "With --forward, a different algorithm instead: the game graph reachable from\n"
    "each table's positions (both colours, mirrors) is built in memory and solved\n"
    "forward (fixpoint sweeps without the 25-move rule; exact minimax over\n"
    "(position, clock) with it), and every position in it is compared with the\n"
    "tables; every N-th also at every clock 0-49. Default TABLE: every table in DIR\n"
    "with at most --max-pieces pieces (default 4).\n"
    "Exit status: 0 all consistent, 1 an inconsistency, 2 bad usage or a table\n"
    "missing, unreadable or refused.\n\n";

/* TABLE: a table name like KQvK. */
static int s_plain(const char *arg, void *base, char *err, size_t errlen)
{
    s_opts_t *o = base;
    if (vt_table_parse(arg) < 0)
        return err_printf(err, errlen, "'%.40s' is not a table name (like KQvK)", arg);
    o->names[o->nnames++] = arg;
    return 0;
}

#define F(field) OPT_AT(s_opts_t, field)
static const opt_t s_rows[] = {
    {"--tables", 0, OPT_STRING, "DIR", F(dir), "table directory (default: $OCTAD_TABLES or ./" DEFAULT_TABLES ")"},
    {"--threads", 0, OPT_INT, "N", F(threads), "worker threads (default: one per core)", .lo = 1, .hi = 64},
    {"--journal", 0, OPT_STRING, "FILE", F(journal), "record each table found consistent there (name, file size and\n"
     "time; fsynced) and skip the tables it holds unchanged, so an\ninterrupted run resumes: rerun the same command"},
    {"--forward", 0, OPT_FLAG, NULL, F(forward), "compare with a forward search instead (small tables)"},
    {"--clock-every", 0, OPT_INT, "N", F(clock_every), "with --forward: every N-th position at every clock (default 1)",
     .lo = 0, .hi = 1000000000},
    {"--max-pieces", 0, OPT_INT, "N", F(max_pieces), "with --forward and no TABLE: tables up to N pieces (default 4)",
     .lo = 2, .hi = 8},
    {"--json", 0, OPT_FLAG, NULL, F(json), "one JSON summary on stdout"},
    {"--quiet", 0, OPT_FLAG, NULL, F(quiet), "no progress lines on stderr"},
};
#undef F

static const opt_spec_t s_spec = {.prog = "octad verify-tables", .usage = s_usage, .rows = s_rows,
                                  .row_nb = sizeof s_rows / sizeof s_rows[0], .plain = s_plain};

static int s_parse(int argc, char **argv, s_opts_t *o)
{
    const char *env = getenv("OCTAD_TABLES");
    *o = (s_opts_t){.dir = env && *env ? env : DEFAULT_TABLES, .threads = -1, .clock_every = 1, .max_pieces = 4};
    o->names = calloc((size_t)argc + 1, sizeof *o->names);
    if (!o->names)
        return EXIT_USAGE;
    int rc = opt_parse(&s_spec, argc, argv, o);
    if (rc != 0)
        return rc;
    if (o->threads < 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        o->threads = n > 0 ? n : 1;
    }
    return 0;
}

static int s_by_size(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    int d = vt_table_pieces(x) - vt_table_pieces(y);
    return d ? d : x - y;
}

/* Table ids to check: the named ones, or every *.otb in the directory. */
static int s_list(const s_opts_t *o, int *ids, int *n)
{
    *n = 0;
    if (o->nnames) {
        for (int i = 0; i < o->nnames; i++)
            ids[(*n)++] = vt_table_parse(o->names[i]);
        return 0;
    }
    DIR *d = opendir(o->dir);
    if (!d) {
        args_error("verify-tables", "cannot read directory '%s'", o->dir);
        return -1;
    }
    int rc = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".otb") != 0)
            continue;
        int id = vt_table_parse(e->d_name);
        if (id < 0) {
            args_error("verify-tables", "%s/%s: not a table name", o->dir, e->d_name);
            rc = -1;
        } else if (*n < VT_TABLE_NB) {
            ids[(*n)++] = id;
        }
    }
    closedir(d);
    qsort(ids, (size_t)*n, sizeof *ids, s_by_size);
    return rc;
}

/* s as a JSON string body (quotes, backslashes and control bytes escaped). */
static void s_json_text(const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
}

/* A table the journal holds unchanged: not checked again. */
static void s_print_journaled(const char *name, bool json, bool first)
{
    if (json)
        printf("%s{\"table\":\"%s\",\"status\":\"journaled\"}", first ? "" : ",", name);
    else
        printf("%-10s ok: in the journal, file unchanged\n", name);
}

static void s_print(const char *name, const vt_report_t *rep, int status, bool json, bool first)
{
    if (json) {
        printf("%s{\"table\":\"%s\",\"status\":\"%s\",\"records\":%llu,\"legal\":%llu,\"failures\":%llu,"
               "\"ranged\":%llu,\"seconds\":%.3f",
               first ? "" : ",", name, status == 0 ? "ok" : status == 1 ? "inconsistent" : "error",
               (unsigned long long)rep->records, (unsigned long long)rep->legal, (unsigned long long)rep->failures,
               (unsigned long long)rep->ranged, rep->seconds);
        if (status == 2) {
            printf(",\"error\":\"");
            s_json_text(rep->fatal);
            printf("\"");
        }
        printf(",\"first_failures\":[");
        for (int i = 0; i < rep->nkept; i++) {
            printf("%s\"", i ? "," : "");
            s_json_text(rep->kept[i]);
            printf("\"");
        }
        printf("]}");
        return;
    }
    if (status == 2) {
        fprintf(stderr, "octad verify-tables: %s\n", rep->fatal);
        return;
    }
    printf("%-10s %s: %llu records (%llu legal) in %.2f s", name, status == 0 ? "ok" : "INCONSISTENT",
           (unsigned long long)rep->records, (unsigned long long)rep->legal, rep->seconds);
    if (rep->failures)
        printf(", %llu inconsistencies", (unsigned long long)rep->failures);
    printf("\n");
    for (int i = 0; i < rep->nkept; i++)
        printf("  %s\n", rep->kept[i]);
}

/* --forward: each table's reachable graph solved forward and compared. */
static int s_forward(const s_opts_t *o, vt_store_t *st, const int *ids, int n)
{
    static vt_fwd_report_t rep;
    int status = EXIT_OK;
    uint64_t positions = 0, clocks = 0, failures = 0;
    if (o->json)
        printf("{\"forward\":[");
    for (int i = 0, shown = 0; i < n; i++) {
        if (!o->nnames && vt_table_pieces(ids[i]) > o->max_pieces)
            continue;
        char name[VT_NAME_MAX];
        vt_table_name(ids[i], name);
        int v = vt_fwd_check(st, &ids[i], 1, (uint32_t)o->clock_every, &rep);
        positions += rep.positions, clocks += rep.clocks, failures += rep.failures;
        status = v == 2 || status == EXIT_USAGE ? EXIT_USAGE : v == 1 ? EXIT_FAIL : status;
        if (v == 2)
            fprintf(stderr, "octad verify-tables: %s: %s\n", name, rep.fatal);
        if (o->json) {
            printf("%s{\"table\":\"%s\",\"status\":\"%s\",\"roots\":%llu,\"positions\":%llu,\"decisive\":%llu,"
                   "\"clocks\":%llu,\"cursed\":%llu,\"long_dtz\":%llu,\"failures\":%llu,\"seconds\":%.3f,\"first_failures\":[",
                   shown++ ? "," : "", name, v == 0 ? "ok" : v == 1 ? "inconsistent" : "error",
                   (unsigned long long)rep.roots, (unsigned long long)rep.positions,
                   (unsigned long long)rep.decisive, (unsigned long long)rep.clocks, (unsigned long long)rep.cursed,
                   (unsigned long long)rep.long_dtz, (unsigned long long)rep.failures, rep.seconds);
            for (int k = 0; k < rep.nkept; k++) {
                printf("%s\"", k ? "," : "");
                s_json_text(rep.kept[k]);
                printf("\"");
            }
            printf("]");
            if (v == 2) {
                printf(",\"error\":\"");
                s_json_text(rep.fatal);
                printf("\"");
            }
            printf("}");
        } else if (v != 2) {
            printf("%-10s %s: %llu positions reachable (%llu decisive, %llu cursed/blessed), %llu of them at every "
                   "clock (%llu with dtz >= 40), in %.2f s\n",
                   name, v == 0 ? "ok" : "DISAGREE", (unsigned long long)rep.positions,
                   (unsigned long long)rep.decisive, (unsigned long long)rep.cursed,
                   (unsigned long long)rep.clocks / 50, (unsigned long long)rep.long_dtz, rep.seconds);
            for (int k = 0; k < rep.nkept; k++)
                printf("  %s\n", rep.kept[k]);
        }
    }
    if (o->json)
        printf("],\"positions\":%llu,\"clocks\":%llu,\"failures\":%llu,\"status\":%d}\n",
               (unsigned long long)positions, (unsigned long long)clocks, (unsigned long long)failures, status);
    return status;
}

/* CPU seconds of this process, all threads (the machine is shared: rates per
 * CPU second are what a core does). */
static double s_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t s_half_ram(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size / 2 : (uint64_t)4 << 30;
}

int cmd_verify(int argc, char **argv)
{
    octad_init();
    vt_material_init();
    vt_index_init();
    s_opts_t o;
    int rc = s_parse(argc, argv, &o);
    if (rc) {
        free(o.names);
        return rc < 0 ? EXIT_OK : rc;
    }
    static int ids[VT_TABLE_NB];
    int n, status = s_list(&o, ids, &n) < 0 ? EXIT_USAGE : EXIT_OK;
    vt_store_t *st = vt_store_new(o.dir);
    if (o.forward && st) {
        int v = s_forward(&o, st, ids, n);
        vt_store_destroy(&st);
        free(o.names);
        return status == EXIT_USAGE ? EXIT_USAGE : v;
    }
    char jerr[600];
    verify_journal_t *journal = NULL;
    if (o.journal && st && !o.forward && !(journal = verify_journal_open(o.journal, o.dir, jerr, sizeof jerr))) {
        args_error("verify-tables", "%s", jerr);
        vt_store_destroy(&st);
        free(o.names);
        return EXIT_USAGE;
    }
    vt_check_opts_t copts = {.threads = (int)o.threads, .progress = o.quiet ? NULL : stderr};
    static vt_report_t rep;
    uint64_t records = 0, failures = 0;
    double seconds = 0, cpu0 = s_cpu();
    if (o.json)
        printf("{\"tables\":[");
    for (int i = 0; st && i < n; i++) {
        char name[VT_NAME_MAX], err[600];
        vt_table_name(ids[i], name);
        if (journal && verify_journal_done(journal, o.dir, name)) {
            s_print_journaled(name, o.json, i == 0);
            continue;
        }
        const vt_table_t *t = vt_store_get(st, ids[i], err, sizeof err);
        int v;
        if (!t) {
            memset(&rep, 0, sizeof rep);
            snprintf(rep.fatal, sizeof rep.fatal, "%s", err);
            v = 2;
        } else {
            v = vt_check_table(st, t, &copts, &rep);
        }
        s_print(name, &rep, v, o.json, i == 0);
        if (v == 0 && journal && verify_journal_add(journal, o.dir, name, jerr, sizeof jerr) != 0) {
            fprintf(stderr, "octad verify-tables: %s\n", jerr);
            status = EXIT_FAIL;
        }
        /* Decoded tables are not evictable like mapped ones: keep at most half the RAM. */
        vt_store_trim(st, s_half_ram());
        records += rep.records, failures += rep.failures, seconds += rep.seconds;
        status = v == 2 || status == EXIT_USAGE ? EXIT_USAGE : v == 1 ? EXIT_FAIL : status;
    }
    double rate = seconds > 0 ? records / seconds : 0, cpu = s_cpu() - cpu0;
    double core_rate = cpu > 0 ? records / cpu : 0;
    if (o.json)
        printf("],\"records\":%llu,\"failures\":%llu,\"seconds\":%.3f,\"cpu_seconds\":%.3f,"
               "\"records_per_second\":%.0f,\"records_per_cpu_second\":%.0f,\"threads\":%ld,\"status\":%d}\n",
               (unsigned long long)records, (unsigned long long)failures, seconds, cpu, rate, core_rate, o.threads,
               status);
    else
        printf("%d tables, %llu records, %llu inconsistencies, %.2f s on %ld threads (%.2f M records/s; %.2f M per "
               "CPU second)\n",
               n, (unsigned long long)records, (unsigned long long)failures, seconds, o.threads, rate / 1e6,
               core_rate / 1e6);
    verify_journal_close(&journal);
    vt_store_destroy(&st);
    free(o.names);
    return status;
}
