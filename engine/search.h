/* search.h: the state of one running search, shared by the node search
 * (search.c) and the iterative-deepening driver at the root (root.c).
 * Internal to engine/. */
#pragma once

#include "board.h"
#include "order.h"
#include "timeman.h"
#include "ttable.h"

/* One ply of the search path. */
typedef struct {
    game_pos_t pos;
    bool in_check;
    int rep_floor;        /* lowest index of keys[] a repetition may match (after a null move: this ply) */
    bool null_done;       /* the move into this ply was a null move */
} search_ply_t;

/* One root move and what the last search of it found. */
typedef struct {
    engine_move_t move;
    int score;            /* -ENGINE_INF: not searched in a window (below the others) */
    engine_bound_t bound;
    int pvlen;
    engine_move_t pv[ENGINE_MAX_PLY];
} search_root_t;

/* The engine object (engine.c); the search uses its tables. */
struct engine {
    ttable_t *tt;
    order_tables_t order;
    engine_probe_fn probe;
    void *probe_ctx;
};

typedef struct {
    engine_t *eng;
    const board_ops_t *ops;
    const engine_limits_t *lim;
    engine_control_t *ctl;
    timeman_t tm;
    bool stopped;
    bool stoppable;       /* false during the first iteration: it always completes */
    uint64_t nodes;
    int seldepth;
    int nhist;            /* keys[0..nhist-1]: the game before the root; keys[nhist + ply]: the path */
    engine_key_t keys[ENGINE_HISTORY_MAX + ENGINE_MAX_PLY + 4];
    search_ply_t stack[ENGINE_MAX_PLY + 4];
    engine_move_t pv[ENGINE_MAX_PLY + 2][ENGINE_MAX_PLY + 2];
    int pvlen[ENGINE_MAX_PLY + 2];
    int nroot, pv_index;
    search_root_t root[GAME_MOVES_MAX];
} search_t;

/* Alpha-beta (principal variation search) below the root: the score of the
 * position at stack[ply] (already set up by the caller, with its key at
 * keys[nhist + ply]), searched depth plies, within (alpha, beta). */
int search_node(search_t *s, int ply, int depth, int alpha, int beta);

/* Sets up stack[ply + 1] and its key as the position after m at ply. */
void search_push(search_t *s, int ply, engine_move_t m);

/* Checks the stop flag, the node limit and the hard time limit; sets s->stopped. */
void search_poll(search_t *s);

/* Builds the reduction table (idempotent). */
void search_init(void);
