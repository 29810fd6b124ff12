/* main.c: the `worker` command: parses options, catches SIGTERM/SIGINT, runs worker_run. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exit_codes.h"
#include "game.h"
#include "solve.h"
#include "stop_signal.h"
#include "worker.h"

static const char s_help[] =
    "usage: worker --connect ENDPOINT [options]\n"
    "Computes perft tasks, and solves or verifies octad table pairs, for a coordinator\n"
    "(octad-cluster, OCTP/2), and searches root moves for an analysis (OCTP/3); older\n"
    "coordinators get OCTP/2 or OCTP/1.\n\n"
    "  --connect ENDPOINT  the coordinator, e.g. tcp://10.0.0.1:5555 (required)\n"
    "  --threads N         compute threads (default: one per core)\n"
    "  --hash MB           transposition table MiB (default 64); the threads share one\n"
    "                      where that stays exact (octad on x86-64 with AVX), else split it\n"
    "  --name NAME         name shown in the coordinator's logs (default host-pid)\n"
    "  --prefetch N        tasks to ask for beyond the threads, to hide latency (default 0)\n"
    "  --once              exit when the coordinator ends the job (BYE)\n"
    "  --tables DIR        solve tasks: the table cache (fetched and made tables); when DIR is\n"
    "                      the coordinator's --tables (same .octad-dir-id) tables are read and\n"
    "                      written there, with no transfer (default: a temporary cache,\n"
    "                      removed at exit)\n"
    "  --memory GB         solve tasks: the memory a pair solved here may take at its peak\n"
    "                      (decimal GB, e.g. 11.5; default: 3/4 of RAM); a pair estimated\n"
    "                      to need more is refused (REFUSE MEMORY) and goes to another worker\n"
    "  --protocol N        the highest protocol version to speak: 3 (default), 2 (no analysis)\n"
    "                      or 1 (perft only)\n"

    "  --server-key FILE   CURVE: the coordinator's public key file\n"
    "  --secret FILE       CURVE: this worker's secret key file (needs --server-key)\n"
    "  --quiet             only errors on stderr\n"
    "  --inject-fault N    TESTING ONLY: every Nth result is wrong by one (a count, or an\n"
    "                      analysis's score: to exercise --verify), and every Nth table chunk\n"
    "                      sent is corrupt (to exercise its CRC)\n"
    "  --test-spoil N      TESTING ONLY: every Nth pair made has a wrong record, its file\n"
    "                      otherwise sound (to exercise the verification of solve jobs)\n"
    "  --test-damage N     TESTING ONLY: every Nth pair made has one byte of a file changed\n"
    "                      after its checksums (to exercise the coordinator's check of files)\n"
    "  --test-delay-ms MS  TESTING ONLY: each solve, verify or analyse task waits MS before it starts\n"
    "  --help              this text\n\n"
    "SIGTERM/SIGINT hand unfinished tasks back and exit 0, within 3 s even if the coordinator\n"
    "is gone. Exit status 0, 1 failure, 2 bad usage.\n";

static int s_usage(const char *fmt, const char *what)
{
    fprintf(stderr, "worker: ");
    fprintf(stderr, fmt, what);
    fprintf(stderr, " (see worker --help)\n");
    return EXIT_USAGE;
}

/* Parses an integer option value in [lo, hi]; 0 ok, else prints and returns 2. */
static int s_int(const char *opt, const char *text, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "worker: %s: '%.40s' is not an integer in [%ld, %ld]\n", opt, text, lo, hi);
        return EXIT_USAGE;
    }
    *out = v;
    return 0;
}

/* Fills *o from argv; returns -1 (help printed), 0 ok, 2 usage error. */
static int s_parse(int argc, char **argv, worker_opts_t *o)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN), v;
    char host[40] = "worker";
    gethostname(host, sizeof host - 1);
    *o = (worker_opts_t){.threads = cores > 0 ? (int)cores : 1, .hash_mb = 64, .protocol = 3};
    snprintf(o->name, sizeof o->name, "%s-%ld", host, (long)getpid());
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes = strcmp(a, "--connect") == 0 || strcmp(a, "--threads") == 0 || strcmp(a, "--hash") == 0 ||
                     strcmp(a, "--name") == 0 || strcmp(a, "--prefetch") == 0 ||
                     strcmp(a, "--server-key") == 0 || strcmp(a, "--secret") == 0 ||
                     strcmp(a, "--inject-fault") == 0 || strcmp(a, "--tables") == 0 || strcmp(a, "--test-delay-ms") == 0 || strcmp(a, "--test-spoil") == 0 ||
                     strcmp(a, "--test-damage") == 0 ||
                     strcmp(a, "--protocol") == 0 || strcmp(a, "--memory") == 0;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(s_help, stdout);
            return -1;
        } else if (strcmp(a, "--quiet") == 0) {
            o->quiet = true;
        } else if (strcmp(a, "--once") == 0) {
            o->once = true;
        } else if (!takes) {
            return s_usage("unknown option '%.40s'", a);
        } else if (val == NULL) {
            return s_usage("%s needs a value", a);
        } else {
            i++;
            if (strcmp(a, "--connect") == 0)
                o->endpoint = val;
            else if (strcmp(a, "--name") == 0) {
                if (val[0] == '\0' || strlen(val) >= MSG_NAME_MAX)
                    return s_usage("--name: 1 to 63 bytes, not '%.70s'", val);
                snprintf(o->name, sizeof o->name, "%s", val);
            } else if (strcmp(a, "--server-key") == 0)
                o->server_key_file = val;
            else if (strcmp(a, "--secret") == 0)
                o->secret_file = val;
            else if (strcmp(a, "--tables") == 0) {
                if (val[0] == '\0')
                    return s_usage("%s: give a directory", "--tables");
                o->tables = val;
            } else if (strcmp(a, "--test-delay-ms") == 0) {
                if (s_int(a, val, 0, 3600000, &v))
                    return EXIT_USAGE;
                o->delay_ms = (unsigned)v;
            } else if (strcmp(a, "--test-spoil") == 0) {
                if (s_int(a, val, 0, 1000000, &v))
                    return EXIT_USAGE;
                o->spoil = (unsigned)v;
            } else if (strcmp(a, "--test-damage") == 0) {
                if (s_int(a, val, 0, 1000000, &v))
                    return EXIT_USAGE;
                o->damage = (unsigned)v;
            } else if (strcmp(a, "--memory") == 0) {
                if (solve_parse_memory(val, &o->memory) != 0)
                    return s_usage("--memory: '%.40s' is not a number of GB in (0, 1000000]", val);
            } else if (strcmp(a, "--protocol") == 0) {
                if (s_int(a, val, 1, 3, &v))
                    return EXIT_USAGE;
                o->protocol = (int)v;
            }
            else if (strcmp(a, "--threads") == 0) {
                if (s_int(a, val, 1, 1024, &v))
                    return EXIT_USAGE;
                o->threads = (int)v;
            } else if (strcmp(a, "--inject-fault") == 0) {
                if (s_int(a, val, 0, 1000000, &v))
                    return EXIT_USAGE;
                o->inject_fault = (unsigned)v;
            } else if (strcmp(a, "--prefetch") == 0) {
                if (s_int(a, val, 0, 64, &v))
                    return EXIT_USAGE;
                o->prefetch = (int)v;
            } else {
                if (s_int(a, val, 0, 1 << 20, &v))
                    return EXIT_USAGE;
                o->hash_mb = (size_t)v;
            }
        }
    }
    if (o->endpoint == NULL)
        return s_usage("%s is required", "--connect ENDPOINT");
    if (o->threads + o->prefetch > 1024)
        return s_usage("%s: threads + prefetch must be at most 1024", "--prefetch");
    if ((o->server_key_file == NULL) != (o->secret_file == NULL))
        return s_usage("%s: give both --server-key and --secret, or neither", "CURVE");
#ifndef OCTAD_HAVE_CURVE
    if (o->server_key_file != NULL)
        return s_usage("%s: this worker was built without CURVE support", "--server-key");
#endif
    return 0;
}

int main(int argc, char **argv)
{
    worker_opts_t opts;
    int rc = s_parse(argc, argv, &opts);
    if (rc != 0)
        return rc < 0 ? EXIT_OK : rc;
    int stop_fd = stop_signal_open();
    if (stop_fd < 0) {
        perror("worker: pipe");
        return EXIT_FAIL;
    }
    return worker_run(&opts, stop_fd);
}
