/* cmd_pgn.c: `octad pgn`: read PGN files, replay every game through the rules,
 * report each game (or re-emit it as normalised PGN). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cmd.h"
#include "json.h"
#include "pgn_game.h"
#include "variant_opt.h"

typedef struct {
    bool json, write, quiet, variations, skip_variations;
    variant_t variant;    /* of games without a [Variant] tag */
    const char **files;   /* the FILE arguments, in order (file_nb of them) */
    int file_nb;
    const char *file;     /* the one being read */
    long games, broken;
} s_opts_t;

static const char s_usage[] =
    "usage: octad pgn [options] FILE...\n"
    "Reads every game of each PGN file ('-' is standard input), replays it through the\n"
    "rules and prints per game its number, moves, final position, result and termination.\n"
    "A broken game is reported with game number, line and column; the others are read.\n\n";

static const char s_epilogue[] =
    "\nExit status: 0 all games read, 2 a game had errors or bad usage, 1 a file could not be read.\n";

/* A FILE argument (the list has room for every argument). */
static int s_file(const char *arg, void *base, char *err, size_t errlen)
{
    s_opts_t *o = base;
    (void)err, (void)errlen;
    o->files[o->file_nb++] = arg;
    return 0;
}

#define F(field) OPT_AT(s_opts_t, field)
static const opt_t s_rows[] = {
    {"--variant", 0, OPT_CUSTOM, "V", F(variant), "variant of games without a [Variant] tag: chess (default), octad,\n"
     "chess960", .parse = variant_opt_parse},
    {"--json", 0, OPT_FLAG, NULL, F(json), "one JSON object per game and line: game, file, line, variant, start,\n"
     "plies, moves, final, result, termination, variations, errors"},
    {"--write", 0, OPT_FLAG, NULL, F(write), "re-emit every game that replays as normalised PGN, variations kept\n"
     "(one with an illegal move is cut there, and reported)"},
    {"--variations", 0, OPT_FLAG, NULL, F(variations),
     "replay variations too and report their errors (default with --write)"},
    {"--skip-variations", 0, OPT_FLAG, NULL, F(skip_variations), "skip variations unread (default without --write)"},
    {"--quiet", 0, OPT_FLAG, NULL, F(quiet), "print only the games with errors (and the summary)"},
};
#undef F

static const opt_spec_t s_spec = {.prog = "octad pgn", .usage = s_usage, .epilogue = s_epilogue, .rows = s_rows,
                                  .row_nb = sizeof s_rows / sizeof s_rows[0], .plain = s_file};

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

/* Parses the options into *o (o->files must have room for argc) and *r; OPT_HELP (help
 * printed), 0 ok, or EXIT_USAGE. */
static int s_parse(int argc, char **argv, s_opts_t *o, pgn_replay_t *r)
{
    o->variant = VARIANT_CHESS;
    int rc = opt_parse(&s_spec, argc, argv, o);
    if (rc != 0)
        return rc;
    if (o->file_nb == 0)
        return opt_usage("octad pgn", "no PGN file given");
    if (o->variations && o->skip_variations)
        return opt_usage("octad pgn", "--variations and --skip-variations exclude each other");
    r->default_variant = o->variant;
    r->keep_variations = o->variations || (o->write && !o->skip_variations);
    return 0;
}

/* Reads every file of o->files; the exit status. */
static int s_read_all(s_opts_t *o, pgn_replay_t *r)
{
    for (int k = 0; k < o->file_nb; k++) {
        const char *name = o->files[k];
        FILE *f = strcmp(name, "-") == 0 ? stdin : fopen(name, "rb");
        if (f == NULL) {
            args_error("pgn", "%.200s: cannot open", name);
            return EXIT_FAIL;
        }
        o->file = name;
        errno = 0;
        long n = pgn_replay(f, r);
        int read_errno = errno; /* pgn_replay sets it on a read error */
        if (f != stdin)
            fclose(f);
        if (n < 0) {
            args_error("pgn", "%.200s: read error (%s)", name, strerror(read_errno ? read_errno : EIO));
            return EXIT_FAIL;
        }
    }
    if (o->broken > 0) {
        args_error("pgn", "%ld of %ld games had errors", o->broken, o->games);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int cmd_pgn(int argc, char **argv)
{
    s_opts_t o = {.files = malloc(sizeof(const char *) * (size_t)(argc > 0 ? argc : 1))};
    pgn_replay_t r = {.on_game = s_on_game, .ctx = &o};
    if (o.files == NULL) {
        args_error("pgn", "out of memory");
        return EXIT_FAIL;
    }
    int rc = s_parse(argc, argv, &o, &r);
    if (rc == 0)
        rc = s_read_all(&o, &r);
    free(o.files);
    return rc == OPT_HELP ? EXIT_OK : rc;
}
