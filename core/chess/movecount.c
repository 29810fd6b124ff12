/* movecount.c: the number of legal moves without a move list, for the last
 * ply of perft: popcounts of destination sets, pawns shifted as whole sets. */
#include "movegen.h"

#include "movegen_steps.h"

/* Count of a destination set where promotions count four times. */
MG_INLINE int s_promo_count(uint64_t b)
{
    return bb64_count(b) + 3 * bb64_count(b & (BB_RANK_1_MASK | BB_RANK_8_MASK));
}

MG_INLINE int s_count_pawns(const chess_pos_t *p, const mg_ctx_t *c)
{
    mg_pawn_sets_t s;
    mg_pawn_sets(p, c, &s);
    int n = bb64_count(s.push2) + s_promo_count(s.push1) + s_promo_count(s.cap_west)
          + s_promo_count(s.cap_east);
    uint64_t pinned = c->checkers ? 0 : p->pieces[CHESS_PAWN] & c->pinned;
    while (pinned)
        n += s_promo_count(mg_pinned_pawn_dests(c, bb64_pop(&pinned)));
    return n + bb64_count(mg_ep_origins(p, c));
}

/* Knights, bishops, rooks and queens (queens in both slider passes). */
MG_INLINE int s_count_pieces(const chess_pos_t *p, const mg_ctx_t *c)
{
    uint64_t movable = c->own & (c->checkers ? ~c->pinned : ~0ULL);
    int n = 0;
    uint64_t b = p->pieces[CHESS_KNIGHT] & movable & ~c->pinned;
    while (b)
        n += bb64_count(bb64_knight[bb64_pop(&b)] & c->target);
    b = (p->pieces[CHESS_BISHOP] | p->pieces[CHESS_QUEEN]) & movable;
    while (b)
        n += bb64_count(mg_slider_dests(c, CHESS_BISHOP, bb64_pop(&b)));
    b = (p->pieces[CHESS_ROOK] | p->pieces[CHESS_QUEEN]) & movable;
    while (b)
        n += bb64_count(mg_slider_dests(c, CHESS_ROOK, bb64_pop(&b)));
    return n;
}

MG_INLINE int s_count(const chess_pos_t *p, int us, bool pext)
{
    mg_ctx_t c;
    mg_setup(p, &c, us, pext);
    int n = bb64_count(mg_king_dests(p, &c));
    if (bb64_many(c.checkers))
        return n;
    return n + s_count_pieces(p, &c) + s_count_pawns(p, &c) + bb64_count(mg_castles(p, &c));
}

int movegen_count(const chess_pos_t *p)
{
    if (bb64_use_pext)
        return p->side == CHESS_WHITE ? s_count(p, CHESS_WHITE, true) : s_count(p, CHESS_BLACK, true);
    return p->side == CHESS_WHITE ? s_count(p, CHESS_WHITE, false) : s_count(p, CHESS_BLACK, false);
}
