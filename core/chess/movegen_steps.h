/* movegen_steps.h: the inline steps shared by move listing (movegen.c) and
 * counting (movecount.c). Every step takes the context built by mg_setup; its
 * `us` and `pext` fields are compile-time constants in each instantiation
 * (the callers dispatch once per position), so the side-to-move branches and
 * the slider-method choice fold away. Internal to core/chess. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "bitboard.h"
#include "movegen.h"

/* Forces inlining so the constant context fields propagate (a trivial attribute alias). */
#define MG_INLINE static inline __attribute__((always_inline))

/* What every generation step needs, computed once per position. */
typedef struct {
    uint64_t own, opp, occ;
    uint64_t checkers, pinned, target;
    uint64_t their_bq, their_rq; /* enemy bishops or queens, rooks or queens */
    uint64_t danger;             /* squares the enemy's pawns, knights and king attack: set by the caller after mg_setup */
    int us, ksq;
    bool pext; /* slider indices by PEXT (else magic) */
} mg_ctx_t;

/* Castling masks on rank 1 by (king file, rook file), built by movegen_init. */
extern uint64_t mg_castle_path[8][8];      /* must be empty but for king and rook */
extern uint64_t mg_castle_king_path[8][8]; /* the king's path, destination included */

MG_INLINE uint64_t mg_slider(const bb64_slider_t *s, uint64_t occ, bool pext)
{
    return s->attacks[pext ? bb64_pext(occ, s->mask) : ((occ & s->mask) * s->magic) >> s->shift];
}

MG_INLINE uint64_t mg_rook(const mg_ctx_t *c, int sq, uint64_t occ)
{
    return mg_slider(&bb64_rook_sliders[sq], occ, c->pext);
}

MG_INLINE uint64_t mg_bishop(const mg_ctx_t *c, int sq, uint64_t occ)
{
    return mg_slider(&bb64_bishop_sliders[sq], occ, c->pext);
}

/* True if an enemy slider attacks sq with occupancy occ (leapers are in c->danger). */
MG_INLINE bool mg_slider_attacked(const mg_ctx_t *c, int sq, uint64_t occ)
{
    return (mg_bishop(c, sq, occ) & c->their_bq) | (mg_rook(c, sq, occ) & c->their_rq);
}

/* Squares attacked by the pawns of `color`. */
MG_INLINE uint64_t mg_pawn_attacks(uint64_t pawns, int color)
{
    if (color == CHESS_WHITE)
        return ((pawns & ~BB_FILE_A) << 7) | ((pawns & ~BB_FILE_H) << 9);
    return ((pawns & ~BB_FILE_A) >> 9) | ((pawns & ~BB_FILE_H) >> 7);
}

/* Squares attacked by the knights. */
MG_INLINE uint64_t mg_knight_attacks(uint64_t knights)
{
    uint64_t a = 0;
    while (knights)
        a |= bb64_knight[bb64_pop(&knights)];
    return a;
}

/* The enemy's leaper attacks, the usual c->danger. */
MG_INLINE uint64_t mg_leaper_attacks(const chess_pos_t *p, const mg_ctx_t *c)
{
    return mg_pawn_attacks(p->pieces[CHESS_PAWN] & c->opp, c->us ^ 1)
         | mg_knight_attacks(p->pieces[CHESS_KNIGHT] & c->opp)
         | bb64_king[bb64_lsb(p->pieces[CHESS_KING] & c->opp)];
}

/* Checkers and pinned pieces in one pass over the enemy sliders on the king's
 * lines (no slider lookup: a sniper with nothing between is a checker). */
MG_INLINE void mg_setup(const chess_pos_t *p, mg_ctx_t *c, int us, bool pext)
{
    c->us = us;
    c->pext = pext;
    c->own = p->colors[us];
    c->opp = p->colors[us ^ 1];
    c->occ = c->own | c->opp;
    int ksq = c->ksq = bb64_lsb(p->pieces[CHESS_KING] & c->own);
    c->their_bq = (p->pieces[CHESS_BISHOP] | p->pieces[CHESS_QUEEN]) & c->opp;
    c->their_rq = (p->pieces[CHESS_ROOK] | p->pieces[CHESS_QUEEN]) & c->opp;
    uint64_t snipers = (bb64_rook_rays[ksq] & c->their_rq) | (bb64_bishop_rays[ksq] & c->their_bq);
    uint64_t pinned = 0;
    uint64_t checkers = ((bb64_knight[ksq] & p->pieces[CHESS_KNIGHT])
                         | (bb64_pawn_attacks[us][ksq] & p->pieces[CHESS_PAWN])) & c->opp;
    while (snipers) {
        int sq = bb64_pop(&snipers);
        uint64_t b = bb64_between[ksq][sq] & c->occ;
        if (!b)
            checkers |= bb64_sq(sq);
        else if (!bb64_many(b))
            pinned |= b & c->own;
    }
    c->checkers = checkers;
    c->pinned = pinned;
    c->target = checkers ? bb64_between[ksq][bb64_lsb(checkers)] | checkers : ~c->own;
}

/* King destinations not attacked once the king has left its square. */
MG_INLINE uint64_t mg_king_dests(const mg_ctx_t *c)
{
    uint64_t dests = bb64_king[c->ksq] & ~c->own & ~c->danger, ok = 0;
    uint64_t occ = c->occ ^ bb64_sq(c->ksq);
    while (dests) {
        int sq = bb64_pop(&dests);
        if (!mg_slider_attacked(c, sq, occ))
            ok |= bb64_sq(sq);
    }
    return ok;
}

/* Castle with the rook on rsq: the squares both pieces cross or land on are
 * empty but for the two, and no square of the king's path (its destination
 * included) is attacked with both castling pieces lifted, which also catches
 * a back-rank attack the castling rook was shielding. Caller: not in check. */
MG_INLINE bool mg_castle_ok(const mg_ctx_t *c, int rsq)
{
    int shift = c->us == CHESS_WHITE ? 0 : 56;
    if ((mg_castle_path[c->ksq & 7][rsq & 7] << shift) & c->occ)
        return false;
    uint64_t king_path = mg_castle_king_path[c->ksq & 7][rsq & 7] << shift;
    if (king_path & c->danger)
        return false;
    uint64_t occ = c->occ ^ bb64_sq(c->ksq) ^ bb64_sq(rsq);
    while (king_path) {
        if (mg_slider_attacked(c, bb64_pop(&king_path), occ))
            return false;
    }
    return true;
}

/* Rooks we may castle with now (empty when in check). */
MG_INLINE uint64_t mg_castles(const chess_pos_t *p, const mg_ctx_t *c)
{
    uint64_t rooks = c->checkers ? 0 : p->castle_rooks & c->own, ok = 0;
    if (rooks) /* cheap first filter: nothing between king and rook */
        rooks &= mg_rook(c, c->ksq, c->occ);
    while (rooks) {
        int rsq = bb64_pop(&rooks);
        if (mg_castle_ok(c, rsq))
            ok |= bb64_sq(rsq);
    }
    return ok;
}

/* Legal en-passant captures: origins of the capturing pawns (verified by lifting both pawns). */
MG_INLINE uint64_t mg_ep_origins(const chess_pos_t *p, const mg_ctx_t *c)
{
    if (p->ep == CHESS_SQ_NONE)
        return 0;
    uint64_t cands = bb64_pawn_attacks[c->us ^ 1][p->ep] & p->pieces[CHESS_PAWN] & c->own, ok = 0;
    int cap = p->ep ^ 8;
    while (cands) {
        int from = bb64_pop(&cands);
        uint64_t occ = c->occ ^ bb64_sq(from) ^ bb64_sq(cap) ^ bb64_sq(p->ep);
        uint64_t bq = (p->pieces[CHESS_BISHOP] | p->pieces[CHESS_QUEEN]) & c->opp;
        uint64_t rq = (p->pieces[CHESS_ROOK] | p->pieces[CHESS_QUEEN]) & c->opp;
        uint64_t leapers = c->checkers & ~bb64_sq(cap) & (p->pieces[CHESS_KNIGHT] | p->pieces[CHESS_PAWN]);
        if (!leapers && !(mg_bishop(c, c->ksq, occ) & bq) && !(mg_rook(c, c->ksq, occ) & rq))
            ok |= bb64_sq(from);
    }
    return ok;
}

/* Pawn destinations of the unpinned pawns, as four shifted sets. */
typedef struct {
    uint64_t push1, push2, cap_west, cap_east;
    int dir; /* +8 white, -8 black */
} mg_pawn_sets_t;

MG_INLINE void mg_pawn_sets(const chess_pos_t *p, const mg_ctx_t *c, mg_pawn_sets_t *s)
{
    uint64_t pawns = p->pieces[CHESS_PAWN] & c->own & ~c->pinned, empty = ~c->occ;
    uint64_t enemy = c->opp & c->target;
    if (c->us == CHESS_WHITE) {
        s->dir = 8;
        uint64_t one = (pawns << 8) & empty;
        s->push2 = ((one & BB_RANK_3_MASK) << 8) & empty & c->target;
        s->push1 = one & c->target;
        s->cap_west = ((pawns & ~BB_FILE_A) << 7) & enemy;
        s->cap_east = ((pawns & ~BB_FILE_H) << 9) & enemy;
    } else {
        s->dir = -8;
        uint64_t one = (pawns >> 8) & empty;
        s->push2 = ((one & BB_RANK_6_MASK) >> 8) & empty & c->target;
        s->push1 = one & c->target;
        s->cap_west = ((pawns & ~BB_FILE_A) >> 9) & enemy;
        s->cap_east = ((pawns & ~BB_FILE_H) >> 7) & enemy;
    }
}

/* Destinations of the pinned pawn on sq (along its pin line); caller: not in check. */
MG_INLINE uint64_t mg_pinned_pawn_dests(const mg_ctx_t *c, int sq)
{
    uint64_t empty = ~c->occ;
    uint64_t one = bb64_forward(bb64_sq(sq), c->us) & empty;
    uint64_t start = c->us == CHESS_WHITE ? BB_RANK_3_MASK : BB_RANK_6_MASK;
    uint64_t two = bb64_forward(one & start, c->us) & empty;
    uint64_t caps = bb64_pawn_attacks[c->us][sq] & c->opp;
    return (one | two | caps) & bb64_line[c->ksq][sq];
}

/* Destinations of the bishop/rook/queen-like slider of type pt on sq (pin applied). */
MG_INLINE uint64_t mg_slider_dests(const mg_ctx_t *c, int pt, int sq)
{
    uint64_t d = 0;
    if (pt != CHESS_ROOK)
        d |= mg_bishop(c, sq, c->occ);
    if (pt != CHESS_BISHOP)
        d |= mg_rook(c, sq, c->occ);
    d &= c->target;
    return c->pinned & bb64_sq(sq) ? d & bb64_line[c->ksq][sq] : d;
}
