/* search.h: the state of one running search, shared by the node search
 * (search.c) and the iterative-deepening driver at the root (root.c).
 * Internal to core/engine/. */
#pragma once

#include <pthread.h>
#include <stdatomic.h>

#include "board.h"
#include "evcache.h"
#include "order.h"
#include "timeman.h"
#include "ttable.h"

/* One ply of the search path. */
typedef struct {
    game_pos_t pos;
    bool in_check;
    int rep_floor;        /* lowest index of keys[] a repetition may match (after a null move: this ply) */
    bool null_done;       /* the move into this ply was a null move */
    int eval;             /* static evaluation of a full-width node, SEARCH_NO_EVAL when unknown or in check */
    engine_move_t excluded; /* during a singular-extension test: the table move, left out */
} search_ply_t;

enum { SEARCH_NO_EVAL = -ENGINE_INF - 1 };

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
    evcache_t *evc;               /* static evaluations by key, shared by the threads */
    order_tables_t order;         /* the main thread's; helpers start from a copy */
    engine_probe_fn probe;
    void *probe_ctx;
    pthread_mutex_t probe_lock;   /* the probe is called by one thread at a time */
    int threads;                  /* search threads: the main one and threads - 1 helpers */
};

/* What the threads of one lazy-SMP search share besides the table. */
typedef struct {
    atomic_bool stop;             /* the main thread is done: helpers stop */
    _Atomic uint64_t nodes;       /* the helpers' nodes, published every 1024 */
} search_shared_t;

typedef struct {
    engine_t *eng;
    order_tables_t *order;        /* &eng->order (main thread) or &own_order (helper) */
    search_shared_t *shared;      /* NULL on one thread */
    int helper;                   /* 0: the main thread; k: helper k */
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
    order_tables_t own_order;
} search_t;

/* Alpha-beta (principal variation search) below the root: the score of the
 * position at stack[ply] (already set up by the caller, with its key at
 * keys[nhist + ply]), searched depth plies, within (alpha, beta). */
int search_node(search_t *s, int ply, int depth, int alpha, int beta);

/* Sets up stack[ply + 1] and its key as the position after m at ply. */
void search_push(search_t *s, int ply, engine_move_t m);

/* Checks the stop flag, the node limit and the hard time limit; sets s->stopped. */
void search_poll(search_t *s);

/* Nodes of the whole search: this thread's, and the helpers' when s is the main thread. */
uint64_t search_nodes(const search_t *s);

/* One aspiration-window iteration of root line pv_index at depth (root.c); info may be NULL. */
void search_aspire(search_t *s, int depth, int prev, engine_info_fn info, void *ctx);

/* Stable sort of root moves from..to-1 by score, best first (root.c). */
void search_sort(search_t *s, int from, int to);

/* Lazy SMP (smp.c): starts eng->threads - 1 helpers searching copies of the
 * set-up main search `s` (shared table, own ordering statistics, varied
 * depths), none when eng->threads is 1. Returns the shared state, or NULL if
 * no helper runs (one thread, or no memory: the search runs alone). */
search_shared_t *smp_start(search_t *s);

/* Stops and joins the helpers, adds their nodes into *nodes, frees them. Safe on NULL. */
void smp_finish(search_shared_t *shared, uint64_t *nodes);

/* Builds the reduction table (idempotent). */
void search_init(void);
