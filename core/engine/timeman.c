/* timeman.c: time budgets (timeman.h). With a clock, a move may use about
 * its share of the remaining time (the moves to go, at most 20, or 20 in sudden death)
 * plus most of the increment; the soft limit is 75% of that, scaled after
 * each iteration by how stable the best move is; the hard limit is 2.5 times
 * it, never more than 80% of what is on the clock. */
#include "timeman.h"

enum { S_OVERHEAD_DEFAULT = 30, S_MOVES_LEFT = 20 };

void timeman_start(timeman_t *tm, const engine_limits_t *lim, int side, int64_t now_ms)
{
    int64_t overhead = lim->overhead_ms > 0 ? lim->overhead_ms : S_OVERHEAD_DEFAULT;
    tm->start_ms = now_ms;
    tm->soft_ms = tm->hard_ms = 0;
    tm->clock = false;
    tm->scale_pct = 100;
    tm->best = ENGINE_MOVE_NONE;
    tm->stable = 0;
    tm->score = 0;
    if (lim->movetime_ms > 0) {
        int64_t t = lim->movetime_ms - overhead;
        tm->soft_ms = tm->hard_ms = t < 1 ? 1 : t;
        return;
    }
    int64_t time = lim->time_ms[side], inc = lim->inc_ms[side] > 0 ? lim->inc_ms[side] : 0;
    if (time <= 0)
        return;
    tm->clock = true;
    int mtg = lim->movestogo > 0 ? (lim->movestogo < S_MOVES_LEFT ? lim->movestogo : S_MOVES_LEFT) : S_MOVES_LEFT;
    int64_t avail = time - overhead;
    if (avail < 1)
        avail = 1;
    int64_t base = avail / mtg + inc * 3 / 4;
    int64_t cap = avail * 4 / 5;
    tm->soft_ms = base * 3 / 4 < cap ? base * 3 / 4 : cap;
    tm->hard_ms = base * 5 / 2 < cap ? base * 5 / 2 : cap;
    if (tm->soft_ms < 1)
        tm->soft_ms = 1;
    if (tm->hard_ms < 1)
        tm->hard_ms = 1;
}

int64_t timeman_elapsed(const timeman_t *tm, const engine_control_t *ctl, int64_t now_ms)
{
    int64_t from = tm->start_ms;
    if (ctl != NULL) {
        int64_t hit = atomic_load(&ctl->ponderhit_ms);
        if (hit > from)
            from = hit;
    }
    return now_ms - from;
}

static bool s_pondering(const engine_control_t *ctl)
{
    return ctl != NULL && atomic_load(&((engine_control_t *)ctl)->pondering);
}

bool timeman_hard_stop(const timeman_t *tm, const engine_control_t *ctl, int64_t now_ms)
{
    return tm->hard_ms > 0 && !s_pondering(ctl) && timeman_elapsed(tm, ctl, now_ms) >= tm->hard_ms;
}

void timeman_iteration(timeman_t *tm, engine_move_t best, int score)
{
    bool first = tm->best == ENGINE_MOVE_NONE;
    tm->stable = best == tm->best ? tm->stable + 1 : 0;
    int pct = first ? 100 : tm->stable == 0 ? 160 : tm->stable <= 2 ? 100 : tm->stable <= 5 ? 75 : 55;
    if (!first && score < tm->score - 40 && score > -ENGINE_MATE_BOUND && tm->score < ENGINE_MATE_BOUND)
        pct = pct * 13 / 10; /* the score fell: look for a way out */
    tm->best = best;
    tm->score = score;
    tm->scale_pct = tm->clock ? (pct > 160 ? 160 : pct) : 100;
}

bool timeman_soft_stop(const timeman_t *tm, const engine_control_t *ctl, int64_t now_ms)
{
    return tm->soft_ms > 0 && !s_pondering(ctl) && timeman_elapsed(tm, ctl, now_ms) * 100 >= tm->soft_ms * tm->scale_pct;
}
