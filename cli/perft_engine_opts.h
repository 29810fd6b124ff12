/* perft_engine_opts.h: the options `octad perft --compare` and `--check-engine` share. */
#pragma once

#include <stdbool.h>

#include "args.h"

typedef struct {
    const char *mode;     /* the option that names the engine: "--compare" or "--check-engine" */
    const char *command;  /* the engine's command line (sh -c) */
    const char *protocol; /* "uci" (default) or "perftree" */
    int timeout_ms;       /* longest wait for one answer (default 60 s) */
    bool json;
    args_pos_t pos;       /* --variant (and, for --compare, the position) */
} perft_engine_opts_t;

/* Help lines of the shared options. */
extern const char PERFT_ENGINE_OPTS_HELP[];

/* Handles the mode's option (the command), --protocol, --timeout, --json and the
 * position options at argv[*i]; same return as args_value (1, 0, -1 printed). */
int perft_engine_opts_option(int argc, char **argv, int *i, perft_engine_opts_t *o);

/* Sets the defaults for the mode ("--compare" or "--check-engine"); call before parsing. */
void perft_engine_opts_init(perft_engine_opts_t *o, const char *mode);

/* A mode's handler of every argument the shared options do not take: 1 taken,
 * -1 error printed, -2 help printed. */
typedef int (*perft_engine_own_fn)(int argc, char **argv, int *i, void *ctx);

/* Parses argv: the shared options, the rest through own(ctx); then checks that the
 * engine's command is given. 0, -1 help printed, or EXIT_USAGE after an error. */
int perft_engine_opts_parse(int argc, char **argv, perft_engine_opts_t *o, perft_engine_own_fn own, void *ctx);

/* `octad perft --compare` and `octad perft --check-engine` (argv: perft's arguments). */
int cmd_perft_compare(int argc, char **argv);
int cmd_perft_check(int argc, char **argv);
