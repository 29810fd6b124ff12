/* chess.c: one-time table set-up and the start position. */
#include "chess.h"

#include "bitboard.h"
#include "movegen.h"
#include "zobrist.h"

const char CHESS_START_FEN[] = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

void chess_init(void)
{
    static bool ready;
    if (ready)
        return;
    bb64_init();
    zob_init();
    movegen_init();
    ready = true;
}
