/* opts.c: parsing and checking the coordinator's command line (see opts.h). */
#include "opts.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "count.h"
#include "game.h"
#include "solve.h"

static const char s_help[] =
    "usage: coordinator --perft N [options]\n"
    "       coordinator --solve [--max-pieces N | --ofen POS | --starts] [--tables DIR] [options]\n"
    "       coordinator --analyse D [--multipv all] [--moves M...] [options]\n"
    "       coordinator keygen [PREFIX]\n"
    "Computes an exact perft on a cluster of workers (OCTP/1 over ZeroMQ), solves the\n"
    "octad tablebases across them (OCTP/2), or analyses a position (OCTP/3).\n\n"
    "  --perft N            depth to count (1..40, required)\n"
    "  --solve              solve every octad table pair up to --max-pieces, each pair on a\n"
    "                       worker once the pairs it needs are done; tables travel over the\n"
    "                       protocol in checksummed chunks, or a worker started with the same\n"
    "                       --tables reads and writes them there; the directory is the journal:\n"
    "                       rerun the same command to resume; writes DIR/SUMMARY at the end\n"
    "  --max-pieces N       solve: pieces on the board, kings included (2..8, default 4)\n"
    "  --starts             solve: the tables the 144 deployed octad starts need (the\n"
    "                       8-piece game), then print each start's value, dtz, dtm and\n"
    "                       best moves (39 is the standard start) and a tally\n"
    "  --tables DIR         solve: the table directory (default: $OCTAD_TABLES or ./octad-tables)\n"
    "  --memory GB          solve: what the pairs this machine's local workers solve or verify\n"
    "                       at once may take together at their peak (decimal GB; default 3/4\n"
    "                       of RAM; a pair alone always may); remote workers: worker --memory\n"
    "  --analyse D          search every legal root move alone to depth D (1..100) on the\n"
    "                       workers, one task per move (the deterministic search of octad\n"
    "                       search --split --depth D); prints the best line and bestmove\n"
    "  --multipv all        analyse: print every root move's score and PV, best first\n"
    "  --moves \"M1 M2 ...\"  analyse: moves played from the position to the one analysed\n"
    "                       (they count for repetitions and the move clock)\n"
    "  --variant V          octad (default), chess or chess960\n"
    "  --ofen POS, --fen POS  the root position (default: the variant's start); with\n"
    "                       --solve: solve the tables POS needs and print its value\n"
    "  --start N            chess960: start position N (0-959)\n"
    "  --bind ENDPOINT      accept remote workers there (e.g. tcp://0.0.0.0:5555);\n"
    "                       default: a unix socket in a private directory (mode 0700),\n"
    "                       for this coordinator's own local workers only\n"
    "  --insecure           allow plain TCP on a non-loopback --bind (else CURVE is required)\n"
    "  --local-workers K    compute threads to run here (default: one per core; 0 = none):\n"
    "                       one worker process of K threads sharing one table, or\n"
    "                       with --verify K worker processes of one thread each\n"
    "  --split-depth D|auto frontier ply of the tasks (D < N); auto = at least 32 tasks\n"
    "                       per local thread, and at least 256 with --bind, --hash 0,\n"
    "                       --stats, --verify or chess (default auto)\n"
    "  --divide             print the count below each root move (N >= 2)\n"
    "  --stats              counts by kind at the last ply (workers use no hash table)\n"
    "  --journal FILE       record finished tasks; rerun the same command to resume\n"
    "  --verify             compute every task on two different workers and compare; with\n"
    "                       --solve, each pair is checked by the independent verifier on\n"
    "                       another worker than its maker before it counts (DIR/VERIFIED)\n"
    "  --expect COUNT       the total that must come out (exit 3 otherwise)\n"
    "  --json               print the result as one JSON object\n"
    "  --hash MB            table MiB of each local worker process (default 64); its\n"
    "                       threads share it for octad, else split it; with --analyse the\n"
    "                       table of every search, on every worker (1..65536, default 64)\n"
    "  --heartbeat-ms MS    heartbeat interval (default 1000)\n"
    "  --liveness N         heartbeats missed before a worker is dead (3..5, default 3)\n"
    "  --lease-ms MS        a task returns to the queue when its worker is silent this\n"
    "                       long (default liveness x heartbeat; at least 2 x heartbeat)\n"
    "  --stall-timeout MS   when tasks are left that no connected worker may take (all\n"
    "                       refused them, or --verify waits for another worker), end the\n"
    "                       job after MS (default 300000; 0 = wait for ever): exit 3 with\n"
    "                       the disputed tasks listed under --verify, else exit 1\n"
    "  --curve-secret FILE  CURVE: the coordinator's secret key file\n"
    "  --allow FILE         CURVE: a file of allowed worker public keys (repeatable)\n"
    "  --bench-dispatch N   benchmark: dispatch N empty tasks (depth 0) and report tasks/s\n"
    "  --worker-prefetch N  local workers ask for N tasks beyond their threads, hiding the\n"
    "                       round trip and sending results in batches (default 16)\n"
    "  --endpoint-file FILE write the bound endpoint (e.g. tcp://127.0.0.1:41234) to FILE\n"
    "  --quiet              no progress or logs on stderr\n"
    "  --help               this text\n\n"
    "keygen writes PREFIX.key (secret, mode 0600) and PREFIX.pub (default PREFIX: coordinator).\n"
    "Exit status: 0 ok, 1 failure, 2 bad usage or input, 3 total differs from the reference\n"
    "or --verify left tasks whose results disagree (disputed, listed on stderr).\n";

void opts_help(void)
{
    fputs(s_help, stdout);
}

static int s_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int s_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("coordinator: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs(" (see coordinator --help)\n", stderr);
    va_end(ap);
    return EXIT_USAGE;
}

/* Parses an integer in [lo, hi]; 0, or EXIT_USAGE after a message. */
static int s_int(const char *opt, const char *text, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || v < lo || v > hi)
        return s_usage("%s: '%.40s' is not an integer in [%lld, %lld]", opt, text, lo, hi);
    *out = v;
    return 0;
}

/* Options that take a value; a NULL-terminated list. */
static const char *const s_valued[] = {
    "--perft", "--variant", "--ofen", "--fen", "--start", "--bind", "--local-workers",
    "--split-depth", "--journal", "--expect", "--hash", "--lease-ms", "--heartbeat-ms",
    "--liveness", "--stall-timeout", "--curve-secret", "--allow", "--bench-dispatch", "--worker-prefetch", "--endpoint-file",
    "--max-pieces", "--tables", "--memory", "--analyse", "--multipv", "--moves", NULL};

static bool s_takes_value(const char *a)
{
    for (int i = 0; s_valued[i]; i++)
        if (strcmp(a, s_valued[i]) == 0)
            return true;
    return false;
}

static int s_flag(opts_t *o, const char *a)
{
    if (strcmp(a, "--divide") == 0) o->divide = true;
    else if (strcmp(a, "--stats") == 0) o->stats = true;
    else if (strcmp(a, "--verify") == 0) o->verify = true;
    else if (strcmp(a, "--json") == 0) o->json = true;
    else if (strcmp(a, "--quiet") == 0) o->quiet = true;
    else if (strcmp(a, "--insecure") == 0) o->insecure = true;
    else if (strcmp(a, "--solve") == 0) o->solve = true;
    else if (strcmp(a, "--starts") == 0) o->starts = true;
    else return s_usage("unknown option '%.40s'", a);
    return 0;
}

/* Numeric options; `a` is known to take a value. */
static int s_number(opts_t *o, const char *a, const char *v)
{
    long long n = 0;
    int rc = 0;
    if (strcmp(a, "--perft") == 0 && !(rc = s_int(a, v, 1, 40, &n))) o->depth = (int)n;
    else if (strcmp(a, "--start") == 0 && !(rc = s_int(a, v, 0, 959, &n))) o->start = (long)n;
    else if (strcmp(a, "--local-workers") == 0 && !(rc = s_int(a, v, 0, 256, &n))) o->local_workers = (int)n;
    else if (strcmp(a, "--hash") == 0 && !(rc = s_int(a, v, 0, 1 << 20, &n))) o->hash_mb = (size_t)n;
    else if (strcmp(a, "--lease-ms") == 0 && !(rc = s_int(a, v, 20, 86400000, &n))) o->lease_ms = (uint32_t)n;
    else if (strcmp(a, "--heartbeat-ms") == 0 && !(rc = s_int(a, v, 10, 3600000, &n))) o->heartbeat_ms = (uint32_t)n;
    else if (strcmp(a, "--liveness") == 0 && !(rc = s_int(a, v, 3, 5, &n))) o->liveness = (uint32_t)n;
    else if (strcmp(a, "--stall-timeout") == 0 && !(rc = s_int(a, v, 0, 86400000, &n))) o->stall_ms = (uint32_t)n;
    else if (strcmp(a, "--bench-dispatch") == 0 && !(rc = s_int(a, v, 1, 100000000, &n))) o->bench_dispatch = (uint64_t)n;
    else if (strcmp(a, "--worker-prefetch") == 0 && !(rc = s_int(a, v, 0, 64, &n))) o->worker_prefetch = (int)n;
    else if (strcmp(a, "--max-pieces") == 0 && !(rc = s_int(a, v, 2, 8, &n))) o->max_pieces = (int)n;
    else if (strcmp(a, "--analyse") == 0 && !(rc = s_int(a, v, 1, 100, &n))) o->analyse = (int)n;
    else if (strcmp(a, "--split-depth") == 0) {
        if (strcmp(v, "auto") == 0) o->split_depth = -1;
        else if (!(rc = s_int(a, v, 0, 39, &n))) o->split_depth = (int)n;
    }
    return rc;
}

static int s_value(opts_t *o, const char *a, const char *v)
{
    if (strcmp(a, "--variant") == 0) {
        if (game_variant_parse(v, &o->variant) != 0)
            return s_usage("--variant: unknown variant '%.40s' (octad, chess, chess960)", v);
    } else if (strcmp(a, "--ofen") == 0 || strcmp(a, "--fen") == 0) {
        o->text = v;
    } else if (strcmp(a, "--bind") == 0) {
        o->bind = v;
    } else if (strcmp(a, "--tables") == 0) {
        if (v[0] == '\0')
            return s_usage("--tables: give a directory");
        o->tables = v;
    } else if (strcmp(a, "--memory") == 0) {
        if (solve_parse_memory(v, &o->memory) != 0)
            return s_usage("--memory: '%.40s' is not a number of GB in (0, 1000000]", v);
    } else if (strcmp(a, "--multipv") == 0) {
        if (strcmp(v, "all") != 0 && strcmp(v, "1") != 0)
            return s_usage("--multipv: give 'all' (every root move) or 1 (the best), not '%.40s'", v);
        o->multipv_all = strcmp(v, "all") == 0;
    } else if (strcmp(a, "--moves") == 0) {
        o->moves = v;
    } else if (strcmp(a, "--endpoint-file") == 0) {
        o->endpoint_file = v;
    } else if (strcmp(a, "--journal") == 0) {
        o->journal = v;
    } else if (strcmp(a, "--curve-secret") == 0) {
        o->curve_secret = v;
    } else if (strcmp(a, "--allow") == 0) {
        if (o->allow_nb >= OPTS_ALLOW_MAX)
            return s_usage("--allow: at most %d files", OPTS_ALLOW_MAX);
        o->allow[o->allow_nb++] = v;
    } else if (strcmp(a, "--expect") == 0) {
        if (count_parse(v, &o->expect) != 0)
            return s_usage("--expect: '%.40s' is not a decimal count", v);
        o->have_expect = true;
    } else {
        return s_number(o, a, v);
    }
    return 0;
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
        return strstr(ep, "://")[3] != '\0' ? 0 : s_usage("--bind %.60s: no path", ep);
    if (strncmp(ep, "tcp://", 6) != 0)
        return s_usage("--bind %.60s: give tcp://HOST:PORT (or ipc://PATH)", ep);
    const char *host = ep + 6, *colon = strrchr(host, ':');
    if (colon == NULL || colon == host || (host[0] == '[' && colon[-1] != ']'))
        return s_usage("--bind %.60s: give tcp://HOST:PORT, PORT 1-65535 or *", ep);
    const char *port = colon + 1;
    if (strcmp(port, "*") != 0) {
        char *end;
        errno = 0;
        long n = strtol(port, &end, 10);
        if (errno != 0 || end == port || *end != '\0' || port[0] == '+' || port[0] == '-' || n < 1 || n > 65535)
            return s_usage("--bind %.60s: port '%.20s' is not 1-65535 or *", ep, port);
    }
    *loopback = s_loopback_host(host, (size_t)(colon - host));
    return 0;
}

/* --solve against the perft options; fills the solve defaults. */
static int s_check_solve(opts_t *o)
{
    if (!o->solve) {
        if (o->max_pieces || o->tables || o->starts || o->memory > 0)
            return s_usage("--max-pieces, --starts, --memory and --tables go with --solve");
        return 0;
    }
    if (o->depth || o->bench_dispatch || o->divide || o->stats || o->journal || o->have_expect ||
        o->start >= 0 || o->split_depth >= 0 || o->variant != VARIANT_OCTAD)
        return s_usage("--solve takes none of the perft options (--perft, --divide, --stats, --journal, "
                       "--expect, --split-depth, --variant): its journal is --tables DIR");
    if ((o->text != NULL) + o->starts + (o->max_pieces != 0) > 1)
        return s_usage("--solve: give one of --max-pieces N, --ofen POS and --starts");
    if (o->max_pieces == 0 && o->text == NULL && !o->starts)
        o->max_pieces = 4;
    if (o->tables == NULL) {
        const char *env = getenv("OCTAD_TABLES");
        o->tables = env && *env ? env : "octad-tables";
    }
    return 0;
}

/* --analyse against the perft and solve options. */
static int s_check_analyse(opts_t *o, bool multipv_given)
{
    if (!o->analyse) {
        if (multipv_given || o->moves)
            return s_usage("--multipv and --moves go with --analyse");
        return 0;
    }
    if (o->depth || o->solve || o->bench_dispatch || o->divide || o->stats || o->have_expect || o->split_depth >= 0)
        return s_usage("--analyse takes none of --perft, --solve, --bench-dispatch, --divide, --stats, --expect "
                       "and --split-depth (one task per root move)");
    if (o->hash_mb < 1 || o->hash_mb > 65536)
        return s_usage("--hash %zu: an analysis's table is 1..65536 MiB", o->hash_mb);
    return 0;
}

/* Cross-option rules, once everything is read. */
static int s_check(opts_t *o, bool multipv_given)
{
    if (s_check_analyse(o, multipv_given) != 0 || s_check_solve(o) != 0)
        return EXIT_USAGE;
    if (o->depth == 0 && o->bench_dispatch == 0 && !o->solve && !o->analyse)
        return s_usage("--perft N is required (or --solve, or --analyse D)");
    if (o->bench_dispatch > 0)
        o->depth = 0;
    if (o->split_depth >= 0 && o->depth > 0 && o->split_depth >= o->depth)
        return s_usage("--split-depth %d must be less than --perft %d", o->split_depth, o->depth);
    if (o->divide && (o->depth < 2 || o->split_depth == 0))
        return s_usage("--divide needs --perft 2 or more and a split depth of at least 1");
    if (o->liveness == 0)
        o->liveness = 3;
    if (o->lease_ms == 0)
        o->lease_ms = o->heartbeat_ms * o->liveness;
    if (o->lease_ms < 2 * o->heartbeat_ms)
        return s_usage("--lease-ms %u must be at least twice --heartbeat-ms %u", o->lease_ms, o->heartbeat_ms);
    if (o->start >= 0 && o->variant != VARIANT_CHESS960)
        return s_usage("--start: only for --variant chess960");
    if (o->start >= 0 && o->text != NULL)
        return s_usage("--start and --fen: give one position, not both");
    if ((o->curve_secret == NULL) != (o->allow_nb == 0))
        return s_usage("CURVE needs both --curve-secret and at least one --allow");
    bool loopback = true;
    if (o->bind != NULL && s_check_bind(o->bind, &loopback) != 0)
        return EXIT_USAGE;
    if (!loopback && o->curve_secret == NULL && !o->insecure)
        return s_usage("--bind %.60s is not loopback: give --curve-secret and --allow, or --insecure", o->bind);
    if (o->curve_secret != NULL && o->local_workers > 0)
        return s_usage("--local-workers: local workers cannot join a CURVE socket; start them as remote workers with keys");
#ifndef OCTAD_HAVE_CURVE
    if (o->curve_secret != NULL)
        return s_usage("--curve-secret: this coordinator was built without CURVE support");
#endif
    return 0;
}

int opts_parse(int argc, char **argv, opts_t *o)
{
    *o = (opts_t){.variant = VARIANT_OCTAD, .start = -1, .local_workers = -1, .split_depth = -1,
                  .hash_mb = 64, .heartbeat_ms = 1000, .worker_prefetch = 16,
                  .stall_ms = 300000};
    bool multipv_given = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int rc;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            opts_help();
            return -1;
        }
        if (!s_takes_value(a)) {
            if ((rc = s_flag(o, a)) != 0)
                return rc;
            continue;
        }
        if (i + 1 >= argc)
            return s_usage("%s needs a value", a);
        multipv_given |= strcmp(a, "--multipv") == 0;
        if ((rc = s_value(o, a, argv[++i])) != 0)
            return rc;
    }
    if (o->local_workers < 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        o->local_workers = o->curve_secret != NULL ? 0 : cores > 0 ? (int)cores : 1;
    }
    return s_check(o, multipv_given);
}
