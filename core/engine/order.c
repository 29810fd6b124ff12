/* order.c: move ordering (order.h). */
#include "order.h"

#include <stdint.h>
#include <string.h>

_Static_assert((GAME_MOVES_MAX & (GAME_MOVES_MAX - 1)) == 0, "order_next packs indices below GAME_MOVES_MAX");

enum {
    S_TT = 1 << 30,
    S_TACTICAL = 1 << 20,
    S_KILLER1 = S_TACTICAL - 1000,
    S_KILLER2 = S_TACTICAL - 2000,
    S_BAD_CAPTURE = -(1 << 20), /* below every history score: after the quiet moves */
    S_CAPTURE_SCALE = 16        /* the capture history moves a capture by at most 1024: never out of its band */
};

bool order_is_tactical(const board_ops_t *ops, const game_pos_t *pos, engine_move_t m)
{
    return ops->tactical(pos, m);
}

/* The score of the tactical move m: MVV-LVA (the most valuable victim first,
 * the least valuable attacker first among equals), sent below the quiet moves
 * when it is a capture that loses material by static exchange. */
static int s_tactical_full(const board_ops_t *ops, const game_pos_t *pos, engine_move_t m,
                           const order_tables_t *tables)
{
    int victim = ops->victim(pos, m), promo = ops->promo(m);
    int score = S_TACTICAL;
    if (victim >= 0) {
        int mover = ops->mover(pos, m);
        score += 16 * BOARD_ORDER_VALUE[victim] - mover;
        if (tables != NULL && promo < 0)
            score += tables->capture[mover][ops->to(m)][victim] / S_CAPTURE_SCALE;
    }
    if (promo >= 0)
        score += BOARD_ORDER_VALUE[promo] * (promo == 4 ? 16 : 1) - 1600;
    else if (ops->see_ge != NULL && victim >= 0 && !ops->see_ge(pos, m, 0))
        score -= S_TACTICAL - S_BAD_CAPTURE;
    return score;
}

void order_score(order_list_t *list, const board_ops_t *ops, const game_pos_t *pos, engine_move_t tt_move,
                 const order_tables_t *tables, int ply)
{
    int side = ops->side(pos);
    list->next = 0;
    for (int i = 0; i < list->n; i++) {
        engine_move_t m = list->moves[i];
        if (m == tt_move)
            list->scores[i] = S_TT;
        else if (order_is_tactical(ops, pos, m))
            list->scores[i] = s_tactical_full(ops, pos, m, tables);
        else if (m == tables->killers[ply][0])
            list->scores[i] = S_KILLER1;
        else if (m == tables->killers[ply][1])
            list->scores[i] = S_KILLER2;
        else
            list->scores[i] = tables->history[side][ops->mover(pos, m)][ops->to(m)];
    }
}

void order_score_tactical(order_list_t *list, const board_ops_t *ops, const game_pos_t *pos)
{
    list->next = 0;
    for (int i = 0; i < list->n; i++) {
        engine_move_t m = list->moves[i];
        list->scores[i] = order_is_tactical(ops, pos, m) ? s_tactical_full(ops, pos, m, NULL) : S_BAD_CAPTURE - 1;
    }
}

bool order_last_good_tactical(const order_list_t *list)
{
    return list->next > 0 && list->scores[list->next - 1] >= S_TACTICAL;
}

engine_move_t order_next(order_list_t *list)
{
    if (list->next >= list->n)
        return ENGINE_MOVE_NONE;
    /* The first of the highest scores: one key per move, score above, the
     * index reversed below, so a plain maximum (which the compiler can
     * vectorise) picks it. */
    int64_t top = INT64_MIN;
    for (int i = list->next; i < list->n; i++) {
        int64_t k = (int64_t)list->scores[i] * GAME_MOVES_MAX + (GAME_MOVES_MAX - 1 - i);
        top = k > top ? k : top;
    }
    int best = GAME_MOVES_MAX - 1 - (int)(top & (GAME_MOVES_MAX - 1));
    engine_move_t m = list->moves[best];
    int s = list->scores[best];
    list->moves[best] = list->moves[list->next];
    list->scores[best] = list->scores[list->next];
    list->moves[list->next] = m;
    list->scores[list->next] = s;
    list->next++;
    return m;
}

/* Moves a history entry toward +-ORDER_HISTORY_MAX by bonus (gravity keeps it bounded). */
static void s_history_add(int16_t *h, int bonus)
{
    int v = *h + bonus - *h * (bonus < 0 ? -bonus : bonus) / ORDER_HISTORY_MAX;
    *h = (int16_t)v;
}

void order_update(order_tables_t *tables, const board_ops_t *ops, const game_pos_t *pos, int ply, int depth,
                  engine_move_t best, const engine_move_t *quiets, int nquiets)
{
    int side = ops->side(pos), bonus = depth * depth > 1200 ? 1200 : depth * depth;
    if (tables->killers[ply][0] != best) {
        tables->killers[ply][1] = tables->killers[ply][0];
        tables->killers[ply][0] = best;
    }
    s_history_add(&tables->history[side][ops->mover(pos, best)][ops->to(best)], 16 * bonus);
    for (int i = 0; i < nquiets; i++)
        if (quiets[i] != best)
            s_history_add(&tables->history[side][ops->mover(pos, quiets[i])][ops->to(quiets[i])], -16 * bonus);
}

/* The capture history entry of m, or NULL when m is a promotion (ordered by its piece) or captures nothing. */
static int16_t *s_capture_entry(order_tables_t *tables, const board_ops_t *ops, const game_pos_t *pos,
                                engine_move_t m)
{
    int victim = ops->victim(pos, m);
    return victim < 0 || victim > 4 || ops->promo(m) >= 0 ? NULL : &tables->capture[ops->mover(pos, m)][ops->to(m)][victim];
}

void order_update_captures(order_tables_t *tables, const board_ops_t *ops, const game_pos_t *pos, int depth,
                           engine_move_t best, const engine_move_t *captures, int ncaptures)
{
    int bonus = 16 * (depth * depth > 1200 ? 1200 : depth * depth);
    int16_t *h;
    if (best != ENGINE_MOVE_NONE && (h = s_capture_entry(tables, ops, pos, best)) != NULL)
        s_history_add(h, bonus);
    for (int i = 0; i < ncaptures; i++)
        if (captures[i] != best && (h = s_capture_entry(tables, ops, pos, captures[i])) != NULL)
            s_history_add(h, -bonus);
}

void order_age(order_tables_t *tables)
{
    memset(tables->killers, 0, sizeof tables->killers);
    int16_t *c = &tables->capture[0][0][0];
    for (size_t i = 0; i < sizeof tables->capture / sizeof *c; i++)
        c[i] = (int16_t)(c[i] / 2);
    for (int s = 0; s < 2; s++)
        for (int p = 0; p < 6; p++)
            for (int t = 0; t < 64; t++)
                tables->history[s][p][t] = (int16_t)(tables->history[s][p][t] / 2);
}
