/* main.c: the `octad` command: dispatch to its subcommands. */
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "cmd.h"
#include "game.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *what;
} s_cmds[] = {
    {"perft", cmd_perft, "count the legal-move tree of a position exactly (divide, stats, hash, threads)"},
    {"moves", cmd_moves, "list the legal moves of a position (UOI and SAN)"},
    {"show", cmd_show, "draw a position with side to move, rights, e.p. and check/mate/stalemate"},
    {"validate", cmd_validate, "check a position text: OK or the exact error"},
    {"solve", cmd_solve, "octad tablebases: generate them (retrograde analysis) and answer a position"},
    {"probe", cmd_probe, "an octad position's value, distances and best moves from the tables"},
    {"serve", cmd_serve, "answer octad positions from the tables over HTTP (JSON API, mainline, SVG)"},
    {"tables", cmd_tables, "write or check the SHA-256 manifest of a table directory (tables from anyone)"},
    {"verify-tables", cmd_verify, "check octad table files independently: checksums, then every record by one ply"},
    {"certify", cmd_certify, "write a certificate of an octad value from the tables (checked by certcheck)"},
    {"bench", cmd_bench, "run fixed perft workloads: node-count signature and nodes/s"},
    {"svg", cmd_svg, "draw a position as an SVG board image (flip, last move, arrows, marks, size)"},
    {"play", cmd_play, "play a game in the terminal or through a pipe: human, random or UCI engine"},
    {"selfplay", cmd_selfplay, "play games between players (random, uci:COMMAND), write PGN, tabulate results"},
    {"pgn", cmd_pgn, "read PGN files: replay every game, report moves, final position, result"},
    {"search", cmd_search, "search a position with the engine: info lines and the best move (--json)"},
    {"uci", cmd_uci, "run the engine as a UCI engine on stdin/stdout (octad, chess, Chess960)"},
};

static void s_usage(FILE *out)
{
    fprintf(out, "usage: octad COMMAND [options]   (octad COMMAND --help for each; octad --version)\n\n"
                 "Exact perft and rules for octad (4x4 chess), chess and Chess960.\n\n");
    for (size_t i = 0; i < sizeof s_cmds / sizeof s_cmds[0]; i++)
        fprintf(out, "  %-14s %s\n", s_cmds[i].name, s_cmds[i].what);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        s_usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        s_usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        puts("octad 0.1.0");
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof s_cmds / sizeof s_cmds[0]; i++)
        if (strcmp(argv[1], s_cmds[i].name) == 0)
            return s_cmds[i].run(argc - 2, argv + 2);
    fprintf(stderr, "octad: unknown command '%.40s' (octad --help lists them)\n", argv[1]);
    return EXIT_USAGE;
}
