/* cmd_search.c: `octad search`: the engine's analysis of one position, as
 * UCI-style info lines and a best move, or one JSON object. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "tables_probe.h"
#include "cmd.h"
#include "engine.h"
#include "err.h"
#include "format.h"
#include "split_move.h"

static const char s_usage[] =
    "usage: octad search [options] [POSITION]\n"
    "Searches a position with the engine (alpha-beta) and prints its analysis.\n\n"
    "POSITION is an OFEN (octad) or FEN (chess, chess960); quote it. Default: the start.\n";

static const char s_epilogue[] =
    "\nPrints UCI info lines and 'bestmove M [ponder P]'; with --depth or --nodes the result\n"
    "is the same on every run. Exit status 0, or 2 on bad usage or a bad position.\n";

typedef struct {
    args_pos_t pos;
    engine_limits_t lim;
    long hash_mb, threads;
    const char *tables;
    bool json, split;
} s_opts_t;

/* --multipv K|all. */
static int s_multipv(const char *text, void *field, char *err, size_t errlen)
{
    long long n = GAME_MOVES_MAX;
    if (strcmp(text, "all") != 0 && opt_read_int(text, 1, GAME_MOVES_MAX, &n, err, errlen) != 0)
        return err_printf(err, errlen, "expected 'all' or an integer in 1..%d, got '%.40s'", GAME_MOVES_MAX, text);
    *(int *)field = (int)n;
    return 0;
}

_Static_assert(offsetof(s_opts_t, pos) == 0, "args_pos_plain reads the options as their args_pos_t");

#define F(field) OPT_AT(s_opts_t, field)
static const opt_t s_rows[] = {
    {"--depth", 0, OPT_INT, "N", F(lim.depth), "search N plies (default 10 if no other limit)", .lo = 1,
     .hi = ENGINE_DEPTH_MAX},
    {"--movetime", 0, OPT_INT, "MS", F(lim.movetime_ms), "search for MS milliseconds", .lo = 1, .hi = 86400000L},
    {"--nodes", 0, OPT_INT, "N", F(lim.nodes), "stop after about N nodes", .lo = 1, .hi = 1000000000000LL},
    {"--multipv", 0, OPT_CUSTOM, "K", F(lim.multipv), "report the K best moves (K or 'all'; default 1)",
     .parse = s_multipv},
    {"--hash", 0, OPT_INT, "MB", F(hash_mb), "transposition table size in MiB (default 64)", .lo = 1, .hi = 65536},
    {"--threads", 0, OPT_INT, "N", F(threads), "search threads (lazy SMP; default 1, the only deterministic one)",
     .lo = 1, .hi = ENGINE_THREADS_MAX},
    {"--tables", 0, OPT_STRING, "DIR", F(tables), "octad: read exact values from the solver's tables where present"},
    {"--split", 0, OPT_FLAG, NULL, F(split), "with --depth: every root move searched on its own (a fresh\n"
     "table each), best first: per-move scores that do not depend\n"
     "on how the moves are shared out (PROTOCOL.md section 12)"},
    {"--json", 0, OPT_FLAG, NULL, F(json), "print one JSON object instead of info lines"},
};
#undef F

static const opt_spec_t s_spec = {.prog = "octad search", .usage = s_usage, .epilogue = s_epilogue, .rows = s_rows,
                                  .row_nb = sizeof s_rows / sizeof s_rows[0], .plain = args_pos_plain,
                                  ARGS_POS_SHARED(s_opts_t)};

/* Parses argv into *o; OPT_HELP (help printed), 0 ok, or EXIT_USAGE. */
static int s_parse(int argc, char **argv, s_opts_t *o)
{
    *o = (s_opts_t){ .pos = { .variant = VARIANT_OCTAD, .start = -1 }, .hash_mb = 64, .threads = 1 };
    int rc = opt_parse(&s_spec, argc, argv, o);
    if (rc != 0)
        return rc;
    if (o->split && (!o->lim.depth || o->lim.movetime_ms || o->lim.nodes || o->threads != 1 || o->lim.nsearchmoves))
        return opt_usage("octad search", "--split needs --depth N and one thread (no --movetime, --nodes or --threads)");
    if (!o->lim.depth && !o->lim.movetime_ms && !o->lim.nodes)
        o->lim.depth = 10;
    return 0;
}

/* The position and the game before it: the start, then --moves one by one. */
static int s_game(s_opts_t *o, engine_game_t *g)
{
    game_pos_t root;
    const char *moves = o->pos.moves;
    o->pos.moves = NULL;
    if (args_pos_resolve("search", &o->pos, &root) != 0)
        return -1;
    engine_game_reset(g, &root);
    int ply = 0;
    for (const char *p = moves ? moves : ""; *p;) {
        size_t n = strcspn(p, " \t");
        char move[MOVE_TEXT_MAX];
        if (n == 0) {
            p++;
            continue;
        }
        ply++;
        snprintf(move, sizeof move, "%.*s", (int)(n < sizeof move ? n : sizeof move - 1), p);
        if (n >= sizeof move || engine_game_play(g, move) != 0) {
            args_error("search", "--moves: move %d '%.20s': not a legal move in this position", ply, move);
            return -1;
        }
        p += n;
    }
    return 0;
}

static void s_print_info(void *ctx, const game_pos_t *root, const engine_info_t *info)
{
    static char line[FORMAT_INFO_MAX];
    (void)ctx;
    format_info(root, info, line, sizeof line);
    puts(line);
    fflush(stdout);
}

/* --split: each legal root move searched alone (engine_split_move), so its
 * score depends on nothing but the position, the history, the move, the
 * depth and the table size. *r gets one line per move, best first
 * (engine_split_collect), and the summed nodes. */
static void s_split(engine_t *eng, const engine_game_t *g, const s_opts_t *o, engine_result_t *r)
{
    static game_child_t kids[GAME_MOVES_MAX];
    static engine_result_t one;
    static engine_line_t lines[GAME_MOVES_MAX];
    int n = game_children(&g->pos, kids);
    engine_history_t h = engine_game_history(g);
    memset(r, 0, sizeof *r);
    for (int i = 0; i < n; i++) {
        engine_split_move(eng, &g->pos, &h, engine_move_parse(&g->pos, kids[i].uoi), o->lim.depth, &one);
        lines[i] = one.lines[0];
        r->nodes += one.nodes;
        r->time_ms += one.time_ms;
        if (one.seldepth > r->seldepth)
            r->seldepth = one.seldepth;
    }
    engine_split_collect(r, lines, n);
    r->depth = o->lim.depth;
    for (int i = 0; i < r->nlines && !o->json; i++) {
        engine_info_t info = {.depth = r->depth, .seldepth = r->seldepth, .multipv = i + 1, .line = &r->lines[i],
                              .nodes = r->nodes, .time_ms = r->time_ms};
        s_print_info(NULL, &g->pos, &info);
    }
}

int cmd_search(int argc, char **argv)
{
    static s_opts_t o;
    static engine_game_t g;
    static engine_result_t r;
    int rc = s_parse(argc, argv, &o);
    if (rc != 0)
        return rc < 0 ? EXIT_OK : rc;
    if (s_game(&o, &g) != 0)
        return EXIT_USAGE;
    engine_t *eng = engine_new((size_t)o.hash_mb << 20);
    if (eng == NULL) {
        args_error("search", "out of memory for a %ld MiB table", o.hash_mb);
        return EXIT_FAIL;
    }
    engine_set_threads(eng, (int)o.threads);
    octad_tables_t *tables = o.tables ? octad_tables_open(o.tables) : NULL;
    if (tables)
        engine_set_probe(eng, tables_engine_probe, tables);
    engine_history_t h = engine_game_history(&g);
    if (o.split)
        s_split(eng, &g, &o, &r);
    else
        engine_search(eng, &g.pos, &h, &o.lim, NULL, o.json ? NULL : s_print_info, NULL, &r);
    engine_destroy(&eng);
    octad_tables_close(&tables);
    if (o.json)
        format_print_json(stdout, &g.pos, &r);
    else
        format_print_bestmove(stdout, &g.pos, &r);
    return EXIT_OK;
}
