/* main.c: the `worker` command: parses options, catches SIGTERM/SIGINT, runs worker_run. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exit_codes.h"
#include "log_line.h"
#include "opt.h"
#include "serve_query.h"
#include "status_http.h"
#include "stop_signal.h"
#include "worker.h"
#include "worker_page.h"

static const char s_usage_text[] =
    "usage: worker --connect ENDPOINT [options]\n"
    "Computes perft tasks, and solves or verifies octad table pairs, for a coordinator\n"
    "(octad-cluster, OCTP/2), and searches root moves for an analysis (OCTP/3); older\n"
    "coordinators get OCTP/2 or OCTP/1.\n\n";

static const char s_epilogue[] =
    "\nSIGTERM/SIGINT hand unfinished tasks back and exit 0, within 3 s even if the coordinator\n"
    "is gone. Exit status 0, 1 failure, 2 bad usage, 4 --once gave up (no session for\n"
    "--once-wait seconds after one was lost).\n";

/* --name: 1 to MSG_NAME_MAX - 1 bytes, copied into the options. */
static int s_name(const char *text, void *field, char *err, size_t errlen)
{
    if (text[0] == '\0' || strlen(text) >= MSG_NAME_MAX) {
        snprintf(err, errlen, "1 to %d bytes, not '%.70s'", MSG_NAME_MAX - 1, text);
        return -1;
    }
    snprintf((char *)field, MSG_NAME_MAX, "%s", text);
    return 0;
}

/* The command line beyond worker_opts_t: --http [ADDR:]PORT, --log-format. */
typedef struct {
    worker_opts_t w;
    bool have_http;
    serve_listen_t http;
    log_format_t log_format;
} s_cli_t;

/* --http [ADDR:]PORT (serve_query.h); the field is the whole s_cli_t. */
static int s_http(const char *text, void *field, char *err, size_t errlen)
{
    s_cli_t *c = field;
    if (serve_listen_parse(text, &c->http, err, errlen) != 0)
        return -1;
    c->have_http = true;
    return 0;
}

#define W(field) OPT_AT(worker_opts_t, field)
static const opt_t s_rows[] = {
    {"--connect", 0, OPT_TEXT, "ENDPOINT", W(endpoint), "the coordinator, e.g. tcp://10.0.0.1:5555 (required)"},
    {"--threads", 0, OPT_INT, "N", W(threads), "compute threads (default: one per core)", .lo = 1, .hi = 1024},
    {"--hash", 0, OPT_INT, "MB", W(hash_mb), "transposition table MiB (default 64); the threads share one\n"
     "where that stays exact (octad on x86-64 with AVX), else split it", .lo = 0, .hi = 1 << 20},
    {"--name", 0, OPT_CUSTOM, "NAME", W(name), "name shown in the coordinator's logs (default host-pid)",
     .parse = s_name},
    {"--prefetch", 0, OPT_INT, "N", W(prefetch), "tasks to ask for beyond the threads, to hide latency (default 0)",
     .lo = 0, .hi = 64},
    {"--once", 0, OPT_FLAG, NULL, W(once), "exit when the coordinator ends the job (BYE)"},
    {"--once-wait", 0, OPT_INT, "S", W(once_wait_s), "with --once: after a session is lost, give up (exit 4) when no\n"
     "new one is welcomed within S seconds: the job most likely ended\n"
     "while this worker could not hear its BYE (default 60)", .lo = 1, .hi = 86400},
    {"--tables", 0, OPT_TEXT, "DIR", W(tables), "solve tasks: the table cache (fetched and made tables); when DIR is\n"
     "the coordinator's --tables (same .octad-dir-id) tables are read and\n"
     "written there, with no transfer (default: a temporary cache,\nremoved at exit)"},
    {"--memory", 0, OPT_GB, "GB", W(memory), "solve tasks: the memory a pair solved here may take at its peak\n"
     "(decimal GB, e.g. 11.5; default: 3/4 of RAM); a pair estimated\n"
     "to need more is refused (REFUSE MEMORY) and goes to another worker"},
    {"--protocol", 0, OPT_INT, "N", W(protocol), "the highest protocol version to speak: 4 (default), 3 (no CPU\n"
     "time reported), 2 (no analysis) or 1 (perft only)", .lo = 1, .hi = 4},
    {"--server-key", 0, OPT_TEXT, "FILE", W(server_key_file), "CURVE: the coordinator's public key file"},
    {"--secret", 0, OPT_TEXT, "FILE", W(secret_file), "CURVE: this worker's secret key file (needs --server-key)"},
    {"--quiet", 0, OPT_FLAG, NULL, W(quiet), "only errors on stderr"},
    {"--inject-fault", 0, OPT_INT, "N", W(inject_fault), "TESTING ONLY: every Nth result is wrong by one (a count, or an\n"
     "analysis's score: to exercise --verify), and every Nth table chunk\n"
     "sent is corrupt (to exercise its CRC)", .lo = 0, .hi = 1000000},
    {"--test-spoil", 0, OPT_INT, "N", W(spoil), "TESTING ONLY: every Nth pair made has a wrong record, its file\n"
     "otherwise sound (to exercise the verification of solve jobs)", .lo = 0, .hi = 1000000},
    {"--test-damage", 0, OPT_INT, "N", W(damage), "TESTING ONLY: every Nth pair made has one byte of a file changed\n"
     "after its checksums (to exercise the coordinator's check of files)", .lo = 0, .hi = 1000000},
    {"--test-delay-ms", 0, OPT_INT, "MS", W(delay_ms), "TESTING ONLY: each solve, verify or analyse task waits MS\n"
     "before it starts", .lo = 0, .hi = 3600000},
    {"--http", 0, OPT_CUSTOM, "[ADDR:]PORT", .off = 0, .size = sizeof(s_cli_t), .parse = s_http,
     .help = "serve this worker's live status over HTTP: GET / (a page),\n"
     "GET /status (JSON), GET /metrics (Prometheus); a port alone is\n127.0.0.1, 0 any free port"},
    {"--log-format", 0, OPT_CUSTOM, "text|json", OPT_AT(s_cli_t, log_format), .parse = log_format_parse, .help = "log lines on stderr as text (default) or as one JSON object a\n"
     "line (time, level, component, message, fields)"},
};
#undef W

static const opt_spec_t s_spec = {.prog = "worker", .usage = s_usage_text, .epilogue = s_epilogue, .rows = s_rows,
                                  .row_nb = sizeof s_rows / sizeof s_rows[0]};

/* Fills *c from argv; returns OPT_HELP (help printed), 0 ok, or EXIT_USAGE. */
static int s_parse(int argc, char **argv, s_cli_t *c)
{
    worker_opts_t *o = &c->w;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    char host[40] = "worker";
    gethostname(host, sizeof host - 1);
    *c = (s_cli_t){.w = {.threads = cores > 0 ? (int)cores : 1, .hash_mb = 64, .protocol = 4}};
    snprintf(o->name, sizeof o->name, "%s-%ld", host, (long)getpid());
    int rc = opt_parse(&s_spec, argc - 1, argv + 1, c);
    if (rc != 0)
        return rc;
    if (o->endpoint == NULL)
        return opt_usage("worker", "--connect ENDPOINT is required");
    if (o->once_wait_s != 0 && !o->once)
        return opt_usage("worker", "--once-wait: only with --once");
    if (o->once_wait_s == 0)
        o->once_wait_s = 60;
    if (o->threads + o->prefetch > 1024)
        return opt_usage("worker", "--prefetch: threads + prefetch must be at most 1024");
    if ((o->server_key_file == NULL) != (o->secret_file == NULL))
        return opt_usage("worker", "CURVE: give both --server-key and --secret, or neither");
#ifndef OCTAD_HAVE_CURVE
    if (o->server_key_file != NULL)
        return opt_usage("worker", "--server-key: this worker was built without CURVE support");
#endif
    return 0;
}

int main(int argc, char **argv)
{
    s_cli_t cli;
    char err[300];
    int rc = s_parse(argc, argv, &cli);
    if (rc != 0)
        return rc < 0 ? EXIT_OK : rc;
    log_setup(cli.log_format, "worker");
    if (cli.have_http) {
        cli.w.http = status_http_new(&cli.http, "--http", worker_page, worker_page_len, err, sizeof err);
        if (cli.w.http == NULL) {
            log_say(LOG_ERROR, NULL, "%s", err);
            return EXIT_USAGE;
        }
        cli.w.http_text = cli.http.text; /* worker_run names it once its first status is served */
    }
    int stop_fd = stop_signal_open();
    if (stop_fd < 0) {
        log_say(LOG_ERROR, NULL, "pipe: %s", strerror(errno));
        status_http_destroy(&cli.w.http);
        return EXIT_FAIL;
    }
    rc = worker_run(&cli.w, stop_fd);
    status_http_destroy(&cli.w.http);
    return rc;
}
