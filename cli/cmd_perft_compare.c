/* cmd_perft_compare.c: `octad perft --compare COMMAND`: our perft against another engine's, to the first difference. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "perft_compare.h"
#include "perft_engine_opts.h"
#include "perft_report.h"

enum { EXIT_DIFFER = 3 };

static const char s_help[] =
    "usage: octad perft --compare \"COMMAND\" [--variant V] [POSITION] [--depth N] [options]\n"
    "Runs COMMAND as a perft engine, compares its divide with ours and, where they\n"
    "differ, descends into a differing move again and again until it names the position\n"
    "(with the moves from the root) and the moves one side has and the other lacks, or\n"
    "the count that differs at depth 1.\n\n"
    "%s"
    "  --depth N       plies to compare (default 5); DEPTH alone says the same\n"
    "%s"
    "  --help          this text\n\n"
    "Chess960 sets UCI_Chess960 (castles as king takes rook), octad UCI_Variant octad\n"
    "(positions as OFEN). Exit status 0 equal, 3 differ, 2 bad usage, 1 the engine\n"
    "failed (no answer in time, it stopped, a line we cannot read: quoted).\n";

typedef struct {
    perft_engine_opts_t e;
    int depth;
} s_opts_t;

/* The options of --compare itself (perft_engine_own_fn): the depth and the position. */
static int s_own(int argc, char **argv, int *i, void *ctx)
{
    s_opts_t *o = ctx;
    const char *v = NULL, *arg = argv[*i];
    long n;
    int rc;
    if ((rc = args_value("perft", argc, argv, i, "--depth", &v)) != 0) {
        if (rc < 0 || args_int("perft", "--depth", v, 1, 40, &n) != 0)
            return -1;
        o->depth = (int)n;
        return 1;
    }
    if (arg[0] >= '0' && arg[0] <= '9' && strchr(arg, '/') == NULL) { /* a bare DEPTH */
        if (args_int("perft", "depth", arg, 1, 40, &n) != 0)
            return -1;
        o->depth = (int)n;
        return 1;
    }
    args_kind_t k = args_other("perft", arg);
    if (k == ARGS_HELP) {
        printf(s_help, ARGS_POS_HELP, PERFT_ENGINE_OPTS_HELP);
        return -2;
    }
    if (k == ARGS_BAD)
        return -1;
    if (o->e.pos.text != NULL) {
        args_error("perft", "two positions given ('%.40s' and '%.40s'): give one", o->e.pos.text, arg);
        return -1;
    }
    o->e.pos.text = arg;
    return 1;
}

/* Parses argv into *o; -1 done (help printed), 0 ok, 2 usage error. */
static int s_parse(int argc, char **argv, s_opts_t *o)
{
    perft_engine_opts_init(&o->e, "--compare");
    o->depth = 5;
    return perft_engine_opts_parse(argc, argv, &o->e, s_own, o);
}

static void s_print_json(const s_opts_t *o, const game_pos_t *pos, const perft_cmp_t *r)
{
    char text[GAME_TEXT_MAX];
    game_format(pos, text, sizeof text);
    fputs("{\"variant\":", stdout);
    json_string(stdout, game_variant_name(pos->variant));
    fputs(",\"root\":", stdout);
    json_string(stdout, text);
    fprintf(stdout, ",\"root_depth\":%d,\"engine\":", o->depth);
    json_string(stdout, o->e.command);
    fputs(",\"protocol\":", stdout);
    json_string(stdout, o->e.protocol);
    fputc(',', stdout);
    perft_report_json_members(stdout, r);
    fputs("}\n", stdout);
}

int cmd_perft_compare(int argc, char **argv)
{
    s_opts_t o;
    game_pos_t pos;
    perft_cmp_t *r;
    perft_engine_t *eng;
    char err[512], text[GAME_TEXT_MAX];
    int rc = s_parse(argc, argv, &o);
    if (rc != 0)
        return rc < 0 ? EXIT_OK : rc;
    if (args_pos_resolve("perft", &o.e.pos, &pos) != 0)
        return EXIT_USAGE;
    r = malloc(sizeof *r);
    eng = r ? perft_engine_new(o.e.command, o.e.protocol, pos.variant, o.e.timeout_ms, err, sizeof err) : NULL;
    if (eng == NULL || perft_compare(eng, &pos, o.depth, r, err, sizeof err) != 0) {
        args_error("perft", "%s", r ? err : "out of memory");
        perft_engine_destroy(&eng);
        free(r);
        return EXIT_FAIL;
    }
    perft_engine_destroy(&eng);
    if (o.e.json) {
        s_print_json(&o, &pos, r);
    } else {
        game_format(&pos, text, sizeof text);
        printf("engine     %s (%s)\nvariant    %s\nroot       %s\ndepth      %d\n", o.e.command, o.e.protocol,
               game_variant_name(pos.variant), text, o.depth);
        perft_report_text(stdout, r);
    }
    rc = r->equal ? EXIT_OK : EXIT_DIFFER;
    free(r);
    return rc;
}
