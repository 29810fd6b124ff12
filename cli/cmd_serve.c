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
#include "serve.h"

#define DEFAULT_TABLES "octad-tables"
#define DEFAULT_LISTEN "127.0.0.1:8080"

static void s_help(void)
{
    printf("usage: octad serve [--tables DIR] [--listen [ADDR:]PORT] [--make N] [--threads N] [--timeout S]\n"
           "                   [--cache N]\n"
           "Answers octad positions from the tables over HTTP, as JSON shaped like the\n"
           "lichess tablebase API's (docs/oracle.md, docs/oracle-openapi.yaml):\n"
           "  GET /api/v1/octad?ofen=OFEN            value, dtz, dtm (plies), every move best first\n"
           "  GET /api/v1/octad/mainline?ofen=OFEN   the best line to the end, as moves and PGN\n"
           "  GET /api/v1/octad/deployed             the 144 deployed starts\n"
           "  GET /api/v1/octad/svg?ofen=OFEN[&lastmove=UOI][&flip=1]   the board as SVG\n"
           "  GET /health                            for load balancers\n"
           "  GET /                                  the explorer: a page to click through positions\n"
           "Positions the tables in DIR do not cover answer category \"unknown\".\n"
           "Runs until interrupted (SIGINT, SIGTERM).\n\n"
           "  --tables DIR     table directory (default: $OCTAD_TABLES or ./" DEFAULT_TABLES ")\n"
           "  --listen [ADDR:]PORT  where to listen (default " DEFAULT_LISTEN "; a port alone\n"
           "                   listens on 127.0.0.1; 0.0.0.0 or [::] for every interface;\n"
           "                   port 0: any free port, printed at start)\n"
           "  --make N         first solve every table up to N pieces (2-8) into DIR, as\n"
           "                   octad solve --max-pieces N does (progress on stderr; tables\n"
           "                   already there are kept), then serve them\n"
           "  --threads N      threads answering requests (default: one per core)\n"
           "  --timeout S      seconds an idle connection is kept (default 10)\n"
           "  --cache N        answers kept for positions asked again (default 10000,\n"
           "                   0: none; a few KB each)\n"
           "  --help           this text\n");
}

typedef struct {
    serve_opts_t serve;
    const char *listen;
    const char *make; /* --make N: pieces to solve first, or NULL */
} s_opts_t;

/* 0 ok, -1 help shown, EXIT_USAGE. */
static int s_parse(int argc, char **argv, s_opts_t *o)
{
    const char *env = getenv("OCTAD_TABLES");
    long n = sysconf(_SC_NPROCESSORS_ONLN), threads = n > 0 ? n : 1, timeout = 10, cache = 10000;
    o->listen = DEFAULT_LISTEN;
    o->make = NULL;
    o->serve = (serve_opts_t){.tables = env && *env ? env : DEFAULT_TABLES, .log = stderr};
    for (int i = 0; i < argc; i++) {
        const char *v;
        int rc;
        if ((rc = args_value("serve", argc, argv, &i, "--tables", &v)) != 0) {
            if (rc < 0)
                return EXIT_USAGE;
            o->serve.tables = v;
        } else if ((rc = args_value("serve", argc, argv, &i, "--listen", &v)) != 0) {
            if (rc < 0)
                return EXIT_USAGE;
            o->listen = v;
        } else if ((rc = args_value("serve", argc, argv, &i, "--make", &v)) != 0) {
            long pieces;
            if (rc < 0 || args_int("serve", "--make", v, 2, 8, &pieces) < 0)
                return EXIT_USAGE;
            o->make = v;
        } else if ((rc = args_value("serve", argc, argv, &i, "--threads", &v)) != 0) {
            if (rc < 0 || args_int("serve", "--threads", v, 1, 256, &threads) < 0)
                return EXIT_USAGE;
        } else if ((rc = args_value("serve", argc, argv, &i, "--cache", &v)) != 0) {
            if (rc < 0 || args_int("serve", "--cache", v, 0, 10000000, &cache) < 0)
                return EXIT_USAGE;
        } else if ((rc = args_value("serve", argc, argv, &i, "--timeout", &v)) != 0) {
            if (rc < 0 || args_int("serve", "--timeout", v, 1, 3600, &timeout) < 0)
                return EXIT_USAGE;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            s_help();
            return -1;
        } else {
            args_error("serve", "unknown argument '%.40s' (see octad serve --help)", argv[i]);
            return EXIT_USAGE;
        }
    }
    char err[256];
    if (serve_listen_parse(o->listen, &o->serve.listen, err, sizeof err) < 0) {
        args_error("serve", "%s", err);
        return EXIT_USAGE;
    }
    o->serve.threads = (int)threads;
    o->serve.timeout_s = (int)timeout;
    o->serve.cache = (size_t)cache;
    return 0;
}

int cmd_serve(int argc, char **argv)
{
    s_opts_t o;
    int rc = s_parse(argc, argv, &o);
    if (rc != 0)
        return rc < 0 ? EXIT_OK : rc;
    if (o.make) { /* the tables first, exactly as `octad solve --max-pieces N` makes them */
        char *solve_args[] = {"--max-pieces", (char *)o.make, "--tables", (char *)o.serve.tables, NULL};
        if ((rc = cmd_solve(4, solve_args)) != EXIT_OK)
            return rc;
    }
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL); /* before the server's threads start: they inherit it */
    char err[256];
    serve_t *server = serve_new(&o.serve, err, sizeof err);
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
                o.serve.tables, o.serve.tables);
    const char *host = o.serve.listen.text;
    printf("octad serve: %d table files in %s (every position with up to %d pieces covered); listening on "
           "http://%s:%d\n",
           serve_table_files(server), o.serve.tables, serve_max_pieces(server), host, serve_port(server));
    fflush(stdout);
    int sig = 0;
    sigwait(&stop, &sig);
    printf("octad serve: stopping (%s)\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
    serve_destroy(&server);
    return EXIT_OK;
}
