/* perft_engine_opts.h: the options `octad perft --compare` and `--check-engine` share. */
#pragma once

#include <stdbool.h>

#include "args.h"

typedef struct {
    const char *command;  /* the engine's command line (sh -c) */
    const char *protocol; /* "uci" (default) or "perftree" */
    int timeout_ms;       /* longest wait for one answer (default 60 s) */
    bool json;
    args_pos_t pos;       /* --variant (and, for --compare, the position) */
} perft_engine_opts_t;

/* Help lines of the shared options. */
extern const char PERFT_ENGINE_OPTS_HELP[];

/* Handles --protocol, --timeout, --json and --variant at argv[*i] (name is the
 * subcommand's option, for messages); same return as args_value (1, 0, -1 printed). */
int perft_engine_opts_option(int argc, char **argv, int *i, perft_engine_opts_t *o);

/* Sets the defaults; call before parsing. */
void perft_engine_opts_init(perft_engine_opts_t *o);

/* `octad perft --compare` and `octad perft --check-engine` (argv: perft's arguments). */
int cmd_perft_compare(int argc, char **argv);
int cmd_perft_check(int argc, char **argv);
