/* root.c: engine_search: the root move list, iterative deepening with
 * aspiration windows, multi-PV (each line searched with the lines before it
 * left out, so its score is exact), the limits, and the result. A stopped
 * iteration is discarded: the result is the last completed one. */
#include <stdlib.h>
#include <string.h>

#include "search.h"

/* Sets up the root position, its key and the game's keys before it. */
static void s_setup(search_t *s, const game_pos_t *root, const engine_history_t *history)
{
    int keep = history ? history->n : 0;
    if (keep > ENGINE_HISTORY_MAX)
        keep = ENGINE_HISTORY_MAX;
    s->nhist = keep;
    if (keep > 0)
        memcpy(s->keys, history->keys + history->n - keep, sizeof(engine_key_t) * (size_t)keep);
    s->stack[0].pos = *root;
    s->stack[0].in_check = s->ops->in_check(root);
    s->stack[0].rep_floor = 0;
    s->stack[0].null_done = false;
    s->stack[0].eval = SEARCH_NO_EVAL;
    s->keys[s->nhist] = s->ops->key(root);
}

/* The root moves (the searchmoves if given), in ordering order. -1 if a searchmove is not legal. */
static int s_root_moves(search_t *s, engine_move_t tt_move)
{
    order_list_t list;
    list.n = s->ops->gen(&s->stack[0].pos, list.moves);
    order_score(&list, s->ops, &s->stack[0].pos, tt_move, s->order, 0);
    for (int i = 0; i < s->lim->nsearchmoves; i++) {
        bool found = false;
        for (int j = 0; j < list.n && !found; j++)
            found = list.moves[j] == s->lim->searchmoves[i];
        if (!found)
            return -1;
    }
    s->nroot = 0;
    for (engine_move_t m; (m = order_next(&list)) != ENGINE_MOVE_NONE;) {
        bool wanted = s->lim->nsearchmoves == 0;
        for (int i = 0; i < s->lim->nsearchmoves && !wanted; i++)
            wanted = s->lim->searchmoves[i] == m;
        if (wanted)
            s->root[s->nroot++] = (search_root_t){ .move = m, .score = -ENGINE_INF, .pvlen = 1, .pv = { m } };
    }
    return 0;
}

/* Searches root moves pv_index.. within (alpha, beta); returns the best score. */
static int s_root_search(search_t *s, int depth, int alpha, int beta)
{
    int best = -ENGINE_INF;
    for (int i = s->pv_index; i < s->nroot; i++)
        s->root[i].score = -ENGINE_INF;
    for (int i = s->pv_index; i < s->nroot; i++) {
        search_root_t *rm = &s->root[i];
        search_push(s, 0, rm->move);
        int score;
        if (i == s->pv_index) {
            score = -search_node(s, 1, depth - 1, -beta, -alpha);
        } else {
            score = -search_node(s, 1, depth - 1, -alpha - 1, -alpha);
            if (score > alpha && score < beta)
                score = -search_node(s, 1, depth - 1, -beta, -alpha);
        }
        if (s->stopped)
            return best;
        if (i == s->pv_index || score > alpha) {
            rm->score = score;
            rm->bound = score <= alpha ? ENGINE_BOUND_UPPER : score >= beta ? ENGINE_BOUND_LOWER : ENGINE_BOUND_EXACT;
            rm->pv[0] = rm->move;
            memcpy(&rm->pv[1], s->pv[1], sizeof(engine_move_t) * (size_t)s->pvlen[1]);
            rm->pvlen = s->pvlen[1] + 1;
        }
        if (score > best)
            best = score;
        if (score > alpha) {
            alpha = score;
            if (score >= beta)
                break;
        }
    }
    return best;
}

/* Stable sort of root[from..to-1] by score, best first. */
void search_sort(search_t *s, int from, int to)
{
    for (int i = from + 1; i < to; i++) {
        search_root_t tmp = s->root[i];
        int j = i;
        while (j > from && s->root[j - 1].score < tmp.score) {
            s->root[j] = s->root[j - 1];
            j--;
        }
        s->root[j] = tmp;
    }
}

/* Reports line pv_index (1-based multipv) to the info callback. */
static void s_report(search_t *s, int depth, int idx, engine_info_fn info, void *ctx)
{
    if (info == NULL)
        return;
    const search_root_t *rm = &s->root[idx];
    engine_line_t line = { .score = rm->score, .bound = rm->bound, .pvlen = rm->pvlen };
    memcpy(line.pv, rm->pv, sizeof(engine_move_t) * (size_t)rm->pvlen);
    engine_info_t in = {
        .depth = depth, .seldepth = s->seldepth, .multipv = idx + 1, .line = &line, .nodes = search_nodes(s),
        .time_ms = timeman_elapsed(&s->tm, s->ctl, engine_now_ms()), .hashfull = ttable_hashfull(s->eng->tt),
    };
    info(ctx, &s->stack[0].pos, &in);
}

/* One line of one iteration, with an aspiration window around its last score
 * (reported on a fail when info is given and there is one line). */
void search_aspire(search_t *s, int depth, int prev, engine_info_fn info, void *ctx)
{
    int window = 20, alpha = -ENGINE_INF, beta = ENGINE_INF;
    if (depth >= 5 && prev > -ENGINE_MATE_BOUND && prev < ENGINE_MATE_BOUND) {
        alpha = prev - window;
        beta = prev + window;
    }
    for (;;) {
        int score = s_root_search(s, depth, alpha, beta);
        search_sort(s, s->pv_index, s->nroot);
        if (s->stopped)
            return;
        if (score > alpha && score < beta)
            return;
        if (s->lim->multipv <= 1)
            s_report(s, depth, s->pv_index, info, ctx);
        window *= 2;
        if (score <= alpha) {
            beta = (alpha + beta) / 2;
            alpha = score - window < -ENGINE_INF ? -ENGINE_INF : score - window;
        } else {
            beta = score + window > ENGINE_INF ? ENGINE_INF : score + window;
        }
        if (window > 1000)
            alpha = -ENGINE_INF, beta = ENGINE_INF;
    }
}

/* Copies the completed iteration's lines into the result. */
static void s_collect(const search_t *s, int lines, int depth, engine_result_t *out)
{
    out->depth = depth;
    out->nlines = lines;
    for (int i = 0; i < lines; i++) {
        const search_root_t *rm = &s->root[i];
        out->lines[i].score = rm->score;
        out->lines[i].bound = rm->bound;
        out->lines[i].pvlen = rm->pvlen;
        memcpy(out->lines[i].pv, rm->pv, sizeof(engine_move_t) * (size_t)rm->pvlen);
    }
    out->best = s->root[0].move;
}

/* Whether the limits end the search after a completed iteration at depth. */
static bool s_done(search_t *s, int depth, const engine_result_t *out)
{
    const engine_limits_t *lim = s->lim;
    int score = out->lines[0].score;
    if (lim->depth > 0 && depth >= lim->depth)
        return true;
    if (lim->mate > 0 && score > ENGINE_MATE_BOUND && ENGINE_MATE - score <= 2 * lim->mate - 1)
        return true;
    bool timed = s->tm.soft_ms > 0;
    timeman_iteration(&s->tm, out->best, score);
    if (timed && (s->nroot == 1 || timeman_soft_stop(&s->tm, s->ctl, engine_now_ms())))
        return true;
    if (timed && score > ENGINE_MATE_BOUND && depth >= 2 * (ENGINE_MATE - score) + 2)
        return true;
    return false;
}

/* Fills in the ponder move: the PV's second move, or the table's reply. */
static void s_ponder(search_t *s, engine_result_t *out)
{
    out->ponder = ENGINE_MOVE_NONE;
    if (out->nlines == 0)
        return;
    if (out->lines[0].pvlen >= 2) {
        out->ponder = out->lines[0].pv[1];
        return;
    }
    game_pos_t child;
    engine_move_t moves[GAME_MOVES_MAX];
    s->ops->make(&s->stack[0].pos, out->best, &child);
    ttable_entry_t te;
    const ttable_entry_t *e = ttable_probe(s->eng->tt, s->ops->key(&child), &te) ? &te : NULL;
    int n = s->ops->gen(&child, moves);
    for (int i = 0; e && i < n; i++)
        if (moves[i] == e->move)
            out->ponder = e->move;
}

/* Iterative deepening until a limit or a stop. */
static void s_iterate(search_t *s, int lines, engine_info_fn info, void *ctx, engine_result_t *out)
{
    int max_depth = s->lim->depth > 0 && s->lim->depth < ENGINE_DEPTH_MAX ? s->lim->depth : ENGINE_DEPTH_MAX;
    int prev[GAME_MOVES_MAX];
    for (int depth = 1; depth <= max_depth; depth++) {
        for (int i = 0; i < lines; i++)
            prev[i] = s->root[i].score;
        for (s->pv_index = 0; s->pv_index < lines && !s->stopped; s->pv_index++)
            search_aspire(s, depth, prev[s->pv_index], info, ctx);
        if (s->stopped)
            break;
        search_sort(s, 0, lines);
        s_collect(s, lines, depth, out);
        for (int i = 0; i < lines; i++)
            s_report(s, depth, i, info, ctx);
        s->stoppable = true;
        if (s_done(s, depth, out))
            break;
    }
}

int engine_search(engine_t *self, const game_pos_t *root, const engine_history_t *history,
                  const engine_limits_t *limits, engine_control_t *ctl, engine_info_fn info,
                  void *info_ctx, engine_result_t *out)
{
    search_t *s = calloc(1, sizeof *s);
    if (s == NULL)
        return -1;
    *s = (search_t){ .eng = self, .order = &self->order, .ops = board_ops(root), .lim = limits, .ctl = ctl };
    memset(out, 0, sizeof *out);
    timeman_start(&s->tm, limits, s->ops->side(root), engine_now_ms());
    s_setup(s, root, history);
    ttable_new_search(self->tt);
    order_age(&self->order);
    ttable_entry_t te;
    const ttable_entry_t *e = ttable_probe(self->tt, s->keys[s->nhist], &te) ? &te : NULL;
    if (s_root_moves(s, e ? e->move : ENGINE_MOVE_NONE) != 0) {
        free(s);
        return -1;
    }
    if (s->nroot > 0) {
        int lines = limits->multipv > 1 ? limits->multipv : 1;
        s->shared = smp_start(s);
        s_iterate(s, lines < s->nroot ? lines : s->nroot, info, info_ctx, out);
        smp_finish(s->shared, &s->nodes);
        s->shared = NULL;
        s_ponder(s, out);
    }
    out->nodes = s->nodes;
    out->seldepth = s->seldepth;
    out->time_ms = timeman_elapsed(&s->tm, ctl, engine_now_ms());
    free(s);
    return 0;
}
