/* engine.h: the game-playing search for octad, chess and Chess960, the one
 * entry point above core/ for the UCI loop, the `octad search` command and
 * (later) the game layer's players and the cluster's analysis tasks.
 *
 * An engine_t is a service object: it owns the transposition table and the
 * move-ordering tables, which persist from one search to the next (cleared by
 * engine_clear, as UCI's `ucinewgame` asks). One search runs at a time on an
 * engine. With the same engine state, position, history and limits (depth or
 * nodes, not time), a search on one thread is deterministic: the same best
 * move, score, PV and node count on every run. With more threads (lazy SMP,
 * engine_set_threads) helpers share the table, and results may vary.
 *
 * Callers talk to the search through engine_limits_t (what to search, for how
 * long) and engine_control_t (stop and ponder, which another thread may flip
 * while the search runs), and read engine_result_t and the info callback. */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "game.h"

/* A move of the position's variant: octad_move_t or chess_move_t (both 16
 * bits, 0 never legal). */
typedef uint16_t engine_move_t;

enum {
    ENGINE_MOVE_NONE = 0,
    ENGINE_MAX_PLY = 120,             /* deepest ply the search reaches (depth limit below it) */
    ENGINE_DEPTH_MAX = 100,           /* largest iteration depth */
    ENGINE_MATE = 32000,              /* score of mate at the root; mate in p plies is MATE - p */
    ENGINE_MATE_BOUND = ENGINE_MATE - 2 * ENGINE_MAX_PLY, /* |score| above this is a mate score */
    ENGINE_INF = 32500,
    ENGINE_HISTORY_MAX = 512,          /* history keys the search looks at (the newest) */
    ENGINE_THREADS_MAX = 64            /* search threads (engine_set_threads) */
};

/* The exact identity of a position for repetitions: octad: placement (64
 * bits) and side, rights and the recorded e.p. square; chess: its 128-bit
 * Zobrist key (which counts the e.p. square only when a capture is possible). */
typedef struct {
    uint64_t a, b;
} engine_key_t;

/* The positions of the game before the root, oldest first (not the root
 * itself): for repetition detection. Borrowed by engine_search. */
typedef struct {
    const engine_key_t *keys;
    int n;
} engine_history_t;

/* What to search. Zero means "no such limit"; with no limit at all the search
 * runs to ENGINE_DEPTH_MAX or until stopped (UCI `go infinite`). */
typedef struct {
    int depth;              /* iterations to complete */
    uint64_t nodes;         /* stop after about this many nodes */
    int64_t movetime_ms;    /* exactly this long */
    int64_t time_ms[2];     /* clock of white [0] / black [1]; <= 0 not given */
    int64_t inc_ms[2];      /* increments */
    int movestogo;          /* moves to the next time control (0: sudden death) */
    int mate;               /* stop once a mate in this many moves is found */
    int multipv;            /* lines to report (1 if 0; at most the legal moves) */
    int nsearchmoves;       /* restrict the root to these moves (0: all) */
    engine_move_t searchmoves[GAME_MOVES_MAX];
    int64_t overhead_ms;    /* kept back from every time budget (default 0: 30 ms is used) */
} engine_limits_t;

/* Flags another thread may set while a search runs. `stop` ends the search
 * (the result is the last completed iteration's). While `pondering` is true
 * the time limits do not apply; clearing it (UCI `ponderhit`) starts the clock
 * at that moment: the caller stores the time (engine_now_ms) in ponderhit_ms
 * before clearing it. */
typedef struct {
    atomic_bool stop;
    atomic_bool pondering;
    _Atomic int64_t ponderhit_ms;
} engine_control_t;

/* How a reported score relates to the true one. */
typedef enum {
    ENGINE_BOUND_EXACT,
    ENGINE_BOUND_LOWER, /* the true score is at least this (fail high) */
    ENGINE_BOUND_UPPER  /* at most this (fail low) */
} engine_bound_t;

/* One principal variation (one `info ... multipv K` line). */
typedef struct {
    int score; /* centipawns from the side to move, or +-(ENGINE_MATE - plies) */
    engine_bound_t bound;
    int pvlen;
    engine_move_t pv[ENGINE_MAX_PLY];
} engine_line_t;

/* Progress for an info line: one call per line after each iteration (and
 * after an aspiration fail, with a bound). */
typedef struct {
    int depth, seldepth;
    int multipv; /* 1-based */
    const engine_line_t *line;
    uint64_t nodes;
    int64_t time_ms;
    int hashfull; /* per mille */
} engine_info_t;

typedef void (*engine_info_fn)(void *ctx, const game_pos_t *root, const engine_info_t *info);

/* The outcome of a search. */
typedef struct {
    engine_move_t best;   /* ENGINE_MOVE_NONE only when the root has no legal move */
    engine_move_t ponder; /* the expected reply, or ENGINE_MOVE_NONE */
    int depth;            /* last completed iteration */
    int seldepth;
    uint64_t nodes;
    int64_t time_ms;
    int nlines;
    engine_line_t lines[GAME_MOVES_MAX]; /* best first; lines[0].pv[0] == best */
} engine_result_t;

/* Win/draw/loss for the side to move. */
typedef enum { ENGINE_WDL_LOSS = -1, ENGINE_WDL_DRAW = 0, ENGINE_WDL_WIN = 1 } engine_wdl_t;

/* The seam for the octad solver's tables: returns true and fills *wdl and
 * *plies (distance to mate in plies for a win or loss; 0 for a draw) when the
 * position is in the tables, false otherwise. The tables know nothing of
 * repetitions and the 25-move rule: the search applies those itself first.
 * With several search threads the engine calls it under a lock: one call at a time. */
typedef bool (*engine_probe_fn)(void *ctx, const octad_pos_t *pos, engine_wdl_t *wdl, int *plies);

typedef struct engine engine_t;

/* New engine with a transposition table of at most hash_bytes (at least one
 * bucket is always allocated); NULL if out of memory. */
engine_t *engine_new(size_t hash_bytes);

/* Frees *self_p and sets it to NULL; safe on NULL. */
void engine_destroy(engine_t **self_p);

/* Resizes the table (its content is lost); 0, or -1 if out of memory (the old table stays). */
int engine_set_hash(engine_t *self, size_t hash_bytes);

/* Forgets everything learnt: the table and the move-ordering statistics. */
void engine_clear(engine_t *self);

/* Search threads for the next searches (clamped to 1..ENGINE_THREADS_MAX):
 * the main thread and threads - 1 lazy-SMP helpers. 1 by default. Limits:
 * `nodes` counts the main thread's nodes; the result's nodes are all threads'. */
void engine_set_threads(engine_t *self, int threads);

/* Installs (or with NULL removes) the octad table probe. */
void engine_set_probe(engine_t *self, engine_probe_fn probe, void *ctx);

/* Searches root within *limits and fills *out. history may be NULL; ctl may
 * be NULL (no stop, no ponder); info may be NULL. Returns 0, or -1 if a
 * searchmove is not legal at the root. Thread: one search per engine at a time. */
int engine_search(engine_t *self, const game_pos_t *root, const engine_history_t *history,
                  const engine_limits_t *limits, engine_control_t *ctl, engine_info_fn info,
                  void *info_ctx, engine_result_t *out);

/* The repetition key of a position. */
engine_key_t engine_key(const game_pos_t *pos);

/* Long-algebraic text (octad UOI, chess UCI; Chess960 king takes rook) of a
 * legal move m of pos into buf (MOVE_TEXT_MAX bytes). */
void engine_move_text(const game_pos_t *pos, engine_move_t m, char *buf);

/* The legal move of pos written `text` (as engine_move_text writes it; in
 * standard chess a castle is also accepted written king-takes-rook, e1h1);
 * ENGINE_MOVE_NONE if none. */
engine_move_t engine_move_parse(const game_pos_t *pos, const char *text);

/* Plays the legal move m: *out = pos after m (clocks updated). */
void engine_make(const game_pos_t *pos, engine_move_t m, game_pos_t *out);

/* Monotonic milliseconds. */
int64_t engine_now_ms(void);

/* A game being played: the current position and the keys of the positions
 * before it (the newest ENGINE_HISTORY_MAX), ready for engine_search. A plain
 * value (about 8 KB). */
typedef struct {
    game_pos_t pos;
    int n;
    engine_key_t keys[ENGINE_HISTORY_MAX];
} engine_game_t;

/* Starts a game at pos with no history. */
void engine_game_reset(engine_game_t *g, const game_pos_t *pos);

/* Plays the move written `text` (see engine_move_parse); 0, or -1 if it is
 * not a legal move (the game is unchanged). */
int engine_game_play(engine_game_t *g, const char *text);

/* Plays the legal move m. */
void engine_game_make(engine_game_t *g, engine_move_t m);

/* The history of g for engine_search (borrowed from g). */
engine_history_t engine_game_history(const engine_game_t *g);
