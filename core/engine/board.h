/* board.h: what the search needs from a position, one table of functions per
 * variant (board_octad.c, board_chess.c), each built directly on that
 * variant's fast generator and copy-make (never game_children, which formats
 * texts). The two variants' internal headers cannot meet in one file (they
 * share macro names), hence a table rather than inline dispatch. Internal. */
#pragma once

#include <stdbool.h>

#include "engine.h"

/* Piece values for move ordering (MVV-LVA) and the quiescence delta test,
 * by piece type (pawn..king, the same order in both variants). */
static const int BOARD_ORDER_VALUE[6] = { 100, 300, 320, 500, 900, 2000 };

typedef struct {
    /* Legal moves into moves (GAME_MOVES_MAX); returns how many. */
    int (*gen)(const game_pos_t *pos, engine_move_t *moves);
    /* *out = pos after the legal move m, clocks included (out != pos). */
    void (*make)(const game_pos_t *pos, engine_move_t m, game_pos_t *out);
    /* *out = pos with the side to move passing, or false if the variant has no null move. */
    bool (*make_null)(const game_pos_t *pos, game_pos_t *out);
    /* Whether the side to move is in check. */
    bool (*in_check)(const game_pos_t *pos);
    /* Type of the piece m captures (pawn..queen), or -1. */
    int (*victim)(const game_pos_t *pos, engine_move_t m);
    /* Type of the moving piece. */
    int (*mover)(const game_pos_t *pos, engine_move_t m);
    /* Whether m captures or promotes (victim >= 0 or promo >= 0), without
     * finding the piece types. */
    bool (*tactical)(const game_pos_t *pos, engine_move_t m);
    /* Promotion piece type, or -1. */
    int (*promo)(engine_move_t m);
    /* Destination square (0..63), for the ordering tables. */
    int (*to)(engine_move_t m);
    /* Whether the side to move has a piece other than pawns and king. */
    bool (*has_pieces)(const game_pos_t *pos);
    /* Whether the position is drawn by insufficient material. */
    bool (*insufficient)(const game_pos_t *pos);
    /* Static evaluation in centipawns for the side to move. */
    int (*eval)(const game_pos_t *pos);
    /* Repetition and table key. */
    engine_key_t (*key)(const game_pos_t *pos);
    /* Side to move (0 white) and halfmove clock. */
    int (*side)(const game_pos_t *pos);
    int (*halfmove)(const game_pos_t *pos);
    /* The halfmove count that draws the game unless that move mated: octad's
     * 25-move rule (50), chess's 50-move rule (100). */
    int draw_clock;
    /* Whether null-move pruning is sound enough to use (not in octad: zugzwang). */
    bool null_move;
    /* Static exchange: whether m wins at least threshold centipawns (see.h);
     * NULL in octad, where every capture counts as good and nothing is pruned by it. */
    bool (*see_ge)(const game_pos_t *pos, engine_move_t m, int threshold);
    /* Whether the search may prune and reduce more at low depth: late-move,
     * futility and static-exchange pruning, internal iterative reduction
     * (chess only; octad's search is kept as it was measured). */
    bool forward_prune;
    /* A hash of the pawns of both sides (all 64 bits mixed), for the
     * correction history (corrhist.h); NULL in octad, which has none. */
    uint64_t (*pawn_hash)(const game_pos_t *pos);
} board_ops_t;

extern const board_ops_t BOARD_OCTAD;
extern const board_ops_t BOARD_CHESS;

/* The table of a position's variant. */
static inline const board_ops_t *board_ops(const game_pos_t *pos)
{
    return pos->variant == VARIANT_OCTAD ? &BOARD_OCTAD : &BOARD_CHESS;
}
