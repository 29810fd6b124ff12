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

static void s_help(void)
{
    printf("usage: octad selfplay [options]\n"
           "Plays games between two players, writes them as PGN and prints a table of\n"
           "results by termination. The same options and seed give the same games.\n\n"
           "  --games N       games to play (default 10)\n"
           "  --white P       White's player (default random); --black P likewise. A player is\n"
           "                  random, engine[:DEPTH|:MSms] (our engine; default depth 6), or\n                  uci:COMMAND (a UCI engine run as `sh -c COMMAND`)\n"
           "  --variant V     octad (default), chess or chess960\n"
           "  --start S       standard (default; chess960: deployed), deployed (a random octad\n"
           "                  deployed start or Chess960 start per game), or a number\n"
           "                  (octad deployed start 0-143, chess960 start 0-959)\n"
           "  --seed S        random seed (default 1)\n"
           "  --go ARGS       what UCI players are told after \"go\" (default \"movetime 100\")\n"
           "  --out FILE      write the PGN there (default: standard output, table on stderr)\n"
           "  --json          print the table as one JSON object\n"
           "  --quiet         no progress line\n"
           "  --help          this text\n");
}

static int s_parse_value(int argc, char **argv, int *i, s_opts_t *o)
{
    static const char *const names[] = {"--games", "--white", "--black", "--variant", "--start",
                                        "--seed",  "--out",   "--go"};
    const char *v = NULL;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        int rc = args_value("selfplay", argc, argv, i, names[k], &v);
        if (rc < 0)
            return -1;
        if (rc == 0)
            continue;
        switch (k) {
        case 0: return args_int("selfplay", "--games", v, 1, 1000000, &o->games) ? -1 : 1;
        case 1: o->white = v; return 1;
        case 2: o->black = v; return 1;
        case 3:
            if (game_variant_parse(v, &o->variant) != 0) {
                args_error("selfplay", "--variant: '%.40s' is not octad, chess or chess960", v);
                return -1;
            }
            return 1;
        case 4: o->start = v; return 1;
        case 5: return args_int("selfplay", "--seed", v, 0, 0x7fffffffL, &o->seed) ? -1 : 1;
        case 6: o->out = v; return 1;
        default: o->go = v; return 1;
        }
    }
    return 0;
}

/* 0 ok, 1 help shown, 2 usage error. */
static int s_parse(int argc, char **argv, s_opts_t *o)
{
    *o = (s_opts_t){.games = 10, .seed = 1, .variant = VARIANT_OCTAD, .white = "random", .black = "random"};
    for (int i = 0; i < argc; i++) {
        int rc = s_parse_value(argc, argv, &i, o);
        if (rc < 0)
            return 2;
        if (rc > 0)
            continue;
        if (strcmp(argv[i], "--json") == 0) {
            o->json = true;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            o->quiet = true;
        } else {
            args_kind_t kind = args_other("selfplay", argv[i]);
            if (kind == ARGS_PLAIN)
                args_error("selfplay", "unexpected argument '%.40s' (see octad selfplay --help)", argv[i]);
            return kind == ARGS_HELP ? (s_help(), 1) : 2;
        }
    }
    if (o->start == NULL && o->variant == VARIANT_CHESS960)
        o->start = "deployed";
    return 0;
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
        return rc == 1 ? EXIT_OK : EXIT_USAGE;
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
