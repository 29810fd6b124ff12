/* cmd_selfplay.c: `octad selfplay`: N games between two players, written as PGN,
 * with a table of results by termination. Deterministic for a given seed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "cmd.h"
#include "pgn_game.h"
#include "player.h"
#include "start.h"
#include "variant_opt.h"

typedef struct {
    long games, seed;
    variant_t variant;
    const char *white, *black, *start, *out, *go;
    bool json, quiet;
} s_opts_t;

typedef struct {
    long games, by_result[4];
    long by_term[TERM_NB][4];
    const char *term_name[TERM_NB];
} s_table_t;

static const char s_usage[] =
    "usage: octad selfplay [options]\n"
    "Plays games between two players, writes them as PGN and prints a table of\n"
    "results by termination. The same options and seed give the same games.\n\n";

#define F(field) OPT_AT(s_opts_t, field)
static const opt_t s_rows[] = {
    {"--games", 0, OPT_INT, "N", F(games), "games to play (default 10)", .lo = 1, .hi = 1000000},
    {"--white", 0, OPT_TEXT, "P", F(white), "White's player (default random): random, engine[:DEPTH|:MSms]\n"
     "(our engine; default depth 6), or uci:COMMAND (a UCI engine run\nas `sh -c COMMAND`)"},
    {"--black", 0, OPT_TEXT, "P", F(black), "Black's player, likewise"},
    {"--variant", 0, OPT_CUSTOM, "V", F(variant), "octad (default), chess or chess960", .parse = variant_opt_parse},
    {"--start", 0, OPT_TEXT, "S", F(start), "standard (default; chess960: deployed), deployed (a random octad\n"
     "deployed start or Chess960 start per game), or a number\n(octad deployed start 0-143, chess960 start 0-959)"},
    {"--seed", 0, OPT_INT, "S", F(seed), "random seed (default 1)", .lo = 0, .hi = 0x7fffffffL},
    {"--go", 0, OPT_STRING, "ARGS", F(go), "what UCI players are told after \"go\" (default \"movetime 100\")"},
    {"--out", 0, OPT_TEXT, "FILE", F(out), "write the PGN there (default: standard output, table on stderr)"},
    {"--json", 0, OPT_FLAG, NULL, F(json), "print the table as one JSON object"},
    {"--quiet", 0, OPT_FLAG, NULL, F(quiet), "no progress line"},
};
#undef F

static const opt_spec_t s_spec = {.prog = "octad selfplay", .usage = s_usage, .rows = s_rows,
                                  .row_nb = sizeof s_rows / sizeof s_rows[0]};

/* OPT_HELP (help printed), 0 ok, or EXIT_USAGE. */
static int s_parse(int argc, char **argv, s_opts_t *o)
{
    *o = (s_opts_t){.games = 10, .seed = 1, .variant = VARIANT_OCTAD, .white = "random", .black = "random"};
    int rc = opt_parse(&s_spec, argc, argv, o);
    if (rc == 0 && o->start == NULL && o->variant == VARIANT_CHESS960)
        o->start = "deployed";
    return rc;
}

/* Plays one game to its end into *rec. 0, or -1 after printing the player's error. */
static int s_play(player_t *white, player_t *black, const game_pos_t *start, record_t *rec)
{
    char err[256];
    gmove_t m;
    if (record_init(rec, start) != 0)
        return -1;
    while (!record_over(rec)) {
        const game_pos_t *p = record_pos(rec);
        int side = p->variant == VARIANT_OCTAD ? p->u.octad.side : p->u.chess.side;
        player_t *mover = side == 0 ? white : black;
        if (mover->choose_move(mover, rec, &m, err, sizeof err) != 0 || record_play(rec, m) != 0) {
            args_error("selfplay", "%s", err);
            return -1;
        }
    }
    return 0;
}

static int s_write_game(FILE *f, const s_opts_t *o, long round, const record_t *rec, const player_t *w,
                        const player_t *b)
{
    pgn_game_t g;
    char buf[64];
    time_t now = time(NULL);
    struct tm tm;
    if (pgn_game_from_record(&g, rec) != 0)
        return -1;
    gmtime_r(&now, &tm);
    strftime(buf, sizeof buf, "%Y.%m.%d", &tm);
    pgn_game_set_tag(&g, "Event", "octad selfplay");
    pgn_game_set_tag(&g, "Date", buf);
    snprintf(buf, sizeof buf, "%ld", round);
    pgn_game_set_tag(&g, "Round", buf);
    pgn_game_set_tag(&g, "White", w->name);
    pgn_game_set_tag(&g, "Black", b->name);
    snprintf(buf, sizeof buf, "%ld", o->seed);
    pgn_game_set_tag(&g, "Seed", buf);
    int rc = pgn_write(f, &g);
    pgn_game_free(&g);
    return rc;
}

static void s_print_table(FILE *f, const s_opts_t *o, const s_table_t *t)
{
    if (o->json) {
        fprintf(f, "{\"games\":%ld,\"variant\":\"%s\",\"white\":\"%s\",\"black\":\"%s\",\"seed\":%ld,"
                   "\"results\":{\"1-0\":%ld,\"0-1\":%ld,\"1/2-1/2\":%ld},\"terminations\":{",
                t->games, game_variant_name(o->variant), o->white, o->black, o->seed, t->by_result[RESULT_WHITE],
                t->by_result[RESULT_BLACK], t->by_result[RESULT_DRAW]);
        bool first = true;
        for (int k = 0; k < TERM_NB; k++)
            if (t->term_name[k]) {
                long n = t->by_term[k][1] + t->by_term[k][2] + t->by_term[k][3];
                fprintf(f, "%s\"%s\":%ld", first ? "" : ",", t->term_name[k], n);
                first = false;
            }
        fprintf(f, "}}\n");
        return;
    }
    fprintf(f, "%ld games (%s, %s v %s, seed %ld): 1-0 %ld, 0-1 %ld, 1/2-1/2 %ld\n", t->games,
            game_variant_name(o->variant), o->white, o->black, o->seed, t->by_result[RESULT_WHITE],
            t->by_result[RESULT_BLACK], t->by_result[RESULT_DRAW]);
    fprintf(f, "%-32s %6s %6s %6s %8s\n", "termination", "games", "1-0", "0-1", "1/2-1/2");
    for (int k = 0; k < TERM_NB; k++)
        if (t->term_name[k])
            fprintf(f, "%-32s %6ld %6ld %6ld %8ld\n", t->term_name[k],
                    t->by_term[k][1] + t->by_term[k][2] + t->by_term[k][3], t->by_term[k][1], t->by_term[k][2],
                    t->by_term[k][3]);
}

/* Plays every game; 0, or an exit status. */
static int s_run(const s_opts_t *o, player_t *w, player_t *b, FILE *pgn, s_table_t *t)
{
    uint64_t rng = (uint64_t)o->seed * 0x100000001B3ull + 7;
    bool progress = !o->quiet && isatty(2);
    for (long k = 1; k <= o->games; k++) {
        game_pos_t start;
        record_t rec;
        char err[160];
        if (start_position(o->variant, o->start, &rng, &start, err, sizeof err) != 0) {
            args_error("selfplay", "%s", err);
            return EXIT_USAGE;
        }
        if (s_play(w, b, &start, &rec) != 0) {
            record_free(&rec);
            return EXIT_FAIL;
        }
        int rc = s_write_game(pgn, o, k, &rec, w, b);
        t->games++;
        t->by_result[rec.result]++;
        t->by_term[rec.termination][rec.result]++;
        t->term_name[rec.termination] = record_termination_name(&rec);
        record_free(&rec);
        if (rc != 0) {
            args_error("selfplay", "cannot write the PGN");
            return EXIT_FAIL;
        }
        if (progress)
            fprintf(stderr, "\rgame %ld/%ld", k, o->games);
    }
    if (progress)
        fputc('\n', stderr);
    return EXIT_OK;
}

int cmd_selfplay(int argc, char **argv)
{
    s_opts_t o;
    int rc = s_parse(argc, argv, &o);
    if (rc != 0)
        return rc == OPT_HELP ? EXIT_OK : rc;
    char err[256];
    game_pos_t probe;
    uint64_t probe_rng = 0;
    if (start_position(o.variant, o.start, &probe_rng, &probe, err, sizeof err) != 0) {
        args_error("selfplay", "%s", err);
        return EXIT_USAGE;
    }
    player_opts_t pw = {.seed = (uint64_t)o.seed * 2 + 1, .go = o.go}, pb = {.seed = (uint64_t)o.seed * 2 + 2, .go = o.go};
    player_t *w = player_new(o.white, &pw, err, sizeof err), *b = NULL;
    if (w == NULL || (b = player_new(o.black, &pb, err, sizeof err)) == NULL) {
        args_error("selfplay", "%s", err);
        player_destroy(&w);
        return EXIT_USAGE;
    }
    FILE *pgn = o.out ? fopen(o.out, "w") : stdout;
    s_table_t table = {0};
    if (pgn == NULL) {
        args_error("selfplay", "%.200s: cannot write", o.out);
        rc = EXIT_FAIL;
    } else {
        rc = s_run(&o, w, b, pgn, &table);
        if (o.out && fclose(pgn) != 0)
            rc = EXIT_FAIL;
        s_print_table(o.out ? stdout : stderr, &o, &table);
    }
    player_destroy(&w);
    player_destroy(&b);
    return rc;
}
