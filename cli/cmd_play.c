/* cmd_play.c: `octad play`: the liad harness: play a game in the terminal or
 * through a pipe (a move or a command a line), human or computer on each side. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cmd.h"
#include "pgn_game.h"
#include "player.h"
#include "record_moves.h"

typedef struct {
    args_pos_t pos;
    const char *pgn, *player[2], *go;
    long seed;
} s_opts_t;

static const char s_usage[] =
    "usage: octad play [options] [POSITION]\n"
    "Plays a game from the start, a position or the end of a PGN game. Shows the board,\n"
    "the last move, check and the legal moves (SAN), then reads a move or a command a\n"
    "line, from a terminal or a pipe. At the end it prints the result and the PGN.\n"
    "POSITION is an OFEN (octad) or FEN (chess, chess960); quote it. Default: the start.\n"
    "Here --moves takes SAN too; they are the game's first moves, after --pgn's.\n\n";

static const char s_epilogue[] =
    "\nMoves: SAN (Nf3, exd5, O-O, e8=Q), or UOI/UCI (g1f3, b1a1). Commands: moves,\n"
    "undo, fen, pgn, resign, draw (an agreed draw; in chess it claims a threefold or\n"
    "50-move draw when one is due), help, quit.\n";

_Static_assert(offsetof(s_opts_t, pos) == 0, "args_pos_plain reads the options as their args_pos_t");

#define F(field) OPT_AT(s_opts_t, field)
static const opt_t s_rows[] = {
    {"--pgn", 0, OPT_TEXT, "FILE", F(pgn), "go on from the end of the first game of FILE"},
    {"--white", 0, OPT_TEXT, "P", F(player[0]), "human (default), random, engine[:DEPTH|:MSms] or uci:COMMAND"},
    {"--black", 0, OPT_TEXT, "P", F(player[1]), "likewise for Black"},
    {"--seed", 0, OPT_INT, "S", F(seed), "seed of random players (default 1)", .lo = 0, .hi = 0x7fffffffL},
    {"--go", 0, OPT_STRING, "ARGS", F(go), "what UCI players are told after \"go\" (default \"movetime 100\")"},
};
#undef F

static const opt_spec_t s_spec = {.prog = "octad play", .usage = s_usage, .epilogue = s_epilogue, .rows = s_rows,
                                  .row_nb = sizeof s_rows / sizeof s_rows[0], .plain = args_pos_plain,
                                  ARGS_POS_SHARED(s_opts_t)};

/* OPT_HELP (help printed), 0 ok, or EXIT_USAGE. */
static int s_parse(int argc, char **argv, s_opts_t *o)
{
    *o = (s_opts_t){.pos = {.variant = VARIANT_OCTAD, .start = -1}, .player = {"human", "human"}, .seed = 1};
    return opt_parse(&s_spec, argc, argv, o);
}

static int s_side(const record_t *rec)
{
    const game_pos_t *p = record_pos(rec);
    return p->variant == VARIANT_OCTAD ? p->u.octad.side : p->u.chess.side;
}

static void s_print_moves(const record_t *rec)
{
    gmove_t moves[GAME_MOVES_MAX];
    char san[MOVE_TEXT_MAX];
    int n = gmove_legal(record_pos(rec), moves);
    printf("legal moves (%d):", n);
    for (int i = 0; i < n; i++) {
        gmove_san(record_pos(rec), moves[i], san);
        printf(" %s", san);
    }
    printf("\n");
}

static void s_show(const record_t *rec)
{
    char board[1024], san[MOVE_TEXT_MAX];
    game_draw(record_pos(rec), board, sizeof board);
    printf("\n%s", board);
    if (record_pos(rec)->variant != VARIANT_OCTAD) { /* the octad drawing says these itself */
        char fen[GAME_TEXT_MAX];
        game_format(record_pos(rec), fen, sizeof fen);
        printf("%s to move, FEN %s\n", s_side(rec) == 0 ? "White" : "Black", fen);
    }
    if (rec->ply_nb > 0) {
        gmove_san(record_pos_at(rec, rec->ply_nb - 1), rec->plies[rec->ply_nb].move, san);
        printf("last move: %s\n", san);
    }
    int status = record_status(rec, rec->ply_nb);
    if ((status & GAME_IN_CHECK) && !(status & GAME_CHECKMATE))
        printf("%s is in check\n", s_side(rec) == 0 ? "White" : "Black");
    if (!record_over(rec))
        s_print_moves(rec);
}

static void s_print_pgn(const record_t *rec, const s_opts_t *o)
{
    pgn_game_t g;
    if (pgn_game_from_record(&g, rec) != 0)
        return;
    pgn_game_set_tag(&g, "Event", "octad play");
    pgn_game_set_tag(&g, "White", o->player[0]);
    pgn_game_set_tag(&g, "Black", o->player[1]);
    pgn_write(stdout, &g);
    pgn_game_free(&g);
}

/* Keeps the first game of a PGN stream: its contents move into ctx. */
static void s_take_first(void *ctx, pgn_game_t *g)
{
    pgn_game_t *first = ctx;
    if (first->number != 0)
        return;
    *first = *g;
    pgn_game_init(g);
}

/* Whether the game ended by a player's act (resignation, agreement, a claim, a
 * flag, a bare result) rather than by the rules of its last position. */
static bool s_ended_from_outside(const record_t *rec)
{
    switch (rec->termination) {
    case TERM_RESIGNATION: case TERM_AGREEMENT: case TERM_CLAIM_THREEFOLD: case TERM_CLAIM_FIFTY:
    case TERM_TIME_FORFEIT: case TERM_DECLARED:
        return true;
    default:
        return false;
    }
}

/* Loads the start: the end of the first game of --pgn, or the position options. 0 or -1. */
static int s_load(s_opts_t *o, record_t *rec)
{
    game_pos_t start;
    const char *moves = o->pos.moves; /* played into the game below, in SAN or UOI */
    o->pos.moves = NULL;
    if (o->pgn == NULL) {
        if (args_pos_resolve("play", &o->pos, &start) != 0 || record_init(rec, &start) != 0)
            return -1;
        return record_moves_play("play", rec, moves);
    }
    FILE *f = fopen(o->pgn, "rb");
    if (f == NULL) {
        args_error("play", "%.200s: cannot open", o->pgn);
        return -1;
    }
    char *text = NULL;
    size_t cap = 0;
    ssize_t n = getdelim(&text, &cap, '\0', f);
    fclose(f);
    pgn_game_t *first = calloc(1, sizeof *first);
    pgn_replay_t r = {.default_variant = o->pos.variant, .on_game = s_take_first, .ctx = first};
    if (n > 0 && first != NULL)
        pgn_replay_text(text, (size_t)n, &r);
    free(text);
    int rc = -1;
    if (first == NULL || !first->has_record || first->error_nb > 0)
        args_error("play", "%.200s: %s", o->pgn,
                   first && first->error_nb ? first->errors[0] : "no game that replays");
    else if ((rc = record_copy(rec, &first->rec)) == 0 && s_ended_from_outside(rec))
        rec->result = RESULT_NONE, rec->termination = TERM_NONE; /* play goes on from the last move */
    if (first != NULL)
        pgn_game_free(first);
    free(first);
    return rc == 0 ? record_moves_play("play", rec, moves) : rc;
}

/* Takes back one move, and more while a computer is to move (so a human moves next). */
static void s_undo(record_t *rec, player_t *const players[2])
{
    if (record_undo(rec) != 0) {
        printf("nothing to undo\n");
        return;
    }
    while (players[s_side(rec)] != NULL && rec->ply_nb > 0 && (players[0] == NULL || players[1] == NULL))
        record_undo(rec);
}

static void s_draw(record_t *rec, player_t *const players[2])
{
    if (record_claim_draw(rec) == 0)
        printf("draw claimed: %s\n", record_termination_name(rec));
    else if (players[0] == NULL && players[1] == NULL)
        record_agree_draw(rec);
    else
        printf("the computer declines the draw\n");
}

/* Handles one line of a human; returns 1 to quit. */
static int s_command(char *line, record_t *rec, player_t *const players[2], const s_opts_t *o)
{
    char err[256], fen[GAME_TEXT_MAX];
    line[strcspn(line, "\r\n")] = '\0';
    char *cmd = line + strspn(line, " \t");
    cmd[strcspn(cmd, " \t")] = '\0';
    if (cmd[0] == '\0' || cmd[0] == '#')
        return 0;
    if (strcmp(cmd, "quit") == 0 || strcmp(cmd, "exit") == 0)
        return 1;
    if (strcmp(cmd, "help") == 0)
        printf("a move (SAN or UOI), or: moves undo fen pgn resign draw quit\n");
    else if (strcmp(cmd, "moves") == 0)
        s_print_moves(rec);
    else if (strcmp(cmd, "undo") == 0)
        s_undo(rec, players);
    else if (strcmp(cmd, "fen") == 0 || strcmp(cmd, "ofen") == 0) {
        game_format(record_pos(rec), fen, sizeof fen);
        printf("%s\n", fen);
    } else if (strcmp(cmd, "pgn") == 0)
        s_print_pgn(rec, o);
    else if (strcmp(cmd, "resign") == 0)
        record_resign(rec, s_side(rec));
    else if (strcmp(cmd, "draw") == 0)
        s_draw(rec, players);
    else if (record_play_text(rec, cmd, err, sizeof err) != 0)
        printf("%s\n", err);
    return 0;
}

/* The game loop; returns the exit status. */
static int s_loop(record_t *rec, player_t *const players[2], const s_opts_t *o)
{
    char *line = NULL, err[256];
    size_t cap = 0;
    int shown = -1, rc = EXIT_OK;
    while (!record_over(rec)) {
        player_t *p = players[s_side(rec)];
        gmove_t m;
        if (shown != rec->ply_nb)
            s_show(rec);
        shown = rec->ply_nb;
        if (p != NULL) {
            if (p->choose_move(p, rec, &m, err, sizeof err) != 0) {
                args_error("play", "%s", err);
                rc = EXIT_FAIL;
                break;
            }
            char san[MOVE_TEXT_MAX];
            gmove_san(record_pos(rec), m, san);
            printf("%s plays %s\n", s_side(rec) == 0 ? "White" : "Black", san);
            record_play(rec, m);
            continue;
        }
        printf("%s to move> ", s_side(rec) == 0 ? "White" : "Black");
        fflush(stdout);
        if (getline(&line, &cap, stdin) < 0 || s_command(line, rec, players, o)) {
            printf("\n");
            break;
        }
        if (strncmp(line, "undo", 4) == 0)
            shown = -1;
    }
    free(line);
    if (record_over(rec)) {
        s_show(rec);
        printf("result: %s (%s)\n", record_result_text(rec->result), record_termination_name(rec));
    }
    printf("\n");
    s_print_pgn(rec, o);
    return rc;
}

int cmd_play(int argc, char **argv)
{
    s_opts_t o;
    record_t rec = {0};
    player_t *players[2] = {NULL, NULL};
    char err[256];
    int rc = s_parse(argc, argv, &o);
    if (rc != 0)
        return rc == OPT_HELP ? EXIT_OK : rc;
    for (int s = 0; s < 2; s++) {
        player_opts_t po = {.seed = (uint64_t)o.seed * 2 + (uint64_t)s + 1, .go = o.go};
        if (strcmp(o.player[s], "human") != 0 && (players[s] = player_new(o.player[s], &po, err, sizeof err)) == NULL) {
            args_error("play", "%s", err);
            player_destroy(&players[0]);
            return EXIT_USAGE;
        }
    }
    if (s_load(&o, &rec) != 0) {
        rc = EXIT_USAGE;
    } else {
        rc = s_loop(&rec, players, &o);
    }
    record_free(&rec);
    player_destroy(&players[0]);
    player_destroy(&players[1]);
    return rc;
}
