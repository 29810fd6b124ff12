/* draw.c: the board as text, rank 8 at the top, files labelled. */
#include <stdio.h>
#include <string.h>

#include "bitboard.h"
#include "chess.h"

void chess_draw(const chess_pos_t *pos, char *buf, size_t len)
{
    static const char pieces[] = "pnbrqk";
    char tmp[512], *o = tmp;
    for (int r = 7; r >= 0; r--) {
        o += sprintf(o, "%d ", r + 1);
        for (int f = 0; f < 8; f++) {
            uint64_t b = bb64_sq(8 * r + f);
            char ch = '.';
            for (int t = 0; t < CHESS_PIECE_NB; t++) {
                if (pos->pieces[t] & b)
                    ch = pos->colors[CHESS_WHITE] & b ? (char)(pieces[t] - 'a' + 'A') : pieces[t];
            }
            *o++ = ' ';
            *o++ = ch;
        }
        *o++ = '\n';
    }
    strcpy(o, "   a b c d e f g h\n");
    if (len)
        snprintf(buf, len, "%s", tmp);
}
