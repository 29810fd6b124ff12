/* perft_engine_opts.c: the options `octad perft --compare` and `--check-engine` share (perft_engine_opts.h). */
#include "perft_engine_opts.h"

#include <string.h>

#include "perft_engine.h"

const char PERFT_ENGINE_OPTS_HELP[] =
    "  --protocol P    uci (default: 'go perft N', Stockfish's divide) or perftree\n"
    "                  (COMMAND DEPTH FEN [MOVES], divide lines, a blank line, the total)\n"
    "  --timeout S     longest wait for one answer of the engine, seconds (default 60)\n"
    "  --json          one JSON object on stdout\n";

void perft_engine_opts_init(perft_engine_opts_t *o, const char *mode)
{
    *o = (perft_engine_opts_t){.mode = mode, .protocol = "uci", .timeout_ms = 60000,
                               .pos = {.variant = VARIANT_OCTAD, .start = -1}};
}

int perft_engine_opts_option(int argc, char **argv, int *i, perft_engine_opts_t *o)
{
    const char *v = NULL;
    long n;
    int rc;
    if (strcmp(argv[*i], "--json") == 0) {
        o->json = true;
        return 1;
    }
    if ((rc = args_value("perft", argc, argv, i, o->mode, &v)) != 0) {
        if (rc > 0)
            o->command = v;
        return rc;
    }
    if ((rc = args_value("perft", argc, argv, i, "--protocol", &v)) != 0) {
        if (rc > 0 && !perft_engine_protocol_known(v)) {
            args_error("perft", "--protocol: unknown protocol '%.40s' (uci, perftree)", v);
            return -1;
        }
        if (rc > 0)
            o->protocol = v;
        return rc;
    }
    if ((rc = args_value("perft", argc, argv, i, "--timeout", &v)) != 0) {
        if (rc > 0 && args_int("perft", "--timeout", v, 1, 86400, &n) != 0)
            return -1;
        if (rc > 0)
            o->timeout_ms = (int)n * 1000;
        return rc;
    }
    return args_pos_option("perft", argc, argv, i, &o->pos);
}

int perft_engine_opts_parse(int argc, char **argv, perft_engine_opts_t *o, perft_engine_own_fn own, void *ctx)
{
    for (int i = 0; i < argc; i++) /* help first: `--compare --help` asks for help, not for an engine "--help" */
        if ((strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) && own(argc, argv, &i, ctx) == -2)
            return -1;
    for (int i = 0; i < argc; i++) {
        int rc = perft_engine_opts_option(argc, argv, &i, o);
        if (rc == 0)
            rc = own(argc, argv, &i, ctx);
        if (rc == -2)
            return -1;
        if (rc < 0)
            return EXIT_USAGE;
    }
    if (o->command != NULL && o->command[0] != '\0')
        return 0;
    args_error("perft", "%s: give the engine's command, e.g. %s /usr/games/stockfish", o->mode, o->mode);
    return EXIT_USAGE;
}
