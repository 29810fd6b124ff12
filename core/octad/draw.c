/* draw.c: the board as text for `octad show`, with side, rights, e.p. and status. */
#include <stdio.h>
#include <string.h>

#include "bb.h"
#include "octad.h"

void octad_draw(const octad_pos_t *pos, char *buf, size_t len)
{
    static const char LETTERS[] = "PNBRQK";
    char key[GAME_TEXT_MAX], side[2], castling[8], ep[4];
    size_t used = 0;
    if (!buf || !len)
        return;
    buf[0] = '\0';
    for (int rank = 3; rank >= 0; rank--) {
        char row[16] = "1  . . . .\n";
        row[0] = (char)('1' + rank);
        for (int file = 0; file < 4; file++) {
            int sq = rank * 4 + file;
            for (int t = 0; t < OCTAD_PIECE_TYPE_NB; t++)
                if (pos->type[t] & bb_sq(sq))
                    row[3 + 2 * file] = (pos->color[OCTAD_BLACK] & bb_sq(sq))
                                            ? (char)(LETTERS[t] + ('a' - 'A'))
                                            : LETTERS[t];
        }
        used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s", row);
    }
    octad_format_key(pos, key, sizeof key);
    if (sscanf(key, "%*s %1s %7s %3s", side, castling, ep) != 3)
        return;
    int status = octad_status(pos);
    const char *line = (status & OCTAD_CHECKMATE)   ? "\nCheckmate"
                       : (status & OCTAD_STALEMATE) ? "\nStalemate"
                       : (status & OCTAD_IN_CHECK)  ? "\nCheck"
                                                    : "";
    snprintf(buf + (used < len ? used : len), used < len ? len - used : 0,
             "   a b c d\n%s to move, castling %s, en passant %s%s\n",
             side[0] == 'w' ? "White" : "Black", castling, ep, line);
}
