/* timeman.h: how long a search may run: a soft limit (no new iteration
 * after it) and a hard limit (stop at once), from movetime or the clocks.
 * While pondering neither applies; after ponderhit the clock starts again at
 * the ponderhit time. Internal to core/engine/. */
#pragma once

#include "engine.h"

typedef struct {
    int64_t start_ms;
    int64_t soft_ms, hard_ms; /* budgets from the start; 0: no time limit */
    bool clock;               /* the budgets come from the clocks (not movetime): the soft one may scale */
    int scale_pct;            /* the soft budget in use, in percent of soft_ms (100 at the start) */
    engine_move_t best;       /* the best move of the last completed iteration */
    int stable;               /* completed iterations in a row with that best move */
    int score;                /* the score of the last completed iteration */
} timeman_t;

/* Budgets for the side to move `side` under *lim, starting now. */
void timeman_start(timeman_t *tm, const engine_limits_t *lim, int side, int64_t now_ms);

/* Milliseconds the search has used (from the later of start and ponderhit). */
int64_t timeman_elapsed(const timeman_t *tm, const engine_control_t *ctl, int64_t now_ms);

/* Whether the hard limit has passed (never while pondering). */
bool timeman_hard_stop(const timeman_t *tm, const engine_control_t *ctl, int64_t now_ms);

/* After a completed iteration with best move `best` and score `score`:
 * scales the soft budget (clocks only): up to 1.6 times when the best move
 * has just changed or the score dropped, down to 0.55 times when the best
 * move has stayed the same for several iterations. */
void timeman_iteration(timeman_t *tm, engine_move_t best, int score);

/* Whether no new iteration should start (never while pondering). */
bool timeman_soft_stop(const timeman_t *tm, const engine_control_t *ctl, int64_t now_ms);
