/* order.h: move ordering: the table move first, then captures and
 * promotions by MVV-LVA, then the two killers of the ply, then quiet moves by
 * their history score, then the captures that lose material by static
 * exchange (captures among their own kind by the capture history) (chess; octad has no SEE, so all its captures come first). Internal to core/engine/. */
#pragma once

#include "board.h"
#include "corrhist.h"

enum { ORDER_HISTORY_MAX = 16384 };

/* What the search learns as it goes: about quiet moves, and (corr) how far
 * the static evaluation misses by pawn structure; lives in the engine. */
typedef struct {
    engine_move_t killers[ENGINE_MAX_PLY + 2][2];
    int16_t history[2][6][64]; /* [side][moving piece][destination] */
    int16_t capture[6][64][5]; /* captures: [moving piece][destination][victim] */
    corrhist_t corr;           /* kept between searches (order_age leaves it) */
} order_tables_t;

/* A move list with its ordering scores, picked best first. */
typedef struct {
    engine_move_t moves[GAME_MOVES_MAX];
    int scores[GAME_MOVES_MAX];
    int n, next;
} order_list_t;

/* Scores every move of list (already generated) for position pos at ply. */
void order_score(order_list_t *list, const board_ops_t *ops, const game_pos_t *pos, engine_move_t tt_move,
                 const order_tables_t *tables, int ply);

/* Scores only the tactical moves of list as order_score does (without a
 * table move); every quiet move gets one score below them all. The order in
 * which order_next returns the tactical moves is the same as after
 * order_score, since it depends only on their scores and places. */
void order_score_tactical(order_list_t *list, const board_ops_t *ops, const game_pos_t *pos);

/* Whether the move order_next just returned is a capture that keeps its
 * material by static exchange or a queen promotion (scored above every
 * quiet move). Once it is false, every later move is quiet, an
 * under-promotion or a losing capture. */
bool order_last_good_tactical(const order_list_t *list);

/* The best-scored move not yet returned, or ENGINE_MOVE_NONE when done. */
engine_move_t order_next(order_list_t *list);

/* Whether m is a capture or a promotion (not a quiet move). */
bool order_is_tactical(const board_ops_t *ops, const game_pos_t *pos, engine_move_t m);


/* Rewards the quiet move `best` that caused a cutoff at depth and punishes
 * the quiet moves tried before it (quiets[0..nquiets-1]). */
void order_update(order_tables_t *tables, const board_ops_t *ops, const game_pos_t *pos, int ply, int depth,
                  engine_move_t best, const engine_move_t *quiets, int nquiets);

/* Rewards the capture `best` (ENGINE_MOVE_NONE: a quiet move caused the
 * cutoff) and punishes the other captures tried before it. */
void order_update_captures(order_tables_t *tables, const board_ops_t *ops, const game_pos_t *pos, int depth,
                           engine_move_t best, const engine_move_t *captures, int ncaptures);

/* Forgets the killers, halves the histories (between searches). */
void order_age(order_tables_t *tables);
