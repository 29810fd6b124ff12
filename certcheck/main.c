/* main.c: certcheck, the octad certificate checker: `certcheck check FILE` proves the claim of a
 * certificate (docs/certificate.md) with its own rules; `certcheck perft SUITE DEPTH` tests them;
 * `certcheck stats OFEN DEPTH` counts by kind (a second opinion on `octad perft --stats`). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "certfile.h"
#include "perft.h"
#include "prove.h"
#include "stats.h"

/* The help texts: the whole program's, then one per command (printed by `certcheck CMD --help`). */
static const char s_help[] =
    "usage: certcheck check FILE\n"
    "       certcheck perft SUITE.epd MAX_DEPTH\n"
    "       certcheck stats OFEN DEPTH\n"
    "Checks certificates of octad values (docs/certificate.md) with its own rules, written\n"
    "from docs/rules.md alone: it shares no code with the solver that made them.\n"
    "\n"
    "  check   proves the claim of a certificate file (white-wins, black-wins or draw)\n"
    "  perft   tests the checker's move generator against a perft suite\n"
    "  stats   counts the leaves of a tree by kind (a second opinion on octad perft --stats)\n"
    "\n"
    "Exit status: 0 proved or equal, 1 not proved or a count differs, 2 bad usage or a file\n"
    "that cannot be read. `certcheck COMMAND --help` tells more.\n"
    "\n"
    "  --help, -h   this text\n";

/* Reads argv[3] as a depth from lo to 12 into *depth; 0, or -1 with a message naming cmd's field. */
static int s_depth(char **argv, int lo, const char *field, int *depth)
{
    char *end;
    long v = strtol(argv[3], &end, 10);
    if (*end || end == argv[3] || v < lo || v > 12) {
        fprintf(stderr, "certcheck %s: %s must be a whole number from %d to 12\n", argv[1], field, lo);
        return -1;
    }
    *depth = (int)v;
    return 0;
}

static int s_run_check(char **argv)
{
    cc_cert_t cert;
    char err[256];
    if (cc_cert_read(argv[2], &cert, err, sizeof err)) {
        printf("NOT proved: %s: %s\n", argv[2], err);
        return 2;
    }
    int rc = cc_prove(&cert);
    cc_cert_free(&cert);
    return rc;
}

static int s_run_perft(char **argv)
{
    int depth;
    return s_depth(argv, 1, "MAX_DEPTH", &depth) ? 2 : cc_perft_suite(argv[2], depth);
}

static int s_run_stats(char **argv)
{
    int depth;
    return s_depth(argv, 0, "DEPTH", &depth) ? 2 : cc_stats_print(argv[2], depth);
}

typedef struct {
    const char *name;
    int argc;          /* arguments after the command's name */
    int (*run)(char **argv);
    const char *help;
} s_cmd_t;

static const s_cmd_t s_cmds[] = {
    {"check", 1, s_run_check,
     "usage: certcheck check FILE\n"
     "Proves the claim of the certificate FILE: prints `proved: CLAIM for START` and exits 0,\n"
     "or prints `NOT proved:` with the first record (section, index, OFEN) where the proof\n"
     "fails and why, and exits 1; a file that cannot be read (missing, truncated, damaged,\n"
     "a bad checksum) exits 2 naming the problem.\n"
     "\n"
     "  --help, -h   this text\n"},
    {"perft", 2, s_run_perft,
     "usage: certcheck perft SUITE.epd MAX_DEPTH\n"
     "Counts the leaves of the checker's own legal-move tree for every line of SUITE\n"
     "(`OFEN ;D1 n ;D2 n ...`) up to MAX_DEPTH (1-12) and compares them with the suite's:\n"
     "prints each mismatch and a summary; exits 0 when all are equal, 1 on a mismatch, 2 on\n"
     "a file or line it cannot read.\n"
     "\n"
     "  --help, -h   this text\n"},
    {"stats", 2, s_run_stats,
     "usage: certcheck stats OFEN DEPTH\n"
     "Counts the tree of OFEN, DEPTH plies deep (0-12), by kind at the last ply (nodes,\n"
     "captures, e.p., castles, promotions, checks, discovered and double checks, mates,\n"
     "stalemates), one `name value` line each in the names `octad perft --stats` prints.\n"
     "\n"
     "  --help, -h   this text\n"},
};

static int s_is_help(const char *a) { return !strcmp(a, "--help") || !strcmp(a, "-h"); }

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(s_help, stderr);
        return 2;
    }
    if (s_is_help(argv[1])) {
        fputs(s_help, stdout);
        return 0;
    }
    const s_cmd_t *cmd = NULL;
    for (size_t i = 0; i < sizeof s_cmds / sizeof s_cmds[0]; i++)
        if (!strcmp(argv[1], s_cmds[i].name))
            cmd = &s_cmds[i];
    if (!cmd) {
        fprintf(stderr, "certcheck: unknown command '%s' (check, perft or stats; --help)\n", argv[1]);
        return 2;
    }
    for (int i = 2; i < argc; i++)
        if (s_is_help(argv[i])) {
            fputs(cmd->help, stdout);
            return 0;
        }
    if (argc - 2 != cmd->argc) {
        fprintf(stderr, "certcheck %s: expected %d argument%s, got %d\n%s", cmd->name, cmd->argc,
                cmd->argc == 1 ? "" : "s", argc - 2, cmd->help);
        return 2;
    }
    return cmd->run(argv);
}
