/* cmd_svg.c: `octad svg`: a position (after some moves) as an SVG board image on standard output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cmd.h"
#include "record.h"
#include "record_moves.h"
#include "svg.h"

typedef struct {
    args_pos_t pos;
    const char *moves;
    bool lastmove;
    svg_opts_t svg;
    const char *arrows[SVG_ARROWS_MAX], *marks[64];
    int arrow_nb, mark_nb;
} s_opts_t;

static void s_help(void)
{
    printf("usage: octad svg [options] [POSITION] > board.svg\n"
           "Draws a position as an SVG image: octad 4x4 or chess 8x8, our own piece artwork.\n\n"
           "  --variant V       octad (default), chess or chess960\n"
           "  --ofen TEXT       the position (OFEN/FEN); --fen is a synonym; default: the start\n"
           "  --start N         chess960 only: start position N\n"
           "  --moves \"M...\"    then play these moves (SAN or UOI/UCI)\n"
           "  --lastmove        highlight the last of --moves\n"
           "  --flip            Black at the bottom\n"
           "  --arrow a1c2      draw an arrow (repeatable, up to %d)\n"
           "  --mark b2         ring a square (repeatable)\n"
           "  --size N          width and height in pixels (default 360)\n"
           "  --no-coordinates  leave out the file letters and rank digits\n"
           "  --light C, --dark C, --highlight C, --arrow-color C, --mark-color C   colours (SVG syntax)\n"
           "  --help            this text\n"
           "The king in check is shown in red.\n",
           SVG_ARROWS_MAX);
}

/* Colour and repeatable options; same return as args_value. */
static int s_value(int argc, char **argv, int *i, s_opts_t *o)
{
    static const char *const names[] = {"--light", "--dark", "--highlight", "--arrow-color", "--mark-color",
                                        "--arrow", "--mark", "--size", "--moves"};
    const char **slots[] = {&o->svg.light, &o->svg.dark, &o->svg.highlight, &o->svg.arrow_color, &o->svg.mark_color};
    const char *v;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        int rc = args_value("svg", argc, argv, i, names[k], &v);
        if (rc <= 0) {
            if (rc < 0)
                return -1;
            continue;
        }
        if (k < 5 && !svg_color_ok(v)) {
            args_error("svg", "%s: '%.40s' is not a colour (a name, #rrggbb or rgb(...))", names[k], v);
            return -1;
        } else if (k < 5)
            *slots[k] = v;
        else if (k == 5 && o->arrow_nb < SVG_ARROWS_MAX)
            o->arrows[o->arrow_nb++] = v;
        else if (k == 6 && o->mark_nb < 64)
            o->marks[o->mark_nb++] = v;
        else if (k == 7) {
            long size;
            if (args_int("svg", "--size", v, 16, 4096, &size) != 0)
                return -1;
            o->svg.size = (int)size;
        } else if (k == 8)
            o->moves = v;
        else {
            args_error("svg", "%s: too many", names[k]);
            return -1;
        }
        return 1;
    }
    return 0;
}

/* 0 ok, 1 help shown, 2 usage error. */
static int s_parse(int argc, char **argv, s_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->pos = (args_pos_t){.variant = VARIANT_OCTAD, .start = -1};
    o->svg = svg_default_opts();
    for (int i = 0; i < argc; i++) {
        int rc = s_value(argc, argv, &i, o);
        if (rc == 0)
            rc = args_pos_option("svg", argc, argv, &i, &o->pos);
        if (rc < 0)
            return 2;
        if (rc > 0)
            continue;
        if (strcmp(argv[i], "--flip") == 0) {
            o->svg.flip = true;
        } else if (strcmp(argv[i], "--lastmove") == 0) {
            o->lastmove = true;
        } else if (strcmp(argv[i], "--no-coordinates") == 0) {
            o->svg.no_coordinates = true;
        } else {
            args_kind_t kind = args_other("svg", argv[i]);
            if (kind != ARGS_PLAIN)
                return kind == ARGS_HELP ? (s_help(), 1) : 2;
            if (o->pos.text != NULL) {
                args_error("svg", "one position only (quote the OFEN/FEN: it contains spaces)");
                return 2;
            }
            o->pos.text = argv[i];
        }
    }
    return 0;
}

/* Turns the arrow and mark texts into squares; 0 or -1 after printing the error. */
static int s_squares(s_opts_t *o, int n)
{
    for (int i = 0; i < o->arrow_nb; i++) {
        char a[3] = {0}, b[3] = {0};
        if (strlen(o->arrows[i]) == 4)
            memcpy(a, o->arrows[i], 2), memcpy(b, o->arrows[i] + 2, 2);
        o->svg.arrows[i].from = svg_square_parse(a, n);
        o->svg.arrows[i].to = svg_square_parse(b, n);
        if (o->svg.arrows[i].from < 0 || o->svg.arrows[i].to < 0 || o->svg.arrows[i].from == o->svg.arrows[i].to) {
            args_error("svg", "--arrow '%.20s': two different squares of the %dx%d board, such as a1c2", o->arrows[i],
                       n, n);
            return -1;
        }
    }
    o->svg.arrow_nb = o->arrow_nb;
    for (int i = 0; i < o->mark_nb; i++) {
        int sq = svg_square_parse(o->marks[i], n);
        if (sq < 0) {
            args_error("svg", "--mark '%.20s': a square of the %dx%d board", o->marks[i], n, n);
            return -1;
        }
        o->svg.marked |= 1ull << sq;
    }
    return 0;
}

int cmd_svg(int argc, char **argv)
{
    s_opts_t o;
    game_pos_t start;
    record_t rec = {0};
    int rc = s_parse(argc, argv, &o);
    if (rc != 0)
        return rc == 1 ? EXIT_OK : EXIT_USAGE;
    o.pos.moves = NULL; /* played here, in SAN or UOI */
    if (args_pos_resolve("svg", &o.pos, &start) != 0 || record_init(&rec, &start) != 0 || record_moves_play("svg", &rec, o.moves) != 0
        || s_squares(&o, start.variant == VARIANT_OCTAD ? 4 : 8) != 0) {
        record_free(&rec);
        return EXIT_USAGE;
    }
    if (o.lastmove && rec.ply_nb == 0) {
        args_error("svg", "--lastmove: no move to show (give it with --moves)");
        record_free(&rec);
        return EXIT_USAGE;
    }
    if (o.lastmove) {
        gmove_info_t i = gmove_info(record_pos_at(&rec, rec.ply_nb - 1), rec.plies[rec.ply_nb].move);
        int n = start.variant == VARIANT_OCTAD ? 4 : 8;
        o.svg.last_from = i.from_rank * n + i.from_file;
        o.svg.last_to = i.to_rank * n + i.to_file;
    }
    char *svg = svg_board(record_pos(&rec), &o.svg);
    record_free(&rec);
    if (svg == NULL)
        return EXIT_FAIL;
    fputs(svg, stdout);
    free(svg);
    return EXIT_OK;
}
