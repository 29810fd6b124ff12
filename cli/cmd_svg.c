/* cmd_svg.c: `octad svg`: a position (after some moves) as an SVG board image on standard output. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cmd.h"
#include "err.h"
#include "record.h"
#include "record_moves.h"
#include "svg.h"

/* A repeatable option's values (--arrow, --mark), up to cap. */
typedef struct {
    const char *v[64];
    int n, cap;
} s_list_t;

typedef struct {
    args_pos_t pos;
    bool lastmove;
    svg_opts_t svg;
    s_list_t arrows, marks;
} s_opts_t;

static const char s_usage[] =
    "usage: octad svg [options] [POSITION] > board.svg\n"
    "Draws a position as an SVG image: octad 4x4 or chess 8x8, our own piece artwork.\n"
    "POSITION is an OFEN (octad) or FEN (chess, chess960); quote it. Default: the start.\n"
    "Here --moves takes SAN too.\n\n";

static const char s_epilogue[] = "\nThe king in check is shown in red.\n";

/* A colour option: what svg_color_ok takes. */
static int s_color(const char *text, void *field, char *err, size_t errlen)
{
    if (!svg_color_ok(text))
        return err_printf(err, errlen, "'%.40s' is not a colour (a name, #rrggbb or rgb(...))", text);
    *(const char **)field = text;
    return 0;
}

/* One more value of a repeatable option. */
static int s_append(const char *text, void *field, char *err, size_t errlen)
{
    s_list_t *list = field;
    if (list->n == list->cap)
        return err_printf(err, errlen, "too many (at most %d)", list->cap);
    list->v[list->n++] = text;
    return 0;
}

_Static_assert(offsetof(s_opts_t, pos) == 0, "args_pos_plain reads the options as their args_pos_t");

#define F(field) OPT_AT(s_opts_t, field)
static const opt_t s_rows[] = {
    {"--lastmove", 0, OPT_FLAG, NULL, F(lastmove), "highlight the last of --moves"},
    {"--flip", 0, OPT_FLAG, NULL, F(svg.flip), "Black at the bottom"},
    {"--arrow", 0, OPT_CUSTOM, "a1c2", F(arrows), "draw an arrow (repeatable, up to 16)", .parse = s_append},
    {"--mark", 0, OPT_CUSTOM, "b2", F(marks), "ring a square (repeatable)", .parse = s_append},
    {"--size", 0, OPT_INT, "N", F(svg.size), "width and height in pixels (default 360)", .lo = 16, .hi = 4096},
    {"--no-coordinates", 0, OPT_FLAG, NULL, F(svg.no_coordinates), "leave out the file letters and rank digits"},
    {"--light", 0, OPT_CUSTOM, "C", F(svg.light), "light squares' colour (SVG syntax)", .parse = s_color},
    {"--dark", 0, OPT_CUSTOM, "C", F(svg.dark), "dark squares' colour", .parse = s_color},
    {"--highlight", 0, OPT_CUSTOM, "C", F(svg.highlight), "the last move's colour", .parse = s_color},
    {"--arrow-color", 0, OPT_CUSTOM, "C", F(svg.arrow_color), "arrows' colour", .parse = s_color},
    {"--mark-color", 0, OPT_CUSTOM, "C", F(svg.mark_color), "marks' colour", .parse = s_color},
};
#undef F

static const opt_spec_t s_spec = {.prog = "octad svg", .usage = s_usage, .epilogue = s_epilogue, .rows = s_rows,
                                  .row_nb = sizeof s_rows / sizeof s_rows[0], .plain = args_pos_plain,
                                  ARGS_POS_SHARED(s_opts_t)};

_Static_assert(SVG_ARROWS_MAX == 16, "--arrow's help names the limit");

/* OPT_HELP (help printed), 0 ok, or EXIT_USAGE. */
static int s_parse(int argc, char **argv, s_opts_t *o)
{
    *o = (s_opts_t){.pos = {.variant = VARIANT_OCTAD, .start = -1}, .svg = svg_default_opts(),
                    .arrows = {.cap = SVG_ARROWS_MAX}, .marks = {.cap = 64}};
    return opt_parse(&s_spec, argc, argv, o);
}

/* Turns the arrow and mark texts into squares; 0 or -1 after printing the error. */
static int s_squares(s_opts_t *o, int n)
{
    for (int i = 0; i < o->arrows.n; i++) {
        char a[3] = {0}, b[3] = {0};
        if (strlen(o->arrows.v[i]) == 4)
            memcpy(a, o->arrows.v[i], 2), memcpy(b, o->arrows.v[i] + 2, 2);
        o->svg.arrows[i].from = svg_square_parse(a, n);
        o->svg.arrows[i].to = svg_square_parse(b, n);
        if (o->svg.arrows[i].from < 0 || o->svg.arrows[i].to < 0 || o->svg.arrows[i].from == o->svg.arrows[i].to) {
            args_error("svg", "--arrow '%.20s': two different squares of the %dx%d board, such as a1c2", o->arrows.v[i],
                       n, n);
            return -1;
        }
    }
    o->svg.arrow_nb = o->arrows.n;
    for (int i = 0; i < o->marks.n; i++) {
        int sq = svg_square_parse(o->marks.v[i], n);
        if (sq < 0) {
            args_error("svg", "--mark '%.20s': a square of the %dx%d board", o->marks.v[i], n, n);
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
        return rc == OPT_HELP ? EXIT_OK : rc;
    const char *moves = o.pos.moves;
    o.pos.moves = NULL; /* played here, in SAN or UOI */
    if (args_pos_resolve("svg", &o.pos, &start) != 0 || record_init(&rec, &start) != 0 ||
        record_moves_play("svg", &rec, moves) != 0 || s_squares(&o, start.variant == VARIANT_OCTAD ? 4 : 8) != 0) {
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
