/* svg.h: board images as SVG, for octad (4x4) and chess (8x8), pieces drawn by
 * our own vector artwork (no fonts; the coordinates are the only text). */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "game.h"

enum { SVG_ARROWS_MAX = 16 };

/* Squares are numbered rank * N + file (N = 4 or 8, file a = 0, rank 1 = 0), as in both cores. */
typedef struct {
    int size;               /* width = height in pixels; 0: 360 */
    bool flip;              /* Black at the bottom */
    bool no_coordinates;    /* leave out file letters and rank digits */
    int last_from, last_to; /* last move to highlight, or -1 */
    uint64_t marked;        /* squares to mark with a ring (bit = square) */
    int arrow_nb;
    struct {
        int from, to;
    } arrows[SVG_ARROWS_MAX];
    const char *light, *dark; /* square colours (SVG colours passing svg_color_ok); NULL: ours */
    const char *highlight;    /* last-move colour */
    const char *arrow_color, *mark_color;
} svg_opts_t;

/* Default options: size 360, coordinates on, no last move, no marks, no arrows. */
svg_opts_t svg_default_opts(void);

/* The board of pos as a complete SVG document (the checked king is shown in
 * red). Returns a string the caller frees, or NULL out of memory. */
char *svg_board(const game_pos_t *pos, const svg_opts_t *opts);

/* Whether text can be written as an SVG colour attribute: a name, #rgb /
 * #rrggbb(aa), rgb(...) / hsl(...): letters, digits and # ( ) , . % - space,
 * at most 64 characters (no quote or markup can get in). svg_board uses ours
 * instead of a colour that fails. */
bool svg_color_ok(const char *text);

/* Parses a square name ("b3") for a board of n files; returns the square or -1. */
int svg_square_parse(const char *text, int n);
