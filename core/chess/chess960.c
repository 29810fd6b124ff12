/* chess960.c: Chess960 start positions by the standard (Scharnagl) numbering 0-959. */
#include <stdio.h>

#include "chess.h"

/* Places `piece` on the k-th empty square (0-based) of rank; returns that file. */
static int s_place_nth_empty(char *rank, int k, char piece)
{
    for (int f = 0; f < 8; f++) {
        if (rank[f] == 0 && k-- == 0) {
            rank[f] = piece;
            return f;
        }
    }
    return -1; /* unreachable: callers ask for k below the number of empty squares */
}

int chess960_start_fen(int n, char *buf, size_t len)
{
    /* Knight pairs on the five squares left after bishops and queen, in numbering order. */
    static const int knights[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2},
                                       {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};
    if (n < 0 || n > 959 || !buf)
        return -1;
    char rank[8] = {0};
    rank[2 * (n % 4) + 1] = 'B'; /* light-squared bishop on b, d, f or h */
    n /= 4;
    rank[2 * (n % 4)] = 'B'; /* dark-squared bishop on a, c, e or g */
    n /= 4;
    s_place_nth_empty(rank, n % 6, 'Q');
    n /= 6;
    s_place_nth_empty(rank, knights[n][0], 'N');
    s_place_nth_empty(rank, knights[n][1] - 1, 'N'); /* one empty square fewer before it now */
    int rook1 = s_place_nth_empty(rank, 0, 'R');
    s_place_nth_empty(rank, 0, 'K');
    int rook2 = s_place_nth_empty(rank, 0, 'R');
    char white[9], black[9];
    for (int f = 0; f < 8; f++) {
        white[f] = rank[f];
        black[f] = (char)(rank[f] - 'A' + 'a');
    }
    white[8] = black[8] = '\0';
    int w = snprintf(buf, len, "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w %c%c%c%c - 0 1", black, white, 'A' + rook2,
                     'A' + rook1, 'a' + rook2, 'a' + rook1);
    return w < 0 || (size_t)w >= len ? -1 : 0;
}
