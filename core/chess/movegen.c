/* movegen.c: legal move lists by the Stockfish method. Checkers and pinned
 * pieces are found once; under a single check targets are between(king,
 * checker) | checker, under a double check only the king moves; only king,
 * pinned and en-passant moves are re-verified. */
#include "movegen.h"

#include "chess.h"
#include "movegen_steps.h"

uint64_t mg_castle_path[8][8];
uint64_t mg_castle_king_path[8][8];

void movegen_init(void)
{
    for (int kf = 0; kf < 8; kf++) {
        for (int rf = 0; rf < 8; rf++) {
            if (kf == rf)
                continue;
            int kd, rd;
            movegen_castle_squares(CHESS_WHITE, kf, rf, &kd, &rd);
            uint64_t pieces = bb64_sq(kf) | bb64_sq(rf);
            uint64_t king_path = bb64_between[kf][kd] | bb64_sq(kd);
            mg_castle_king_path[kf][rf] = king_path;
            mg_castle_path[kf][rf] = (king_path | bb64_between[rf][rd] | bb64_sq(rd)) & ~pieces;
        }
    }
}

void movegen_castle_squares(int color, int king_sq, int rook_sq, int *kd, int *rd)
{
    int base = color == CHESS_WHITE ? 0 : 56;
    bool king_side = rook_sq > king_sq;
    *kd = base + (king_side ? 6 : 2);
    *rd = base + (king_side ? 5 : 3);
}

uint64_t movegen_attackers(const chess_pos_t *p, int sq, int by, uint64_t occ)
{
    uint64_t bq = p->pieces[CHESS_BISHOP] | p->pieces[CHESS_QUEEN];
    uint64_t rq = p->pieces[CHESS_ROOK] | p->pieces[CHESS_QUEEN];
    return p->colors[by] & ((bb64_knight[sq] & p->pieces[CHESS_KNIGHT])
                            | (bb64_pawn_attacks[by ^ 1][sq] & p->pieces[CHESS_PAWN])
                            | (bb64_king[sq] & p->pieces[CHESS_KING])
                            | (bb64_bishop_attacks(sq, occ) & bq) | (bb64_rook_attacks(sq, occ) & rq));
}

uint64_t movegen_checkers(const chess_pos_t *p)
{
    int us = p->side;
    int ksq = bb64_lsb(p->pieces[CHESS_KING] & p->colors[us]);
    return movegen_attackers(p, ksq, us ^ 1, p->colors[0] | p->colors[1]);
}

/* Appends from->each destination as normal moves. */
MG_INLINE chess_move_t *s_emit(chess_move_t *list, int from, uint64_t dests)
{
    while (dests)
        *list++ = move_new(from, bb64_pop(&dests), CHESS_MOVE_NORMAL, 0);
    return list;
}

/* Appends pawn moves landing on dests from dest - delta, with the four promotions on the last rank. */
MG_INLINE chess_move_t *s_emit_pawns(chess_move_t *list, int delta, uint64_t dests)
{
    while (dests) {
        int to = bb64_pop(&dests), from = to - delta;
        if (bb64_sq(to) & (BB_RANK_1_MASK | BB_RANK_8_MASK)) {
            for (int promo = 3; promo >= 0; promo--)
                *list++ = move_new(from, to, CHESS_MOVE_PROMOTION, promo);
        } else {
            *list++ = move_new(from, to, CHESS_MOVE_NORMAL, 0);
        }
    }
    return list;
}

MG_INLINE chess_move_t *s_gen_pawns(const chess_pos_t *p, const mg_ctx_t *c, chess_move_t *list)
{
    mg_pawn_sets_t s;
    mg_pawn_sets(p, c, &s);
    list = s_emit_pawns(list, s.dir, s.push1);
    list = s_emit_pawns(list, 2 * s.dir, s.push2);
    list = s_emit_pawns(list, s.dir - 1, s.cap_west);
    list = s_emit_pawns(list, s.dir + 1, s.cap_east);
    uint64_t pinned = c->checkers ? 0 : p->pieces[CHESS_PAWN] & c->pinned;
    while (pinned) {
        int from = bb64_pop(&pinned);
        uint64_t d = mg_pinned_pawn_dests(c, from);
        while (d) {
            int to = bb64_pop(&d);
            list = s_emit_pawns(list, to - from, bb64_sq(to));
        }
    }
    uint64_t ep = mg_ep_origins(p, c);
    while (ep)
        *list++ = move_new(bb64_pop(&ep), p->ep, CHESS_MOVE_EN_PASSANT, 0);
    return list;
}

MG_INLINE chess_move_t *s_gen_pieces(const chess_pos_t *p, const mg_ctx_t *c, chess_move_t *list)
{
    uint64_t movable = c->own & (c->checkers ? ~c->pinned : ~0ULL);
    uint64_t b = p->pieces[CHESS_KNIGHT] & movable & ~c->pinned;
    while (b) {
        int sq = bb64_pop(&b);
        list = s_emit(list, sq, bb64_knight[sq] & c->target);
    }
    for (int pt = CHESS_BISHOP; pt <= CHESS_QUEEN; pt++) {
        b = p->pieces[pt] & movable;
        while (b) {
            int sq = bb64_pop(&b);
            list = s_emit(list, sq, mg_slider_dests(c, pt, sq));
        }
    }
    return list;
}

MG_INLINE int s_gen(const chess_pos_t *p, chess_move_t *moves, int us, bool pext)
{
    mg_ctx_t c;
    mg_setup(p, &c, us, pext);
    c.danger = mg_leaper_attacks(p, &c);
    chess_move_t *list = s_emit(moves, c.ksq, mg_king_dests(&c));
    if (bb64_many(c.checkers))
        return (int)(list - moves);
    list = s_gen_pieces(p, &c, list);
    list = s_gen_pawns(p, &c, list);
    uint64_t castles = mg_castles(p, &c);
    while (castles)
        *list++ = move_new(c.ksq, bb64_pop(&castles), CHESS_MOVE_CASTLING, 0);
    return (int)(list - moves);
}

int chess_gen_legal(const chess_pos_t *p, chess_move_t *moves)
{
    if (bb64_use_pext)
        return p->side == CHESS_WHITE ? s_gen(p, moves, CHESS_WHITE, true) : s_gen(p, moves, CHESS_BLACK, true);
    return p->side == CHESS_WHITE ? s_gen(p, moves, CHESS_WHITE, false) : s_gen(p, moves, CHESS_BLACK, false);
}
