/* gen.h: the one legal move generator, inline, handing each move to a
 * consumer: movegen.c lists moves, perft.c makes and counts them at the last
 * ply but one. Inlined with a constant colour and consumer, every call site
 * passes a constant kind and piece, so the consumer's make folds. */
#pragma once

#include "legal.h"

/* Receives one legal move of p, given by its parts (see move.h). */
typedef void (*gen_emit_fn)(void *ctx, const octad_pos_t *p, int us, int from, int to, int kind, int piece);

/* Emits pawn moves landing on `to`, each from to - delta; four promotions on promo squares. */
BB_INLINE void s_gen_pawn_set(const octad_pos_t *p, int us, bb_t to, int delta, bb_t promo,
                              gen_emit_fn emit, void *ctx)
{
    bb_t plain = (bb_t)(to & ~promo), promos = (bb_t)(to & promo);
    while (plain) {
        int t = bb_pop_lsb(&plain);
        emit(ctx, p, us, t - delta, t, OCTAD_MK_NORMAL, OCTAD_PAWN);
    }
    while (promos) {
        int t = bb_pop_lsb(&promos);
        emit(ctx, p, us, t - delta, t, OCTAD_MK_PROMO_QUEEN, OCTAD_PAWN);
        emit(ctx, p, us, t - delta, t, OCTAD_MK_PROMO_ROOK, OCTAD_PAWN);
        emit(ctx, p, us, t - delta, t, OCTAD_MK_PROMO_BISHOP, OCTAD_PAWN);
        emit(ctx, p, us, t - delta, t, OCTAD_MK_PROMO_KNIGHT, OCTAD_PAWN);
    }
}

/* Pushes, double steps and captures of `pawns` of colour us (unpinned, or
 * one pinned pawn with a line-restricted target). */
BB_INLINE void s_gen_pawns(const octad_pos_t *p, const legal_info_t *li, bb_t pawns, bb_t target,
                           int us, gen_emit_fn emit, void *ctx)
{
    bb_t empty = (bb_t)~li->occ;
    int fwd = us == OCTAD_WHITE ? 4 : -4;
    bb_t promo = us == OCTAD_WHITE ? BB_RANK_4 : BB_RANK_1;
    bb_t single = (bb_t)(bb_pawns_push(us, pawns) & empty);
    bb_t dbl = (bb_t)(bb_pawns_push(us, (bb_t)(single & (us == OCTAD_WHITE ? BB_RANK_2 : BB_RANK_3)))
                      & empty & target);
    bb_t west = us == OCTAD_WHITE ? (bb_t)((pawns & ~BB_FILE_A) << 3) : (bb_t)((pawns & ~BB_FILE_A) >> 5);
    bb_t east = us == OCTAD_WHITE ? (bb_t)((pawns & ~BB_FILE_D) << 5) : (bb_t)((pawns & ~BB_FILE_D) >> 3);
    s_gen_pawn_set(p, us, (bb_t)(single & target), fwd, promo, emit, ctx);
    s_gen_pawn_set(p, us, (bb_t)(west & li->enemy & target), fwd - 1, promo, emit, ctx);
    s_gen_pawn_set(p, us, (bb_t)(east & li->enemy & target), fwd + 1, promo, emit, ctx);
    while (dbl) {
        int t = bb_pop_lsb(&dbl);
        emit(ctx, p, us, t - 2 * fwd, t, OCTAD_MK_DOUBLE, OCTAD_PAWN);
    }
}

/* Emits moves of the pieces `pieces` of one type to their attack sets. */
BB_INLINE void s_gen_pieces(const octad_pos_t *p, const legal_info_t *li, int us, bb_t pieces, int piece,
                            gen_emit_fn emit, void *ctx)
{
    while (pieces) {
        int from = bb_pop_lsb(&pieces);
        bb_t a;
        if (piece == OCTAD_KNIGHT)
            a = bb_knight_att[from];
        else if (piece == OCTAD_BISHOP)
            a = bb_bishop_att(from, li->occ);
        else if (piece == OCTAD_ROOK)
            a = bb_rook_att(from, li->occ);
        else
            a = (bb_t)(bb_bishop_att(from, li->occ) | bb_rook_att(from, li->occ));
        a &= li->target;
        if (li->pinned & bb_sq(from))
            a &= bb_line[li->ksq][from];
        while (a)
            emit(ctx, p, us, from, bb_pop_lsb(&a), OCTAD_MK_NORMAL, piece);
    }
}

/* Pinned pawns, en passant and castles: the rare moves. */
BB_INLINE void s_gen_rare(const octad_pos_t *p, const legal_info_t *li, int us, gen_emit_fn emit,
                          void *ctx)
{
    bb_t pinned = (bb_t)(p->type[OCTAD_PAWN] & li->own & li->pinned);
    while (pinned) {
        int sq = bb_pop_lsb(&pinned);
        s_gen_pawns(p, li, bb_sq(sq), (bb_t)(li->target & bb_line[li->ksq][sq]), us, emit, ctx);
    }
    if (p->ep != OCTAD_SQ_NONE) {
        bb_t cand = (bb_t)(bb_pawn_att[us ^ 1][p->ep] & p->type[OCTAD_PAWN] & li->own);
        while (cand) {
            int from = bb_pop_lsb(&cand);
            if (legal_ep_safe(p, li, from))
                emit(ctx, p, us, from, p->ep, OCTAD_MK_EN_PASSANT, OCTAD_PAWN);
        }
    }
    if (p->castle & li->own) {
        octad_move_t castles[4];
        int n = legal_castles(p, li, castles);
        for (int i = 0; i < n; i++)
            emit(ctx, p, us, octad_move_from(castles[i]), octad_move_to(castles[i]),
                 octad_move_kind(castles[i]), OCTAD_KING);
    }
}

/* Emits every legal move of p, whose side to move is us, given li for p. */
BB_INLINE void gen_legal_as(const octad_pos_t *p, const legal_info_t *li, int us, gen_emit_fn emit,
                            void *ctx)
{
    bb_t kt = (bb_t)(bb_king_att[li->ksq] & ~li->own & ~li->attacked);
    while (kt)
        emit(ctx, p, us, li->ksq, bb_pop_lsb(&kt), OCTAD_MK_NORMAL, OCTAD_KING);
    if (bb_several(li->checkers))
        return;
    bb_t free = (bb_t)(li->own & ~li->pinned);
    s_gen_pawns(p, li, (bb_t)(p->type[OCTAD_PAWN] & free), li->target, us, emit, ctx);
    s_gen_pieces(p, li, us, (bb_t)(p->type[OCTAD_KNIGHT] & free), OCTAD_KNIGHT, emit, ctx);
    if ((p->type[OCTAD_BISHOP] | p->type[OCTAD_ROOK] | p->type[OCTAD_QUEEN]) & li->own) {
        s_gen_pieces(p, li, us, (bb_t)(p->type[OCTAD_BISHOP] & li->own), OCTAD_BISHOP, emit, ctx);
        s_gen_pieces(p, li, us, (bb_t)(p->type[OCTAD_ROOK] & li->own), OCTAD_ROOK, emit, ctx);
        s_gen_pieces(p, li, us, (bb_t)(p->type[OCTAD_QUEEN] & li->own), OCTAD_QUEEN, emit, ctx);
    }
    if (li->pinned | (p->ep != OCTAD_SQ_NONE) | (p->castle & li->own))
        s_gen_rare(p, li, us, emit, ctx);
}
