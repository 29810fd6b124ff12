/* perft_engine_opts.h: the command lines of `octad perft --compare` and `octad perft --check-engine`.
 *
 * One option table serves both (core/base/opt.h): --compare and --depth are the first
 * rows, --check-engine, --suite and --max-depth the last, and the rows both modes take
 * (--protocol, --timeout, --json) sit between, so each mode's spec is one slice of it. */
#pragma once

#include <stdbool.h>

#include "args.h"

typedef struct {
    args_pos_t pos;       /* first: the position rows and args_pos_plain read it (--check-engine: --variant only) */
    const char *command;  /* the engine's command line (sh -c) */
    const char *protocol; /* "uci" (default) or "perftree" */
    int timeout_s;        /* longest wait for one answer (default 60) */
    bool json;
    int depth;            /* --compare: plies (default 5) */
    const char *suite;    /* --check-engine: the suite file */
    int max_depth;        /* --check-engine: deepest depth compared (default 3) */
} perft_engine_opts_t;

/* Sets the defaults and parses the arguments of `octad perft --compare ...` (all of
 * perft's arguments) into *o. 0, OPT_HELP (help printed), or EXIT_USAGE after one line. */
int perft_engine_opts_compare(int argc, char **argv, perft_engine_opts_t *o);

/* The same for `octad perft --check-engine ...`; positions come only from --suite. */
int perft_engine_opts_check(int argc, char **argv, perft_engine_opts_t *o);

/* `octad perft --compare` and `octad perft --check-engine` (argv: perft's arguments). */
int cmd_perft_compare(int argc, char **argv);
int cmd_perft_check(int argc, char **argv);
