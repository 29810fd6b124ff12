/* search.c: the node search below the root: principal variation search with
 * a transposition table, check extension, reverse futility and null-move
 * pruning (chess only: octad's pawn endings are full of zugzwang), late-move
 * reductions, and a quiescence search on captures and promotions. Draws are
 * found inside the search: repetition along the path (twice) or with the game
 * before the root (three times), the 25-move (octad) and 50-move (chess)
 * rules unless the last move mated, and insufficient material. */
#include <math.h>
#include <string.h>

#include "search.h"

static int s_reduction[64][64];

void search_init(void)
{
    for (int d = 1; d < 64; d++)
        for (int n = 1; n < 64; n++)
            s_reduction[d][n] = (int)(0.5 + log((double)d) * log((double)n) / 2.25);
}

static bool s_same_key(engine_key_t x, engine_key_t y)
{
    return x.a == y.a && x.b == y.b;
}

uint64_t search_nodes(const search_t *s)
{
    return s->nodes + (s->shared && s->helper == 0 ? atomic_load_explicit(&s->shared->nodes, memory_order_relaxed) : 0);
}

void search_poll(search_t *s)
{
    if (!s->stoppable)
        return;
    if (s->lim->nodes && s->nodes >= s->lim->nodes)
        s->stopped = true;
    if ((s->nodes & 1023) == 0) {
        if (s->helper > 0) {
            atomic_fetch_add_explicit(&s->shared->nodes, 1024, memory_order_relaxed);
            if (atomic_load_explicit(&s->shared->stop, memory_order_relaxed))
                s->stopped = true;
        }
        if (s->ctl != NULL && atomic_load(&s->ctl->stop))
            s->stopped = true;
        if (timeman_hard_stop(&s->tm, s->ctl, engine_now_ms()))
            s->stopped = true;
    }
}

void search_push(search_t *s, int ply, engine_move_t m)
{
    search_ply_t *child = &s->stack[ply + 1];
    s->ops->make(&s->stack[ply].pos, m, &child->pos);
    engine_key_t key = s->ops->key(&child->pos);
    ttable_prefetch(s->eng->tt, key);
    evcache_prefetch(s->eng->evc, key);
    s->keys[s->nhist + ply + 1] = key;
    child->in_check = s->ops->in_check(&child->pos);
    child->rep_floor = s->stack[ply].rep_floor;
    child->null_done = false;
    child->eval = SEARCH_NO_EVAL;
    child->excluded = ENGINE_MOVE_NONE;
}

/* Whether the position at ply repeats: once within the path (from the root
 * on), or twice counting the game before the root. */
static bool s_repetition(const search_t *s, int ply)
{
    int idx = s->nhist + ply, floor = idx - s->ops->halfmove(&s->stack[ply].pos), count = 0;
    if (floor < s->stack[ply].rep_floor)
        floor = s->stack[ply].rep_floor;
    for (int i = idx - 4; i >= floor; i -= 2) {
        if (!s_same_key(s->keys[i], s->keys[idx]))
            continue;
        if (i >= s->nhist || ++count >= 2)
            return true;
    }
    return false;
}

/* Whether the position at ply (> 0) is over by a draw rule; then *score is its
 * value (a mate beats the move-count rules). */
static bool s_draw(search_t *s, int ply, int *score)
{
    const game_pos_t *pos = &s->stack[ply].pos;
    *score = 0;
    if (s->ops->insufficient(pos) || s_repetition(s, ply))
        return true;
    if (s->ops->halfmove(pos) < s->ops->draw_clock)
        return false;
    if (s->stack[ply].in_check) {
        engine_move_t moves[GAME_MOVES_MAX];
        if (s->ops->gen(pos, moves) == 0)
            *score = -ENGINE_MATE + ply;
    }
    return true;
}

/* The static evaluation of the position at ply, through the evaluation cache. */
static int s_eval(search_t *s, int ply)
{
    engine_key_t key = s->keys[s->nhist + ply];
    int v;
    if (evcache_get(s->eng->evc, key, &v))
        return v;
    v = s->ops->eval(&s->stack[ply].pos);
    evcache_put(s->eng->evc, key, v);
    return v;
}

/* raw, the static evaluation of the position at ply, plus its correction
 * (corrhist.h; chess), kept clear of the mate scores. */
static int s_corrected(const search_t *s, int ply, int raw)
{
    const game_pos_t *pos = &s->stack[ply].pos;
    if (s->ops->pawn_hash == NULL)
        return raw;
    int v = raw + corrhist_get(&s->order->corr, s->ops->side(pos), corrhist_index(s->ops->pawn_hash(pos)));
    return v >= ENGINE_MATE_BOUND ? ENGINE_MATE_BOUND - 1 : v <= -ENGINE_MATE_BOUND ? -ENGINE_MATE_BOUND + 1 : v;
}

/* Teaches the correction history what a full-width search of ply found:
 * best against the corrected static evaluation eval, when the bound says
 * which side of eval the true score lies and the best move is quiet (a
 * capture's gain is the search's, not a miss of the evaluation). */
static void s_correct_learn(search_t *s, int ply, int depth, engine_bound_t bound, int best, int eval,
                            engine_move_t best_move)
{
    const game_pos_t *pos = &s->stack[ply].pos;
    if (s->ops->pawn_hash == NULL || best <= -ENGINE_MATE_BOUND || best >= ENGINE_MATE_BOUND
        || (bound == ENGINE_BOUND_LOWER && best <= eval) || (bound == ENGINE_BOUND_UPPER && best >= eval)
        || (best_move != ENGINE_MOVE_NONE && order_is_tactical(s->ops, pos, best_move)))
        return;
    corrhist_update(&s->order->corr, s->ops->side(pos), corrhist_index(s->ops->pawn_hash(pos)), depth, best - eval);
}

/* The octad tables, where installed: true and *score on a hit. */
static bool s_probe(search_t *s, int ply, int *score)
{
    const game_pos_t *pos = &s->stack[ply].pos;
    engine_wdl_t wdl;
    int plies = 0;
    if (s->eng->probe == NULL || pos->variant != VARIANT_OCTAD)
        return false;
    if (s->shared != NULL)
        pthread_mutex_lock(&s->eng->probe_lock);
    bool hit = s->eng->probe(s->eng->probe_ctx, &pos->u.octad, &wdl, &plies);
    if (s->shared != NULL)
        pthread_mutex_unlock(&s->eng->probe_lock);
    if (!hit)
        return false;
    *score = wdl == ENGINE_WDL_DRAW ? 0
             : wdl == ENGINE_WDL_WIN ? ENGINE_MATE - ply - plies
                                     : -ENGINE_MATE + ply + plies;
    return true;
}

/* A table hit that settles the node at this depth: true and *score. */
static bool s_tt_cutoff(const ttable_entry_t *e, int ply, int depth, int alpha, int beta, int *score)
{
    if (e == NULL || e->depth - 1 < depth)
        return false;
    int v = ttable_score_from(e->score, ply);
    engine_bound_t b = (engine_bound_t)(e->genbound & 3);
    if (b == ENGINE_BOUND_EXACT || (b == ENGINE_BOUND_LOWER && v >= beta) || (b == ENGINE_BOUND_UPPER && v <= alpha)) {
        *score = v;
        return true;
    }
    return false;
}

/* Captures and promotions until the position is quiet; all evasions in check. */
static int s_qsearch(search_t *s, int ply, int alpha, int beta)
{
    search_ply_t *node = &s->stack[ply];
    int score;
    s->nodes++;
    search_poll(s);
    if (s->stopped)
        return 0;
    if (ply > s->seldepth)
        s->seldepth = ply;
    s->pvlen[ply] = 0;
    if (s_draw(s, ply, &score) || s_probe(s, ply, &score))
        return score;
    if (ply >= ENGINE_MAX_PLY)
        return s_eval(s, ply);
    engine_key_t key = s->keys[s->nhist + ply];
    ttable_entry_t te;
    const ttable_entry_t *e = ttable_probe(s->eng->tt, key, &te) ? &te : NULL;
    if (beta - alpha == 1 && s_tt_cutoff(e, ply, 0, alpha, beta, &score))
        return score;
    int best = -ENGINE_INF, raw = 0, stand = 0, alpha0 = alpha;
    engine_move_t best_move = ENGINE_MOVE_NONE;
    if (!node->in_check) {
        raw = e ? e->eval : s_eval(s, ply);
        stand = best = s_corrected(s, ply, raw);
        if (best >= beta)
            return best;
        if (best > alpha)
            alpha = best;
    }
    order_list_t list;
    list.n = s->ops->gen(&node->pos, list.moves);
    if (list.n == 0)
        return node->in_check ? -ENGINE_MATE + ply : 0;
    if (node->in_check)
        order_score(&list, s->ops, &node->pos, ENGINE_MOVE_NONE, s->order, ply);
    else
        order_score_tactical(&list, s->ops, &node->pos);
    for (engine_move_t m; (m = order_next(&list)) != ENGINE_MOVE_NONE;) {
        if (!node->in_check) {
            if (!order_last_good_tactical(&list))
                break; /* the rest: quiet, under-promotions, captures that lose material */
            int promo = s->ops->promo(m), victim = promo < 0 ? s->ops->victim(&node->pos, m) : -1;
            if (promo < 0 && stand + BOARD_ORDER_VALUE[victim] + 200 <= alpha)
                continue; /* even winning the piece cannot reach alpha */
        }
        search_push(s, ply, m);
        score = -s_qsearch(s, ply + 1, -beta, -alpha);
        if (s->stopped)
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                best_move = m;
                s->pv[ply][0] = m;
                memcpy(&s->pv[ply][1], s->pv[ply + 1], sizeof(engine_move_t) * (size_t)s->pvlen[ply + 1]);
                s->pvlen[ply] = s->pvlen[ply + 1] + 1;
                if (score >= beta)
                    break;
            }
        }
    }
    engine_bound_t bound = best >= beta ? ENGINE_BOUND_LOWER : best > alpha0 ? ENGINE_BOUND_EXACT : ENGINE_BOUND_UPPER;
    ttable_store(s->eng->tt, key, 0, ttable_score_to(best, ply), bound, node->in_check ? 0 : raw, best_move);
    return best;
}

/* Pruning before any move is searched (non-PV nodes, not in check): reverse
 * futility, razoring (chess) and null move. True and *score when the node is
 * settled at once. */
static bool s_prune(search_t *s, int ply, int depth, int alpha, int beta, int eval, bool improving, int *score)
{
    search_ply_t *node = &s->stack[ply];
    if (beta > ENGINE_MATE_BOUND || beta < -ENGINE_MATE_BOUND)
        return false;
    int rfp_depth = s->ops->forward_prune ? 6 : 3, margin = 120 * depth - (s->ops->forward_prune && improving ? 60 : 0);
    if (depth <= rfp_depth && eval - margin >= beta) {
        *score = eval;
        return true;
    }
    if (s->ops->forward_prune && depth <= 2 && eval + 250 * depth <= alpha) {
        int v = s_qsearch(s, ply, alpha, alpha + 1);
        if (s->stopped)
            return false;
        if (v <= alpha) {
            *score = v;
            return true;
        }
    }
    if (!s->ops->null_move || depth < 3 || eval < beta || node->null_done || !s->ops->has_pieces(&node->pos))
        return false;
    search_ply_t *child = &s->stack[ply + 1];
    s->ops->make_null(&node->pos, &child->pos);
    child->in_check = false;
    child->null_done = true;
    child->eval = SEARCH_NO_EVAL;
    child->excluded = ENGINE_MOVE_NONE;
    child->rep_floor = s->nhist + ply + 1;
    s->keys[s->nhist + ply + 1] = s->ops->key(&child->pos);
    int r = 3 + depth / 4 + ((eval - beta) / 200 < 3 ? (eval - beta) / 200 : 3);
    int v = -search_node(s, ply + 1, depth - 1 - r, -beta, -beta + 1);
    if (s->stopped || v < beta)
        return false;
    *score = v > ENGINE_MATE_BOUND ? beta : v;
    return true;
}

/* Depth reduction of the quiet move number `count` (from 1) at depth: less at
 * PV nodes and for a move with a good history, one ply more (when there is
 * any) where the position is not improving. */
static int s_reduce(int depth, int count, bool pv, bool improving_history, bool not_improving)
{
    int r = s_reduction[depth < 64 ? depth : 63][count < 64 ? count : 63];
    r -= pv;
    r -= improving_history;
    if (r <= 0)
        return 0;
    return r + not_improving;
}

/* Searches one move at ply (already pushed): PVS with a late-move reduction. */
static int s_search_move(search_t *s, int ply, int depth, int alpha, int beta, int count, int reduction)
{
    int score;
    if (count == 1)
        return -search_node(s, ply + 1, depth - 1, -beta, -alpha);
    score = -search_node(s, ply + 1, depth - 1 - reduction, -alpha - 1, -alpha);
    if (score > alpha && reduction > 0)
        score = -search_node(s, ply + 1, depth - 1, -alpha - 1, -alpha);
    if (score > alpha && score < beta)
        score = -search_node(s, ply + 1, depth - 1, -beta, -alpha);
    return score;
}

/* Copies the child's PV behind m into ply's PV. */
static void s_pv_update(search_t *s, int ply, engine_move_t m)
{
    s->pv[ply][0] = m;
    memcpy(&s->pv[ply][1], s->pv[ply + 1], sizeof(engine_move_t) * (size_t)s->pvlen[ply + 1]);
    s->pvlen[ply] = s->pvlen[ply + 1] + 1;
}

typedef struct {
    int best, alpha, beta, depth, count;
    int eval;             /* static evaluation (SEARCH_NO_EVAL in check) */
    bool improving;       /* the static evaluation rose since this side's previous move */
    engine_move_t best_move;
    engine_move_t quiets[GAME_MOVES_MAX], captures[GAME_MOVES_MAX];
    int nquiets, ncaptures;
    engine_move_t extend; /* the table move when it is singular: searched one ply deeper */
} s_loop_t;

/* Whether the move just pushed at ply may be skipped (chess, low depth, not in
 * check, the move gives no check, once a move has a score above being mated):
 * late-move pruning and futility pruning of quiet moves (futility not against
 * a mate score, so the shortest mate is still found), and static-exchange
 * pruning of moves that lose too much material. */
static bool s_skip_move(search_t *s, int ply, const s_loop_t *l, engine_move_t m, bool tactical)
{
    const search_ply_t *node = &s->stack[ply];
    int d = l->depth;
    if (!s->ops->forward_prune || node->in_check || d > 8 || l->best <= -ENGINE_MATE_BOUND)
        return false;
    if (s->stack[ply + 1].in_check)
        return false; /* checks stay: the shortest mates go through them */
    if (!tactical && l->nquiets >= (3 + d * d) / (l->improving ? 1 : 2))
        return true;
    if (!tactical && d <= 6 && l->alpha < ENGINE_MATE_BOUND && l->eval + 100 + 90 * d <= l->alpha)
        return true;
    return d <= 6 && !s->ops->see_ge(&node->pos, m, tactical ? -100 * d : -60 * d);
}

/* Singular extension (chess, depth >= 6): when the table holds a lower bound
 * or exact score v for its move from nearly this depth, and every other move
 * stays below v - 2 * depth in a half-depth search, the table move is the
 * only good one and is searched one ply deeper (ENGINE_MOVE_NONE: not). If
 * the other moves reach that bound and it is at least beta, *cut is set: the
 * node fails high on more than one move (multi-cut) with *score. */
static engine_move_t s_singular(search_t *s, int ply, int depth, int beta, const ttable_entry_t *e, bool *cut,
                                int *score)
{
    search_ply_t *node = &s->stack[ply];
    *cut = false;
    if (!s->ops->forward_prune || depth < 6 || ply == 0 || e == NULL || e->move == ENGINE_MOVE_NONE
        || node->excluded != ENGINE_MOVE_NONE || e->depth - 1 < depth - 3)
        return ENGINE_MOVE_NONE;
    int v = ttable_score_from(e->score, ply);
    engine_bound_t b = (engine_bound_t)(e->genbound & 3);
    if (b == ENGINE_BOUND_UPPER || v > ENGINE_MATE_BOUND || v < -ENGINE_MATE_BOUND)
        return ENGINE_MOVE_NONE;
    int sb = v - 2 * depth;
    node->excluded = e->move;
    int w = search_node(s, ply, (depth - 1) / 2 - (node->in_check ? 1 : 0), sb - 1, sb);
    node->excluded = ENGINE_MOVE_NONE;
    if (s->stopped)
        return ENGINE_MOVE_NONE;
    if (w < sb)
        return e->move;
    if (sb >= beta) {
        *cut = true;
        *score = sb;
    }
    return ENGINE_MOVE_NONE;
}

/* The move loop of search_node over list; returns the best score in l->best. */
static void s_moves(search_t *s, int ply, order_list_t *list, bool pv, s_loop_t *l)
{
    search_ply_t *node = &s->stack[ply];
    for (engine_move_t m; (m = order_next(list)) != ENGINE_MOVE_NONE;) {
        if (m == node->excluded)
            continue;
        bool tactical = order_is_tactical(s->ops, &node->pos, m);
        int hist = tactical ? 0 : s->order->history[s->ops->side(&node->pos)][s->ops->mover(&node->pos, m)][s->ops->to(m)];
        search_push(s, ply, m);
        if (s_skip_move(s, ply, l, m, tactical))
            continue;
        l->count++;
        int r = 0;
        if (!tactical && !node->in_check && !s->stack[ply + 1].in_check && l->depth >= 3 && l->count > (pv ? 4 : 2))
            r = s_reduce(l->depth, l->count, pv, hist > ORDER_HISTORY_MAX / 2, s->ops->forward_prune && !l->improving);
        if (r > l->depth - 2)
            r = l->depth > 2 ? l->depth - 2 : 0;
        int score = s_search_move(s, ply, l->depth + (m == l->extend), l->alpha, l->beta, l->count, r);
        if (s->stopped)
            return;
        if (!tactical)
            l->quiets[l->nquiets++] = m;
        else
            l->captures[l->ncaptures++] = m;
        if (score <= l->best)
            continue;
        l->best = score;
        if (score <= l->alpha)
            continue;
        l->alpha = score;
        l->best_move = m;
        if (pv)
            s_pv_update(s, ply, m);
        if (score >= l->beta) {
            if (!tactical)
                order_update(s->order, s->ops, &node->pos, ply, l->depth, m, l->quiets, l->nquiets);
            order_update_captures(s->order, s->ops, &node->pos, l->depth, tactical ? m : ENGINE_MOVE_NONE,
                                  l->captures, l->ncaptures);
            return;
        }
    }
}

int search_node(search_t *s, int ply, int depth, int alpha, int beta)
{
    search_ply_t *node = &s->stack[ply];
    int score, alpha0 = alpha;
    bool pv = beta - alpha > 1;
    if (node->in_check)
        depth++;
    if (depth <= 0)
        return s_qsearch(s, ply, alpha, beta);
    s->nodes++;
    search_poll(s);
    if (s->stopped)
        return 0;
    if (ply > s->seldepth)
        s->seldepth = ply;
    s->pvlen[ply] = 0;
    if (s_draw(s, ply, &score))
        return score;
    if (ply >= ENGINE_MAX_PLY)
        return s_eval(s, ply);
    if (-ENGINE_MATE + ply > alpha)
        alpha = -ENGINE_MATE + ply;
    if (ENGINE_MATE - ply - 1 < beta)
        beta = ENGINE_MATE - ply - 1;
    if (alpha >= beta)
        return alpha;
    engine_key_t key = s->keys[s->nhist + ply];
    ttable_entry_t te;
    const ttable_entry_t *e = ttable_probe(s->eng->tt, key, &te) ? &te : NULL;
    bool excl = node->excluded != ENGINE_MOVE_NONE;
    if (!pv && !excl && s_tt_cutoff(e, ply, depth, alpha, beta, &score))
        return score;
    if (s_probe(s, ply, &score))
        return score;
    engine_move_t tt_move = e ? e->move : ENGINE_MOVE_NONE;
    if (s->ops->forward_prune && !pv && depth >= 6 && tt_move == ENGINE_MOVE_NONE && !excl)
        depth--; /* internal iterative reduction: without a table move this node is probably not worth
                  * the full depth (not at PV nodes, nor below depth 6: there it hid a mate in 3) */
    int raw = node->in_check ? 0 : e ? e->eval : s_eval(s, ply);
    int eval = node->in_check ? -ENGINE_INF : s_corrected(s, ply, raw);
    node->eval = node->in_check ? SEARCH_NO_EVAL : eval;
    int prev = ply >= 2 ? s->stack[ply - 2].eval : SEARCH_NO_EVAL;
    bool improving = !node->in_check && (prev == SEARCH_NO_EVAL || eval > prev);
    if (!pv && !excl && !node->in_check && s_prune(s, ply, depth, alpha, beta, eval, improving, &score))
        return score;
    bool cut;
    engine_move_t extend = s_singular(s, ply, depth, beta, e, &cut, &score);
    if (s->stopped)
        return 0;
    if (cut)
        return score;
    order_list_t list;
    list.n = s->ops->gen(&node->pos, list.moves);
    if (list.n == 0)
        return node->in_check ? -ENGINE_MATE + ply : 0;
    order_score(&list, s->ops, &node->pos, tt_move, s->order, ply);
    if (excl && list.n == 1)
        return alpha; /* the excluded move was the only one */
    s_loop_t l = { .best = -ENGINE_INF, .alpha = alpha, .beta = beta, .depth = depth, .eval = node->eval,
                   .improving = improving, .extend = extend };
    s_moves(s, ply, &list, pv, &l);
    if (s->stopped)
        return 0;
    engine_bound_t bound = l.best >= beta ? ENGINE_BOUND_LOWER
                           : l.best_move != ENGINE_MOVE_NONE && l.best > alpha0 ? ENGINE_BOUND_EXACT
                                                                                 : ENGINE_BOUND_UPPER;
    if (!excl)
        ttable_store(s->eng->tt, key, depth, ttable_score_to(l.best, ply), bound, raw, l.best_move);
    if (!excl && !node->in_check && l.best > -ENGINE_INF)
        s_correct_learn(s, ply, depth, bound, l.best, eval, l.best_move);
    if (l.best == -ENGINE_INF)
        return alpha; /* every move but the excluded one was pruned */
    return l.best;
}
