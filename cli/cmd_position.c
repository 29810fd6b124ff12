/* cmd_position.c: `octad moves`, `octad show` and `octad validate`: one position in, text out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cmd.h"

typedef enum { S_MOVES, S_SHOW, S_VALIDATE } s_kind_t;

static const char *const s_names[] = {"moves", "show", "validate"};
static const char *const s_what[] = {
    "Lists the legal moves of a position, one a line: UOI (UCI for chess) then SAN.",
    "Draws the board as text with side to move, castling rights, e.p. square and check/mate/stalemate.",
    "Says OK, or the exact problem with the position text (exit status 2).",
};

static void s_help(s_kind_t k)
{
    bool needed = k == S_VALIDATE; /* validate checks a given text (or --start N) */
    printf("usage: octad %s [options] %s\n%s\n\n"
           "POSITION is an OFEN (octad) or FEN (chess, chess960); quote it.%s\n%s"
           "  --help          this text\n",
           s_names[k], needed ? "POSITION" : "[POSITION]", s_what[k], needed ? "" : " Default: the start.",
           ARGS_POS_HELP);
}

/* Parses the shared options and a positional position; 0 ok, -1 help shown, 2 usage. */
static int s_parse(s_kind_t k, int argc, char **argv, args_pos_t *pos)
{
    *pos = (args_pos_t){.variant = VARIANT_OCTAD, .start = -1};
    for (int i = 0; i < argc; i++) {
        int rc = args_pos_option(s_names[k], argc, argv, &i, pos);
        if (rc < 0)
            return EXIT_USAGE;
        if (rc > 0)
            continue;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            s_help(k);
            return -1;
        }
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            args_error(s_names[k], "unknown option '%.40s' (see octad %s --help)", argv[i], s_names[k]);
            return EXIT_USAGE;
        }
        if (pos->text != NULL) {
            args_error(s_names[k], "one position only (quote the OFEN/FEN: it contains spaces)");
            return EXIT_USAGE;
        }
        pos->text = argv[i];
    }
    return 0;
}

static int s_moves(const game_pos_t *pos)
{
    game_child_t *kids = malloc(sizeof *kids * GAME_MOVES_MAX);
    if (kids == NULL)
        return EXIT_FAIL;
    int n = game_children(pos, kids);
    for (int i = 0; i < n; i++)
        printf("%-7s %s\n", kids[i].uoi, kids[i].san);
    printf("%d legal move%s\n", n, n == 1 ? "" : "s");
    free(kids);
    return EXIT_OK;
}

static int s_show(const game_pos_t *pos)
{
    char board[2048], text[GAME_TEXT_MAX];
    game_draw(pos, board, sizeof board);
    game_format(pos, text, sizeof text);
    fputs(board, stdout);
    printf("%s: %s\n", pos->variant == VARIANT_OCTAD ? "OFEN" : "FEN", text);
    return EXIT_OK;
}

static int s_run(s_kind_t k, int argc, char **argv)
{
    args_pos_t opt;
    game_pos_t pos;
    int rc = s_parse(k, argc, argv, &opt);
    if (rc != 0)
        return rc < 0 ? EXIT_OK : rc;
    if (k == S_VALIDATE && opt.text == NULL && opt.start < 0) {
        args_error("validate", "give the position to check (see octad validate --help)");
        return EXIT_USAGE;
    }
    if (args_pos_resolve(s_names[k], &opt, &pos) != 0)
        return EXIT_USAGE;
    if (k == S_VALIDATE) {
        puts("OK");
        return EXIT_OK;
    }
    return k == S_MOVES ? s_moves(&pos) : s_show(&pos);
}

int cmd_moves(int argc, char **argv)
{
    return s_run(S_MOVES, argc, argv);
}

int cmd_show(int argc, char **argv)
{
    return s_run(S_SHOW, argc, argv);
}

int cmd_validate(int argc, char **argv)
{
    return s_run(S_VALIDATE, argc, argv);
}
