/* make.c: the public make, with the hash kept up to date. */
#include "chess.h"
#include "make.h"

void chess_make(const chess_pos_t *pos, chess_move_t m, chess_pos_t *out)
{
    make_move(pos, m, out, true);
}
