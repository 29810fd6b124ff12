/* svg.c: board images (svg.h): squares, coordinates, last move, check, marks, arrows, pieces. */
#include "svg.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pieces.h"

bool svg_color_ok(const char *text)
{
    size_t n = text ? strlen(text) : 0;
    if (n == 0 || n > 64)
        return false;
    for (const char *p = text; *p; p++)
        if (!isalnum((unsigned char)*p) && strchr("#(),.% -", *p) == NULL)
            return false;
    return true;
}

/* A caller's colour when it is one (svg_color_ok), else ours. */
static const char *s_color(const char *given, const char *ours)
{
    return given != NULL && svg_color_ok(given) ? given : ours;
}

svg_opts_t svg_default_opts(void)
{
    return (svg_opts_t){.size = 360, .last_from = -1, .last_to = -1};
}

int svg_square_parse(const char *text, int n)
{
    if (text == NULL || strlen(text) != 2 || text[0] < 'a' || text[0] >= 'a' + n || text[1] < '1'
        || text[1] >= '1' + n)
        return -1;
    return (text[1] - '1') * n + (text[0] - 'a');
}

/* The piece on (file, rank): 0 none, else 1 + type, with *black set. */
static int s_piece_at(const game_pos_t *p, int file, int rank, int *black)
{
    if (p->variant == VARIANT_OCTAD) {
        unsigned bit = 1u << (rank * 4 + file);
        for (int t = 0; t < OCTAD_PIECE_TYPE_NB; t++)
            if (p->u.octad.type[t] & bit) {
                *black = (p->u.octad.color[OCTAD_BLACK] & bit) != 0;
                return t + 1;
            }
        return 0;
    }
    uint64_t bit = 1ull << (rank * 8 + file);
    for (int t = 0; t < CHESS_PIECE_NB; t++)
        if (p->u.chess.pieces[t] & bit) {
            *black = (p->u.chess.colors[CHESS_BLACK] & bit) != 0;
            return t + 1;
        }
    return 0;
}

/* Top-left corner of a square on the image. */
static void s_corner(int sq, int n, bool flip, double s, double *x, double *y)
{
    int file = sq % n, rank = sq / n;
    *x = (flip ? n - 1 - file : file) * s;
    *y = (flip ? rank : n - 1 - rank) * s;
}

static void s_squares(FILE *f, int n, double s, const svg_opts_t *o)
{
    for (int sq = 0; sq < n * n; sq++) {
        double x, y;
        s_corner(sq, n, o->flip, s, &x, &y);
        bool dark = (sq % n + sq / n) % 2 == 0; /* a1 is dark */
        const char *c = dark ? s_color(o->dark, "#8ca37a") : s_color(o->light, "#efe6d2");
        fprintf(f, "<rect class='square' x='%.2f' y='%.2f' width='%.2f' height='%.2f' fill='%s'/>\n", x, y, s, s, c);
        if (sq == o->last_from || sq == o->last_to)
            fprintf(f, "<rect class='lastmove' x='%.2f' y='%.2f' width='%.2f' height='%.2f' fill='%s'/>\n", x, y, s,
                    s, s_color(o->highlight, "#f4d03f99"));
    }
}

static void s_coordinates(FILE *f, int n, double s, const svg_opts_t *o)
{
    double fs = s * (n == 4 ? 0.16 : 0.2);
    for (int i = 0; i < n; i++) {
        int file = o->flip ? n - 1 - i : i, rank = o->flip ? i : n - 1 - i;
        bool dark_file = (file + (o->flip ? n - 1 : 0)) % 2 == 0; /* the bottom row's square under the letter */
        bool dark_rank = (rank + (o->flip ? n - 1 : 0)) % 2 == 0;
        fprintf(f, "<text x='%.2f' y='%.2f' font-size='%.2f' font-family='sans-serif' fill='%s' text-anchor='end'>%c</text>\n",
                (i + 1) * s - fs * 0.3, n * s - fs * 0.3, fs, dark_file ? "#efe6d2" : "#5d7550", 'a' + file);
        fprintf(f, "<text x='%.2f' y='%.2f' font-size='%.2f' font-family='sans-serif' fill='%s'>%c</text>\n",
                fs * 0.3, i * s + fs * 1.05, fs, dark_rank ? "#efe6d2" : "#5d7550", '1' + rank);
    }
}

/* The side to move's king, when it is in check. */
static void s_check(FILE *f, const game_pos_t *p, int n, double s, const svg_opts_t *o)
{
    if (!(game_status(p) & GAME_IN_CHECK))
        return;
    int side = p->variant == VARIANT_OCTAD ? p->u.octad.side : p->u.chess.side;
    for (int sq = 0; sq < n * n; sq++) {
        int black, t = s_piece_at(p, sq % n, sq / n, &black);
        if (t == 6 && black == side) {
            double x, y;
            s_corner(sq, n, o->flip, s, &x, &y);
            fprintf(f, "<circle class='check' cx='%.2f' cy='%.2f' r='%.2f' fill='url(#check)'/>\n", x + s / 2, y + s / 2,
                    s * 0.5);
        }
    }
}

static void s_marks_arrows(FILE *f, int n, double s, const svg_opts_t *o)
{
    for (int sq = 0; sq < n * n; sq++)
        if (o->marked >> sq & 1) {
            double x, y;
            s_corner(sq, n, o->flip, s, &x, &y);
            fprintf(f, "<circle class='mark' cx='%.2f' cy='%.2f' r='%.2f' fill='none' stroke='%s' stroke-width='%.2f'/>\n",
                    x + s / 2, y + s / 2, s * 0.42, s_color(o->mark_color, "#c0392b"), s * 0.07);
        }
    for (int i = 0; i < o->arrow_nb; i++) {
        double x1, y1, x2, y2;
        s_corner(o->arrows[i].from, n, o->flip, s, &x1, &y1);
        s_corner(o->arrows[i].to, n, o->flip, s, &x2, &y2);
        double dx = x2 - x1, dy = y2 - y1, len = sqrt(dx * dx + dy * dy), head = s * 0.3;
        if (len < 1)
            continue;
        double ex = x2 + s / 2 - dx / len * head * 0.9, ey = y2 + s / 2 - dy / len * head * 0.9;
        fprintf(f, "<line class='arrow' x1='%.2f' y1='%.2f' x2='%.2f' y2='%.2f' stroke='%s' stroke-width='%.2f' "
                   "stroke-linecap='round' opacity='0.8' marker-end='url(#head)'/>\n",
                x1 + s / 2, y1 + s / 2, ex, ey, s_color(o->arrow_color, "#1e7b34"), s * 0.14);
    }
}

static void s_defs(FILE *f, const svg_opts_t *o)
{
    fprintf(f, "<defs><radialGradient id='check'><stop offset='0%%' stop-color='#ff0000'/>"
               "<stop offset='45%%' stop-color='#e60000' stop-opacity='0.9'/>"
               "<stop offset='100%%' stop-color='#a80000' stop-opacity='0'/></radialGradient>"
               "<marker id='head' markerWidth='3' markerHeight='3' refX='1' refY='1.5' orient='auto' "
               "markerUnits='strokeWidth'><path d='M0 0 L3 1.5 L0 3 Z' fill='%s'/></marker></defs>\n",
            s_color(o->arrow_color, "#1e7b34"));
}

char *svg_board(const game_pos_t *pos, const svg_opts_t *opts)
{
    svg_opts_t o = opts ? *opts : svg_default_opts();
    int n = pos->variant == VARIANT_OCTAD ? 4 : 8, size = o.size > 0 ? o.size : 360;
    double s = (double)size / n;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f == NULL)
        return NULL;
    fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' viewBox='0 0 %d %d'>\n", size, size,
            size, size);
    s_defs(f, &o);
    s_squares(f, n, s, &o);
    if (!o.no_coordinates)
        s_coordinates(f, n, s, &o);
    s_check(f, pos, n, s, &o);
    for (int sq = 0; sq < n * n; sq++) {
        int black, t = s_piece_at(pos, sq % n, sq / n, &black);
        if (t) {
            double x, y;
            s_corner(sq, n, o.flip, s, &x, &y);
            pieces_write(f, t - 1, black, x, y, s);
        }
    }
    s_marks_arrows(f, n, s, &o);
    fprintf(f, "</svg>\n");
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}
