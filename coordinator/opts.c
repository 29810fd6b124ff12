/* opts.c: parsing and checking the coordinator's command line (see opts.h). */
#include "opts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "count.h"
#include "err.h"
#include "game.h"
#include "opt.h"
#include "variant_opt.h"

static const char s_prog[] = "coordinator";

static const char s_usage_text[] =
    "usage: coordinator --perft N [options]\n"
    "       coordinator --solve [--max-pieces N | --ofen POS | --starts] [--tables DIR] [options]\n"
    "       coordinator --analyse D [--multipv all] [--moves M...] [options]\n"
    "       coordinator keygen [PREFIX]\n"
    "Computes an exact perft on a cluster of workers (OCTP/1 over ZeroMQ), solves the\n"
    "octad tablebases across them (OCTP/2), or analyses a position (OCTP/3).\n\n";

static const char s_epilogue[] =
    "\nkeygen writes PREFIX.key (secret, mode 0600) and PREFIX.pub (default PREFIX: coordinator).\n"
    "Exit status: 0 ok, 1 failure, 2 bad usage or input, 3 total differs from the reference\n"
    "or --verify left tasks whose results disagree (disputed, listed on stderr).\n";

/* --split-depth D|auto: 0..39, or -1 for auto. */
static int s_split_depth(const char *text, void *field, char *err, size_t errlen)
{
    long long n = -1;
    if (strcmp(text, "auto") != 0 && opt_read_int(text, 0, 39, &n, err, errlen) != 0)
        return err_printf(err, errlen, "expected 'auto' or an integer in 0..39, got '%.40s'", text);
    *(int *)field = (int)n;
    return 0;
}

/* --multipv all|1: -1 every root move, 1 the best. */
static int s_multipv(const char *text, void *field, char *err, size_t errlen)
{
    if (strcmp(text, "all") != 0 && strcmp(text, "1") != 0)
        return err_printf(err, errlen, "give 'all' (every root move) or 1 (the best), not '%.40s'", text);
    *(int *)field = strcmp(text, "all") == 0 ? -1 : 1;
    return 0;
}

/* --expect COUNT; the field is the whole opts_t. */
static int s_expect(const char *text, void *field, char *err, size_t errlen)
{
    opts_t *o = field;
    if (count_parse(text, &o->expect) != 0)
        return err_printf(err, errlen, "'%.40s' is not a decimal count", text);
    o->have_expect = true;
    return 0;
}

/* --http [ADDR:]PORT (serve_query.h); the field is the whole opts_t. */
static int s_status(const char *text, void *field, char *err, size_t errlen)
{
    opts_t *o = field;
    if (serve_listen_parse(text, &o->status, err, errlen) != 0)
        return -1;
    o->have_status = true;
    return 0;
}

/* --allow FILE, repeatable; the field is the whole opts_t. */
static int s_allow(const char *text, void *field, char *err, size_t errlen)
{
    opts_t *o = field;
    if (o->allow_nb >= OPTS_ALLOW_MAX)
        return err_printf(err, errlen, "at most %d files", OPTS_ALLOW_MAX);
    if (text[0] == '\0')
        return err_printf(err, errlen, "expected a non-empty value");
    o->allow[o->allow_nb++] = text;
    return 0;
}

#define C(field) OPT_AT(opts_t, field)
#define WHOLE .off = 0, .size = sizeof(opts_t)
static const opt_t s_rows[] = {
    {"--perft", 0, OPT_INT, "N", C(depth), "depth to count (1..40, required)", .lo = 1, .hi = 40},
    {"--solve", 0, OPT_FLAG, NULL, C(solve), "solve every octad table pair up to --max-pieces, each pair on a\n"
     "worker once the pairs it needs are done; tables travel over the\n"
     "protocol in checksummed chunks, or a worker started with the same\n"
     "--tables reads and writes them there; the directory is the journal:\n"
     "rerun the same command to resume; writes DIR/SUMMARY at the end"},
    {"--max-pieces", 0, OPT_INT, "N", C(max_pieces), "solve: pieces on the board, kings included (2..8, default 4)",
     .lo = 2, .hi = 8},
    {"--starts", 0, OPT_FLAG, NULL, C(starts), "solve: the tables the 144 deployed octad starts need (the\n"
     "8-piece game), then print each start's value, dtz, dtm and\n"
     "best moves (39 is the standard start) and a tally"},
    {"--tables", 0, OPT_TEXT, "DIR", C(tables), "solve: the table directory (default: $OCTAD_TABLES or ./octad-tables)"},
    {"--memory", 0, OPT_GB, "GB", C(memory), "solve: what the pairs this machine's local workers solve or verify\n"
     "at once may take together at their peak (decimal GB; default 3/4\n"
     "of RAM; a pair alone always may); remote workers: worker --memory"},
    {"--analyse", 0, OPT_INT, "D", C(analyse), "search every legal root move alone to depth D (1..100) on the\n"
     "workers, one task per move (the deterministic search of octad\n"
     "search --split --depth D); prints the best line and bestmove", .lo = 1, .hi = 100},
    {"--multipv", 0, OPT_CUSTOM, "all", C(multipv), "analyse: print every root move's score and PV, best first",
     .parse = s_multipv},
    {"--moves", 0, OPT_STRING, "\"M1 M2 ...\"", C(moves), "analyse: moves played from the position to the one analysed\n"
     "(they count for repetitions and the move clock)"},
    {"--variant", 0, OPT_CUSTOM, "V", C(variant), "octad (default), chess or chess960", .parse = variant_opt_parse},
    {"--ofen", 0, OPT_STRING, "POS", C(text), "the root position (default: the variant's start); with\n"
     "--solve: solve the tables POS needs and print its value", .alias = "--fen"},
    {"--start", 0, OPT_INT, "N", C(start), "chess960: start position N (0-959)", .lo = 0, .hi = 959},
    {"--bind", 0, OPT_TEXT, "ENDPOINT", C(bind), "accept remote workers there (e.g. tcp://0.0.0.0:5555);\n"
     "default: a unix socket in a private directory (mode 0700),\n"
     "for this coordinator's own local workers only"},
    {"--insecure", 0, OPT_FLAG, NULL, C(insecure), "allow plain TCP on a non-loopback --bind (else CURVE is required)"},
    {"--local-workers", 0, OPT_INT, "K", C(local_workers), "compute threads to run here (default: one per core; 0 = none):\n"
     "one worker process of K threads sharing one table, or\n"
     "with --verify K worker processes of one thread each", .lo = 0, .hi = 256},
    {"--split-depth", 0, OPT_CUSTOM, "D|auto", C(split_depth), "frontier ply of the tasks (D < N); auto = at least 32 tasks\n"
     "per local thread, and at least 256 with --bind, --hash 0,\n"
     "--stats, --verify or chess (default auto)", .parse = s_split_depth},
    {"--divide", 0, OPT_FLAG, NULL, C(divide), "print the count below each root move (N >= 2)"},
    {"--stats", 0, OPT_FLAG, NULL, C(stats), "counts by kind at the last ply (workers use no hash table)"},
    {"--journal", 0, OPT_TEXT, "FILE", C(journal), "record finished tasks; rerun the same command to resume"},
    {"--verify", 0, OPT_FLAG, NULL, C(verify), "compute every task on two different workers and compare; with\n"
     "--solve, each pair is checked by the independent verifier on\n"
     "another worker than its maker before it counts (DIR/solve.journal)"},
    {"--expect", 0, OPT_CUSTOM, "COUNT", WHOLE, "the total that must come out (exit 3 otherwise)", .parse = s_expect},
    {"--json", 0, OPT_FLAG, NULL, C(json), "print the result as one JSON object"},
    {"--hash", 0, OPT_INT, "MB", C(hash_mb), "table MiB of each local worker process (default 64); its\n"
     "threads share it for octad, else split it; with --analyse the\n"
     "table of every search, on every worker (1..65536, default 64)", .lo = 0, .hi = 1 << 20},
    {"--heartbeat-ms", 0, OPT_INT, "MS", C(heartbeat_ms), "heartbeat interval (default 1000)", .lo = 10, .hi = 3600000},
    {"--liveness", 0, OPT_INT, "N", C(liveness), "heartbeats missed before a worker is dead (3..5, default 3)",
     .lo = 3, .hi = 5},
    {"--lease-ms", 0, OPT_INT, "MS", C(lease_ms), "a task returns to the queue when its worker is silent this\n"
     "long (default liveness x heartbeat; at least 2 x heartbeat)", .lo = 20, .hi = 86400000},
    {"--stall-timeout", 0, OPT_INT, "MS", C(stall_ms), "when tasks are left that no connected worker may take (all\n"
     "refused them, or --verify waits for another worker), end the\n"
     "job after MS (default 300000; 0 = wait for ever): exit 3 with\n"
     "the disputed tasks listed under --verify, else exit 1", .lo = 0, .hi = 86400000},
    {"--no-copies", 0, OPT_FLAG, NULL, C(no_copies), "never hand an idle worker a copy of a task that runs late\n"
     "elsewhere (by default, once the queue is empty, idle workers get\n"
     "copies of the oldest running tasks and the first answer counts)"},
    {"--curve-secret", 0, OPT_TEXT, "FILE", C(curve_secret), "CURVE: the coordinator's secret key file"},
    {"--allow", 0, OPT_CUSTOM, "FILE", WHOLE, "CURVE: a file of allowed worker public keys (repeatable)",
     .parse = s_allow},
    {"--bench-dispatch", 0, OPT_INT, "N", C(bench_dispatch), "benchmark: dispatch N empty tasks (depth 0) and report tasks/s",
     .lo = 1, .hi = 100000000},
    {"--worker-prefetch", 0, OPT_INT, "N", C(worker_prefetch), "local workers ask for N tasks beyond their threads, hiding the\n"
     "round trip and sending results in batches (default 16)", .lo = 0, .hi = 64},
    {"--endpoint-file", 0, OPT_TEXT, "FILE", C(endpoint_file),
     "write the bound endpoint (e.g. tcp://127.0.0.1:41234) to FILE"},
    {"--http", 0, OPT_CUSTOM, "[ADDR:]PORT", WHOLE, "serve the job's live status over HTTP: GET / (a page),\n"
     "GET /status (JSON), GET /metrics (Prometheus); a port alone is\n"
     "127.0.0.1, 0 any free port (--status is the older spelling)", .parse = s_status, .alias = "--status"},
    {"--http-hold", 0, OPT_INT, "S", C(status_hold_s), "keep serving the final status S seconds after the job ends\n"
     "(a last scrape; default 0; also --status-hold)", .lo = 0, .hi = 86400, .alias = "--status-hold"},
    {"--report", 0, OPT_TEXT, "FILE", C(report), "when the job is done, write it for publishing as FILE.json and\n"
     "FILE.md: the result, the job, how it was verified, start and end,\n"
     "tasks, contributors, the version and its octad bench --quick\n"
     "signature (checked writable before the job starts)"},
    {"--dump-tasks", 0, OPT_TEXT, "FILE", C(dump_tasks), "when the job is done, write every task to FILE as CSV: its\n"
     "position, depth and multiplicity (perft), answer, amount, worker,\n"
     "seconds, source (run or journal), leases and requeues"},
    {"--log-format", 0, OPT_CUSTOM, "text|json", C(log_format), "log lines on stderr as text (default) or as one JSON object\n"
     "a line (time, level, component, message, fields); local\n"
     "workers log the same way", .parse = log_format_parse},
    {"--quiet", 0, OPT_FLAG, NULL, C(quiet), "no progress or logs on stderr"},
};
#undef C
#undef WHOLE

static const opt_spec_t s_spec = {.prog = s_prog, .usage = s_usage_text, .epilogue = s_epilogue, .rows = s_rows,
                                  .row_nb = sizeof s_rows / sizeof s_rows[0]};

void opts_help(void)
{
    opt_help(&s_spec, stdout);
}

/* Whether host (of a tcp:// endpoint) is this machine only: 127.x.y.z written
 * as four decimal numbers, localhost, [::1] or the interface lo. */
static bool s_loopback_host(const char *host, size_t len)
{
    static const char *const names[] = {"localhost", "[::1]", "lo"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (len == strlen(names[k]) && strncmp(host, names[k], len) == 0)
            return true;
    unsigned a, b, c, d;
    char tail;
    char text[32];
    if (len >= sizeof text)
        return false;
    memcpy(text, host, len);
    text[len] = '\0';
    return sscanf(text, "%3u.%3u.%3u.%3u%c", &a, &b, &c, &d, &tail) == 4 && a == 127 && b < 256 && c < 256 &&
           d < 256;
}

/* Checks a --bind endpoint: tcp://HOST:PORT (PORT 1..65535 or *; an IPv6
 * HOST in brackets), ipc://PATH or inproc://NAME. Sets *loopback. 0, or
 * EXIT_USAGE after a message. */
static int s_check_bind(const char *ep, bool *loopback)
{
    *loopback = strncmp(ep, "ipc://", 6) == 0 || strncmp(ep, "inproc://", 9) == 0;
    if (*loopback)
        return strstr(ep, "://")[3] != '\0' ? 0 : opt_usage(s_prog, "--bind %.60s: no path", ep);
    if (strncmp(ep, "tcp://", 6) != 0)
        return opt_usage(s_prog, "--bind %.60s: give tcp://HOST:PORT (or ipc://PATH)", ep);
    const char *host = ep + 6, *colon = strrchr(host, ':');
    if (colon == NULL || colon == host || (host[0] == '[' && colon[-1] != ']'))
        return opt_usage(s_prog, "--bind %.60s: give tcp://HOST:PORT, PORT 1-65535 or *", ep);
    const char *port = colon + 1;
    if (strcmp(port, "*") != 0) {
        char *end;
        errno = 0;
        long n = strtol(port, &end, 10);
        if (errno != 0 || end == port || *end != '\0' || port[0] == '+' || port[0] == '-' || n < 1 || n > 65535)
            return opt_usage(s_prog, "--bind %.60s: port '%.20s' is not 1-65535 or *", ep, port);
    }
    *loopback = s_loopback_host(host, (size_t)(colon - host));
    return 0;
}

/* --solve against the perft options; fills the solve defaults. */
static int s_check_solve(opts_t *o)
{
    if (!o->solve) {
        if (o->max_pieces || o->tables || o->starts || o->memory > 0)
            return opt_usage(s_prog, "--max-pieces, --starts, --memory and --tables go with --solve");
        return 0;
    }
    if (o->depth || o->bench_dispatch || o->divide || o->stats || o->journal || o->have_expect ||
        o->start >= 0 || o->split_depth >= 0 || o->variant != VARIANT_OCTAD)
        return opt_usage(s_prog, "--solve takes none of the perft options (--perft, --divide, --stats, --journal, "
                       "--expect, --split-depth, --variant): its journal is --tables DIR");
    if ((o->text != NULL) + o->starts + (o->max_pieces != 0) > 1)
        return opt_usage(s_prog, "--solve: give one of --max-pieces N, --ofen POS and --starts");
    if (o->max_pieces == 0 && o->text == NULL && !o->starts)
        o->max_pieces = 4;
    if (o->tables == NULL) {
        const char *env = getenv("OCTAD_TABLES");
        o->tables = env && *env ? env : "octad-tables";
    }
    return 0;
}

/* --analyse against the perft and solve options. */
static int s_check_analyse(opts_t *o)
{
    if (!o->analyse) {
        if (o->multipv != 0 || o->moves)
            return opt_usage(s_prog, "--multipv and --moves go with --analyse");
        return 0;
    }
    if (o->depth || o->solve || o->bench_dispatch || o->divide || o->stats || o->have_expect || o->split_depth >= 0)
        return opt_usage(s_prog, "--analyse takes none of --perft, --solve, --bench-dispatch, --divide, --stats, --expect "
                       "and --split-depth (one task per root move)");
    if (o->hash_mb < 1 || o->hash_mb > 65536)
        return opt_usage(s_prog, "--hash %zu: an analysis's table is 1..65536 MiB", o->hash_mb);
    return 0;
}

/* Cross-option rules, once everything is read. */
static int s_check(opts_t *o)
{
    if (s_check_analyse(o) != 0 || s_check_solve(o) != 0)
        return EXIT_USAGE;
    if (o->depth == 0 && o->bench_dispatch == 0 && !o->solve && !o->analyse)
        return opt_usage(s_prog, "--perft N is required (or --solve, or --analyse D)");
    if (o->bench_dispatch > 0)
        o->depth = 0;
    if (o->split_depth >= 0 && o->depth > 0 && o->split_depth >= o->depth)
        return opt_usage(s_prog, "--split-depth %d must be less than --perft %d", o->split_depth, o->depth);
    if (o->divide && (o->depth < 2 || o->split_depth == 0))
        return opt_usage(s_prog, "--divide needs --perft 2 or more and a split depth of at least 1");
    if (o->status_hold_s > 0 && !o->have_status)
        return opt_usage(s_prog, "--http-hold goes with --http");
    if (o->liveness == 0)
        o->liveness = 3;
    if (o->lease_ms == 0)
        o->lease_ms = o->heartbeat_ms * o->liveness;
    if (o->lease_ms < 2 * o->heartbeat_ms)
        return opt_usage(s_prog, "--lease-ms %u must be at least twice --heartbeat-ms %u", o->lease_ms, o->heartbeat_ms);
    if (o->start >= 0 && o->variant != VARIANT_CHESS960)
        return opt_usage(s_prog, "--start: only for --variant chess960");
    if (o->start >= 0 && o->text != NULL)
        return opt_usage(s_prog, "--start and --fen: give one position, not both");
    if ((o->curve_secret == NULL) != (o->allow_nb == 0))
        return opt_usage(s_prog, "CURVE needs both --curve-secret and at least one --allow");
    bool loopback = true;
    if (o->bind != NULL && s_check_bind(o->bind, &loopback) != 0)
        return EXIT_USAGE;
    if (!loopback && o->curve_secret == NULL && !o->insecure)
        return opt_usage(s_prog, "--bind %.60s is not loopback: give --curve-secret and --allow, or --insecure", o->bind);
    if (o->curve_secret != NULL && o->local_workers > 0)
        return opt_usage(s_prog, "--local-workers: local workers cannot join a CURVE socket; start them as remote workers with keys");
#ifndef OCTAD_HAVE_CURVE
    if (o->curve_secret != NULL)
        return opt_usage(s_prog, "--curve-secret: this coordinator was built without CURVE support");
#endif
    return 0;
}

int opts_parse(int argc, char **argv, opts_t *o)
{
    *o = (opts_t){.variant = VARIANT_OCTAD, .start = -1, .local_workers = -1, .split_depth = -1,
                  .hash_mb = 64, .heartbeat_ms = 1000, .worker_prefetch = 16,
                  .stall_ms = 300000};
    int rc = opt_parse(&s_spec, argc, argv, o);
    if (rc != 0)
        return rc;
    o->multipv_all = o->multipv < 0;
    if (o->local_workers < 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        o->local_workers = o->curve_secret != NULL ? 0 : cores > 0 ? (int)cores : 1;
    }
    return s_check(o);
}
