/* cmd_position.c: `octad moves`, `octad show` and `octad validate`: one position in, text out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cmd.h"
#include "record.h"

typedef enum { S_MOVES, S_SHOW, S_VALIDATE } s_kind_t;

static const char *const s_names[] = {"moves", "show", "validate"};
static const char *const s_what[] = {
    "Lists the legal moves of a position, one a line: UOI (UCI for chess) then SAN.",
    "Draws the board as text with side to move, castling rights, e.p. square and check/mate/stalemate.",
    "Says OK, or the exact problem with the position text (exit status 2).",
};

/* Parses the position options and a positional position; 0 ok, OPT_HELP (help shown), or EXIT_USAGE. */
static int s_parse(s_kind_t k, int argc, char **argv, args_pos_t *pos)
{
    bool needed = k == S_VALIDATE; /* validate checks a given text (or --start N) */
    char prog[32], usage[400];
    snprintf(prog, sizeof prog, "octad %s", s_names[k]);
    snprintf(usage, sizeof usage, "usage: octad %s [options] %s\n%s\n\nPOSITION is an OFEN (octad) or FEN (chess, "
             "chess960); quote it.%s\n", s_names[k], needed ? "POSITION" : "[POSITION]", s_what[k],
             needed ? "" : " Default: the start.");
    const opt_spec_t spec = {.prog = prog, .usage = usage, .shared = ARGS_POS_ROWS, .shared_nb = ARGS_POS_ROW_NB,
                             .plain = args_pos_plain};
    *pos = (args_pos_t){.variant = VARIANT_OCTAD, .start = -1};
    return opt_parse(&spec, argc, argv, pos);
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
    record_t rec; /* the rules that end a game in this very position */
    if (record_init(&rec, pos) == 0 && record_over(&rec))
        printf("Game over: %s, %s\n", record_result_text(rec.result), record_termination_name(&rec));
    record_free(&rec);
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
        return opt_usage("octad validate", "give the position to check");
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
