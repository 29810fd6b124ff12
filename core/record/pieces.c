/* pieces.c: our piece artwork: each piece drawn in a 45 x 45 box from simple
 * paths, the same shapes for both colours (white: light body, dark outline;
 * black: dark body, light details). */
#include <stdio.h>

#include "pieces.h"

/* The body of each piece type (pawn .. king), in SVG path or element syntax. */
static const char *const s_body[6] = {
    /* pawn: a round head on a flared stem */
    "<circle cx='22.5' cy='15' r='5.5'/>"
    "<path d='M14 36 C14 29 18.5 26 20 21.5 L25 21.5 C26.5 26 31 29 31 36 Z'/>",
    /* knight: a horse's head in profile, facing left */
    "<path d='M13 36 C13 29 17 25 20 22 C16.5 22.5 12.5 22 10.5 19 C9.5 16 13.5 12 17 10 "
    "L17.5 6.5 L21 8.5 C28 8.5 33.5 14.5 33.5 24 L33.5 36 Z'/>",
    /* bishop: a mitre with a ball on top */
    "<circle cx='22.5' cy='8' r='2.6'/>"
    "<path d='M15 36 C15 31 17.5 28.5 19 26.5 C14.5 24 14.5 17 22.5 10.5 C30.5 17 30.5 24 26 26.5 "
    "C27.5 28.5 30 31 30 36 Z'/>",
    /* rook: a tower with three merlons */
    "<path d='M14 36 L15.5 20 L29.5 20 L31 36 Z'/>"
    "<path d='M12 20 L12 11 L16.5 11 L16.5 14.5 L20.2 14.5 L20.2 11 L24.8 11 L24.8 14.5 L28.5 14.5 "
    "L28.5 11 L33 11 L33 20 Z'/>",
    /* queen: a crown of five points, each with a ball */
    "<path d='M12.5 36 L9.5 16 L16 26 L17 11.5 L22.5 24.5 L28 11.5 L29 26 L35.5 16 L32.5 36 Z'/>"
    "<circle cx='9.5' cy='14' r='2.2'/><circle cx='17' cy='9.5' r='2.2'/>"
    "<circle cx='28' cy='9.5' r='2.2'/><circle cx='35.5' cy='14' r='2.2'/>",
    /* king: a rounded body under a cross */
    "<path d='M21 5 L24 5 L24 9 L28 9 L28 12 L24 12 L24 19 L21 19 L21 12 L17 12 L17 9 L21 9 Z'/>"
    "<path d='M12.5 36 C10 28 11.5 21.5 17 20 L28 20 C33.5 21.5 35 28 32.5 36 Z'/>",
};

/* Details drawn in the contrasting colour: the knight's eye, the bishop's slit, bands. */
static const char *const s_detail[6] = {
    "",
    "<circle cx='18.5' cy='13' r='1.3' stroke='none'/><path d='M11.5 18.5 L14 18' fill='none'/>",
    "<path d='M24.5 15.5 L20.5 21' fill='none'/>",
    "<path d='M15.5 22.5 L29.5 22.5' fill='none'/>",
    "<path d='M13.5 31 L31.5 31' fill='none'/>",
    "<path d='M13 26 L32 26' fill='none'/>",
};

void pieces_write(FILE *f, int type, int black, double x, double y, double square)
{
    const char *body = black ? "#262626" : "#fafafa", *line = black ? "#000000" : "#1c1c1c";
    const char *detail = black ? "#e8e8e8" : "#1c1c1c";
    fprintf(f, "<g class='piece' transform='translate(%.2f %.2f) scale(%.4f)'>", x, y, square / 45.0);
    fprintf(f, "<g fill='%s' stroke='%s' stroke-width='1.5' stroke-linejoin='round'>%s", body, line, s_body[type]);
    fprintf(f, "<rect x='9.5' y='35' width='26' height='4.5' rx='1.2'/></g>");
    if (s_detail[type][0])
        fprintf(f, "<g fill='%s' stroke='%s' stroke-width='1.5' stroke-linecap='round'>%s</g>", detail, detail,
                s_detail[type]);
    fprintf(f, "</g>\n");
}
