/* cmd_pgn.c: `octad pgn`: read PGN files, replay every game through the rules,
 * report each game (or re-emit it as normalised PGN). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "cmd.h"
#include "json.h"
#include "pgn_game.h"

typedef struct {
    bool json, write, quiet, variations, skip_variations;
    const char *file;
    long games, broken;
} s_opts_t;

static void s_help(void)
{
    printf("usage: octad pgn [options] FILE...\n"
           "Reads every game of each PGN file ('-' is standard input), replays it through the\n"
           "rules and prints per game its number, moves, final position, result and termination.\n"
           "A broken game is reported with game number, line and column; the others are read.\n\n"
           "  --variant V     variant of games without a [Variant] tag: chess (default), octad, chess960\n"
           "  --json          one JSON object per game and line: game, file, line, variant, start,\n"
           "                  plies, moves, final, result, termination, variations, errors\n"
           "  --write         re-emit every game that replays as normalised PGN, variations kept\n"
           "                  (one with an illegal move is cut there, and reported)\n"
           "  --variations    replay variations too and report their errors (default with --write)\n"
           "  --skip-variations  skip variations unread (default without --write)\n"
           "  --quiet         print only the games with errors (and the summary)\n"
           "  --help          this text\n"
           "Exit status: 0 all games read, 2 a game had errors or bad usage, 1 a file could not be read.\n");
}

static void s_text(const s_opts_t *o, const pgn_game_t *g)
{
    char fen[GAME_TEXT_MAX], san[MOVE_TEXT_MAX];
    if (o->quiet && g->error_nb == 0)
        return;
    printf("game %ld (%s, line %ld): ", g->number, o->file, g->line);
    if (g->has_record) {
        const record_t *r = &g->rec;
        game_format(record_pos(r), fen, sizeof fen);
        printf("%d plies, %s, %s\n  moves:", r->ply_nb, record_result_text(r->result),
               record_termination_name(r));
        for (int k = 1; k <= r->ply_nb; k++) {
            gmove_san(record_pos_at(r, k - 1), r->plies[k].move, san);
            printf(" %s", san);
        }
        printf("\n  final: %s\n", fen);
    } else {
        printf("not replayed\n");
    }
    for (int i = 0; i < g->error_nb && i < PGN_ERRORS_KEPT; i++)
        printf("  error: %s\n", g->errors[i]);
}

static void s_json(const s_opts_t *o, const pgn_game_t *g)
{
    char fen[GAME_TEXT_MAX] = "", san[MOVE_TEXT_MAX];
    const record_t *r = g->has_record ? &g->rec : NULL;
    printf("{\"game\":%ld,\"file\":", g->number);
    json_write_string(stdout, o->file);
    if (r)
        game_format(record_pos_at(r, 0), fen, sizeof fen);
    printf(",\"line\":%ld,\"variant\":\"%s\",\"start\":", g->line,
           r ? game_variant_name(record_pos_at(r, 0)->variant) : "");
    json_write_string(stdout, fen);
    printf(",\"plies\":%d,\"moves\":[", r ? r->ply_nb : 0);
    for (int k = 1; r && k <= r->ply_nb; k++) {
        gmove_san(record_pos_at(r, k - 1), r->plies[k].move, san);
        printf(k > 1 ? ",\"%s\"" : "\"%s\"", san);
    }
    if (r)
        game_format(record_pos(r), fen, sizeof fen);
    printf("],\"final\":");
    json_write_string(stdout, fen);
    printf(",\"result\":\"%s\",\"termination\":", r ? record_result_text(r->result) : "*");
    json_write_string(stdout, r ? record_termination_name(r) : "none");
    printf(",\"variations\":%d,\"errors\":[", pgn_game_variation_count(g));
    for (int i = 0; i < g->error_nb && i < PGN_ERRORS_KEPT; i++) {
        if (i)
            putchar(',');
        json_write_string(stdout, g->errors[i]);
    }
    printf("]}\n");
}

static void s_on_game(void *ctx, pgn_game_t *g)
{
    s_opts_t *o = ctx;
    o->games++;
    o->broken += g->error_nb > 0;
    if (o->write) {
        if (g->has_record && g->error_nb == g->variation_error_nb) /* a bad variation is cut, the game kept */
            pgn_write(stdout, g);
        for (int i = 0; i < g->error_nb && i < PGN_ERRORS_KEPT; i++)
            fprintf(stderr, "octad pgn: %s: %s\n", o->file, g->errors[i]);
    } else if (o->json) {
        s_json(o, g);
    } else {
        s_text(o, g);
    }
}

/* Parses the options; returns the index of the first file, or -1 (help shown), or -2 (usage error). */
static int s_parse(int argc, char **argv, s_opts_t *o, pgn_replay_t *r)
{
    int first = -1;
    for (int i = 0; i < argc; i++) {
        const char *v = NULL;
        int rc = args_value("pgn", argc, argv, &i, "--variant", &v);
        if (rc < 0)
            return -2;
        if (rc > 0) {
            if (game_variant_parse(v, &r->default_variant) != 0) {
                args_error("pgn", "--variant: '%.40s' is not octad, chess or chess960", v);
                return -2;
            }
        } else if (strcmp(argv[i], "--json") == 0) {
            o->json = true;
        } else if (strcmp(argv[i], "--write") == 0) {
            o->write = true;
        } else if (strcmp(argv[i], "--variations") == 0) {
            o->variations = true;
        } else if (strcmp(argv[i], "--skip-variations") == 0) {
            o->skip_variations = true;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            o->quiet = true;
        } else {
            args_kind_t kind = args_other("pgn", argv[i]);
            if (kind != ARGS_PLAIN)
                return kind == ARGS_HELP ? (s_help(), -1) : -2;
            if (first < 0)
                first = i;
        }
    }
    if (first < 0) {
        args_error("pgn", "no PGN file given (see octad pgn --help)");
        return -2;
    }
    if (o->variations && o->skip_variations) {
        args_error("pgn", "--variations and --skip-variations exclude each other");
        return -2;
    }
    r->keep_variations = o->variations || (o->write && !o->skip_variations);
    return first;
}

int cmd_pgn(int argc, char **argv)
{
    s_opts_t o = {0};
    pgn_replay_t r = {.default_variant = VARIANT_CHESS, .on_game = s_on_game, .ctx = &o};
    int first = s_parse(argc, argv, &o, &r);
    if (first < 0)
        return first == -1 ? EXIT_OK : EXIT_USAGE;
    for (int i = first; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            continue;
        FILE *f = strcmp(argv[i], "-") == 0 ? stdin : fopen(argv[i], "rb");
        if (f == NULL) {
            args_error("pgn", "%.200s: cannot open", argv[i]);
            return EXIT_FAIL;
        }
        o.file = argv[i];
        errno = 0;
        long n = pgn_replay(f, &r);
        int read_errno = errno; /* pgn_replay sets it on a read error */
        if (f != stdin)
            fclose(f);
        if (n < 0) {
            args_error("pgn", "%.200s: read error (%s)", argv[i], strerror(read_errno ? read_errno : EIO));
            return EXIT_FAIL;
        }
    }
    if (o.broken > 0) {
        args_error("pgn", "%ld of %ld games had errors", o.broken, o.games);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}
