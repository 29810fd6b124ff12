/* perft_engine_opts.c: the command lines of `octad perft --compare` and `--check-engine` (perft_engine_opts.h). */
#include "perft_engine_opts.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "epd.h"
#include "err.h"
#include "perft_engine.h"

static const char s_compare_usage[] =
    "usage: octad perft --compare \"COMMAND\" [--variant V] [POSITION] [--depth N] [options]\n"
    "Runs COMMAND as a perft engine, compares its divide with ours and, where they\n"
    "differ, descends into a differing move again and again until it names the position\n"
    "(with the moves from the root) and the moves one side has and the other lacks, or\n"
    "the count that differs at depth 1.\n\n";

static const char s_compare_epilogue[] =
    "\nChess960 sets UCI_Chess960 (castles as king takes rook), octad UCI_Variant octad\n"
    "(positions as OFEN). Exit status 0 equal, 3 differ, 2 bad usage, 1 the engine\n"
    "failed (no answer in time, it stopped, a line we cannot read: quoted).\n";

static const char s_check_usage[] =
    "usage: octad perft --check-engine \"COMMAND\" --suite FILE [--variant V] [--max-depth N] [options]\n"
    "Compares COMMAND's perft with ours on every position of a perft suite (EPD lines\n"
    "'FEN ;D1 n ;D2 n ...', e.g. tests/data/*.epd): each position at the deepest depth\n"
    "the line gives, at most --max-depth; pass or fail each, and for each failure the\n"
    "answer of --compare (the position and the moves that differ). Progress on stderr,\n"
    "a table on stdout. --variant says the suite's variant (octad, chess or chess960).\n\n";

static const char s_check_epilogue[] =
    "\nExit status 0 every position equal, 3 some differ, 1 the engine failed on some\n"
    "(and none differ), 2 bad usage or a suite that cannot be read (the line named).\n"
    "After 3 engine failures in a row the run stops.\n";

/* --protocol uci|perftree. */
static int s_protocol(const char *text, void *field, char *err, size_t errlen)
{
    if (!perft_engine_protocol_known(text))
        return err_printf(err, errlen, "unknown protocol '%.40s' (uci, perftree)", text);
    *(const char **)field = text;
    return 0;
}

#define F(field) OPT_AT(perft_engine_opts_t, field)
static const opt_t s_rows[] = {
    /* --compare's own */
    {"--compare", 0, OPT_TEXT, "COMMAND", F(command), "the engine's command line (run through sh -c)"},
    {"--depth", 0, OPT_INT, "N", F(depth), "plies to compare (default 5); DEPTH alone says the same", .lo = 1,
     .hi = 40},
    /* both modes' */
    {"--protocol", 0, OPT_CUSTOM, "P", F(protocol), "uci (default: 'go perft N', Stockfish's divide) or perftree\n"
     "(COMMAND DEPTH FEN [MOVES]: divide lines, a blank line, the total)", .parse = s_protocol},
    {"--timeout", 0, OPT_INT, "S", F(timeout_s), "longest wait for one answer of the engine, seconds (default 60)",
     .lo = 1, .hi = 86400},
    {"--json", 0, OPT_FLAG, NULL, F(json), "one JSON object on stdout"},
    /* --check-engine's own */
    {"--check-engine", 0, OPT_TEXT, "COMMAND", F(command), "the engine's command line (run through sh -c)"},
    {"--suite", 0, OPT_TEXT, "FILE", F(suite), "the suite (positions in the variant's notation: OFEN or FEN)"},
    {"--max-depth", 0, OPT_INT, "N", F(max_depth), "deepest depth compared (default 3)", .lo = 1,
     .hi = EPD_DEPTH_MAX},
};
#undef F
_Static_assert(offsetof(perft_engine_opts_t, pos) == 0, "args_pos_plain reads the options as their args_pos_t");

/* --compare's plain arguments: a bare DEPTH, or the position. */
static int s_compare_plain(const char *arg, void *base, char *err, size_t errlen)
{
    perft_engine_opts_t *o = base;
    long long v;
    char why[160];
    if (arg[0] < '0' || arg[0] > '9' || strchr(arg, '/') != NULL)
        return args_pos_plain(arg, base, err, errlen);
    if (opt_read_int(arg, 1, 40, &v, why, sizeof why) != 0)
        return err_printf(err, errlen, "depth: %s", why);
    o->depth = (int)v;
    return 0;
}

static int s_check_plain(const char *arg, void *base, char *err, size_t errlen)
{
    (void)base;
    return err_printf(err, errlen, "unexpected '%.40s' (the positions come from --suite)", arg);
}

static const opt_spec_t s_compare = {.prog = "octad perft", .usage = s_compare_usage,
                                     .epilogue = s_compare_epilogue, .rows = s_rows, .row_nb = 5,
                                     .plain = s_compare_plain, ARGS_POS_SHARED(perft_engine_opts_t)};
static const opt_spec_t s_check = {.prog = "octad perft", .usage = s_check_usage, .epilogue = s_check_epilogue,
                                   .rows = s_rows + 2, .row_nb = 6, .plain = s_check_plain,
                                   /* of the position rows only --variant (the first): positions come from the suite */
                                   .shared = ARGS_POS_ROWS, .shared_nb = 1,
                                   .shared_off = offsetof(perft_engine_opts_t, pos)};
_Static_assert(sizeof s_rows / sizeof s_rows[0] == 8, "the two slices of s_rows above");

/* Defaults, help first (`--compare --help` asks for help, not for an engine "--help"), parse, the engine given. */
static int s_parse(const opt_spec_t *spec, const char *mode, int argc, char **argv, perft_engine_opts_t *o)
{
    *o = (perft_engine_opts_t){.pos = {.variant = VARIANT_OCTAD, .start = -1}, .protocol = "uci",
                               .timeout_s = 60, .depth = 5, .max_depth = 3};
    for (int i = 0; i < argc; i++)
        if (opt_is_help(argv[i])) {
            opt_help(spec, stdout);
            return OPT_HELP;
        }
    int rc = opt_parse(spec, argc, argv, o);
    if (rc != 0)
        return rc;
    if (o->command == NULL)
        return opt_usage("octad perft", "%s: give the engine's command, e.g. %s /usr/games/stockfish", mode, mode);
    return 0;
}

int perft_engine_opts_compare(int argc, char **argv, perft_engine_opts_t *o)
{
    return s_parse(&s_compare, "--compare", argc, argv, o);
}

int perft_engine_opts_check(int argc, char **argv, perft_engine_opts_t *o)
{
    int rc = s_parse(&s_check, "--check-engine", argc, argv, o);
    if (rc != 0)
        return rc;
    if (o->suite == NULL)
        return opt_usage("octad perft", "--check-engine needs --suite FILE (a perft suite: 'FEN ;D1 n ;D2 n ...' lines)");
    return 0;
}
