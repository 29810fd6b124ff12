/* cmd_serve.c: `octad serve`: the oracle over HTTP (serve/serve.h) until
 * SIGINT or SIGTERM. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "cmd.h"
#include "opt.h"
#include "serve.h"
#include "store.h"

#define DEFAULT_TABLES "octad-tables"
#define DEFAULT_LISTEN "127.0.0.1:8080"

static const char s_usage[] =
    "usage: octad serve [--tables DIR] [--listen [ADDR:]PORT] [--make N] [--threads N] [--timeout S]\n"
    "                   [--cache N] [--memory MB] [--retry S]\n"
    "Answers octad positions from the tables over HTTP, as JSON shaped like the\n"
    "lichess tablebase API's (docs/oracle.md, docs/oracle-openapi.yaml):\n"
    "  GET /api/v1/octad?ofen=OFEN            value, dtz, dtm (plies), every move best first\n"
    "  GET /api/v1/octad/mainline?ofen=OFEN   the best line to the end, as moves and PGN\n"
    "  GET /api/v1/octad/deployed             the 144 deployed starts\n"
    "  GET /api/v1/octad/svg?ofen=OFEN[&lastmove=UOI][&flip=1]   the board as SVG\n"
    "  GET /health                            for load balancers\n"
    "  GET /                                  the explorer: a page to click through positions\n"
    "Positions the tables in DIR do not cover answer category \"unknown\".\n"
    "Runs until interrupted (SIGINT, SIGTERM).\n\n";

typedef struct {
    const char *tables, *listen;
    long long make; /* --make N: pieces to solve first, or 0 */
    long long threads, timeout, cache, memory, retry;
} s_opts_t;

/* --listen [ADDR:]PORT, checked at once (the message names the problem). */
static int s_listen(const char *text, void *field, char *err, size_t errlen)
{
    serve_listen_t where;
    if (serve_listen_parse(text, &where, err, errlen) < 0)
        return -1;
    *(const char **)field = text;
    return 0;
}

#define F(field) OPT_AT(s_opts_t, field)
static const opt_t s_rows[] = {
    {"--tables", 0, OPT_TEXT, "DIR", F(tables), "table directory (default: $OCTAD_TABLES or ./" DEFAULT_TABLES ")"},
    {"--listen", 0, OPT_CUSTOM, "[ADDR:]PORT", F(listen), "where to listen (default " DEFAULT_LISTEN "; a port alone\n"
     "listens on 127.0.0.1; 0.0.0.0 or [::] for every interface;\n"
     "port 0: any free port, printed at start)", .parse = s_listen},
    {"--make", 0, OPT_INT, "N", F(make), "first solve every table up to N pieces (2-8) into DIR, as\n"
     "octad solve --max-pieces N does (progress on stderr; tables\n"
     "already there are kept), then serve them", .lo = 2, .hi = 8},
    {"--threads", 0, OPT_INT, "N", F(threads), "threads answering requests (default: one per core)", .lo = 1, .hi = 256},
    {"--timeout", 0, OPT_INT, "S", F(timeout), "seconds an idle connection is kept (default 10)", .lo = 1, .hi = 3600},
    {"--cache", 0, OPT_INT, "N", F(cache), "answers kept for positions asked again (default 10000,\n"
     "0: none; a few KB each)", .lo = 0, .hi = 10000000},
    {"--memory", 0, OPT_INT, "MB", F(memory), "memory for the tables' records (default 1024): blocks are\n"
     "read from the files as asked and the least recently used\n"
     "dropped, so the server stays within MB plus a fixed part\n"
     "(docs/oracle.md \"Memory\"); 0: no bound, each table read whole", .lo = 0, .hi = 16777216},
    {"--retry", 0, OPT_INT, "S", F(retry), "seconds before a table that could not be read is tried\n"
     "again (default 30; meanwhile its requests answer 503 saying when)", .lo = 1, .hi = 86400},
};
#undef F

static const opt_spec_t s_spec = {.prog = "octad serve", .usage = s_usage, .rows = s_rows,
                                  .row_nb = sizeof s_rows / sizeof s_rows[0]};

/* 0 ok, OPT_HELP (help shown), or EXIT_USAGE. */
static int s_parse(int argc, char **argv, s_opts_t *o, serve_opts_t *serve)
{
    const char *env = getenv("OCTAD_TABLES");
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    *o = (s_opts_t){.tables = env && *env ? env : DEFAULT_TABLES, .listen = DEFAULT_LISTEN,
                    .threads = n > 0 ? n : 1, .timeout = 10, .cache = 10000,
                    .memory = STORE_MEMORY_DEFAULT_MB, .retry = STORE_RETRY_DEFAULT};
    int rc = opt_parse(&s_spec, argc, argv, o);
    if (rc != 0)
        return rc;
    char err[256];
    *serve = (serve_opts_t){.tables = o->tables, .threads = (int)o->threads, .timeout_s = (int)o->timeout,
                            .cache = (size_t)o->cache, .memory = (size_t)o->memory << 20,
                            .retry_s = (int)o->retry, .log = stderr};
    if (serve_listen_parse(o->listen, &serve->listen, err, sizeof err) < 0)
        return opt_usage("octad serve", "%s", err); /* (the default cannot fail: checked as the rows are) */
    return 0;
}

int cmd_serve(int argc, char **argv)
{
    s_opts_t o;
    serve_opts_t so;
    int rc = s_parse(argc, argv, &o, &so);
    if (rc != 0)
        return rc == OPT_HELP ? EXIT_OK : rc;
    if (o.make) { /* the tables first, exactly as `octad solve --max-pieces N` makes them */
        char pieces[8];
        snprintf(pieces, sizeof pieces, "%lld", o.make);
        char *solve_args[] = {"--max-pieces", pieces, "--tables", (char *)o.tables, NULL};
        if ((rc = cmd_solve(4, solve_args)) != EXIT_OK)
            return rc;
    }
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL); /* before the server's threads start: they inherit it */
    char err[256];
    serve_t *server = serve_new(&so, err, sizeof err);
    if (!server) {
        args_error("serve", "%s", err);
        return EXIT_FAIL;
    }
    if (serve_table_files(server) == 0)
        fprintf(stderr,
                "octad serve: no table files in %s: every position that needs a table answers \"unknown\".\n"
                "  Make them with: octad solve --max-pieces 8 --tables %s   (all of octad: about 4 hours and\n"
                "  40 GB of disk on 2 cores; --max-pieces 5 takes seconds), then restart octad serve,\n"
                "  or start it with --make N to solve up to N pieces first.\n",
                so.tables, so.tables);
    const char *host = so.listen.text;
    printf("octad serve: %d table files in %s (every position with up to %d pieces covered); listening on "
           "http://%s:%d\n",
           serve_table_files(server), so.tables, serve_max_pieces(server), host, serve_port(server));
    fflush(stdout);
    int sig = 0;
    sigwait(&stop, &sig);
    printf("octad serve: stopping (%s)\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
    serve_destroy(&server);
    return EXIT_OK;
}
