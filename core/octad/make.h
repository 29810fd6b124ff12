/* make.h: copy-make of a legal octad move, inline for the perft loops. */
#pragma once

#include <stddef.h>
#include <string.h>

#include "bb.h"

/* The eight boards (color[2] then type[6], contiguous at the start of
 * octad_pos_t) as one vector, for make. */
typedef bb_t make_boards_t __attribute__((vector_size(16)));
_Static_assert(offsetof(octad_pos_t, color) == 0 && offsetof(octad_pos_t, type) == 4
                   && offsetof(octad_pos_t, castle) == 16,
               "make_parts treats color[] and type[] as one 16-byte vector");

/* Home rank of each colour, where castling partners stand. */
static const bb_t MAKE_HOME[OCTAD_COLOR_NB] = { BB_RANK_1, BB_RANK_4 };

/* Castles: king and partner change places (far castle: the king stops on the gap). */
BB_INLINE void s_make_castle(octad_pos_t *out, int from, int to, int kind, int us)
{
    int dest = kind == OCTAD_MK_CASTLE_FAR ? (from + to) / 2 : to;
    bb_t fb = bb_sq(from), tb = bb_sq(to), db = bb_sq(dest);
    bb_t partner_change = (bb_t)(tb | fb); /* partner leaves `to`, lands on `from` */
    out->type[OCTAD_KING] = (bb_t)((out->type[OCTAD_KING] ^ fb) | db);
    out->ksq[us] = (uint8_t)dest;
    if (kind == OCTAD_MK_CASTLE_NEAR)
        out->type[OCTAD_KNIGHT] ^= partner_change;
    else
        out->type[OCTAD_PAWN] ^= partner_change;
    out->color[us] = (bb_t)((out->color[us] ^ tb) | db | fb);
    out->castle = (bb_t)(out->castle & ~MAKE_HOME[us]);
}

/* The heart of make: writes the boards, rights, side and e.p. of *out, the
 * position after the legal move (from, to, kind, piece as in move.h; us to
 * move) from the parent's boards `pv`, rights `castle` and king squares `ksq`. The clocks of *out
 * are not touched. Inlined with constant kind and piece, it folds into a few
 * vector operations. */
BB_INLINE void make_core(make_boards_t pv, bb_t castle, const uint8_t *ksq, int us, int from, int to,
                         int kind, int piece, octad_pos_t *out)
{
    bb_t fb = bb_sq(from), tb = bb_sq(to);
    out->side = (uint8_t)(us ^ 1);
    out->ep = OCTAD_SQ_NONE;
    out->ksq[us ^ 1] = ksq[us ^ 1];
    out->ksq[us] = piece == OCTAD_KING ? (uint8_t)to : ksq[us];
    if (__builtin_expect(kind >= OCTAD_MK_CASTLE_NEAR && kind <= OCTAD_MK_CASTLE_FAR, 0)) {
        memcpy(out, &pv, sizeof pv);
        out->castle = castle;
        s_make_castle(out, from, to, kind, us);
        return;
    }
    int newtype = kind >= OCTAD_MK_PROMO_KNIGHT ? kind - OCTAD_MK_PROMO_KNIGHT + OCTAD_KNIGHT : piece;
    bb_t epcap = 0;
    if (kind == OCTAD_MK_EN_PASSANT)
        epcap = bb_sq(us == OCTAD_WHITE ? to - 4 : to + 4);
    if (kind == OCTAD_MK_DOUBLE)
        out->ep = (uint8_t)((from + to) / 2);
    /* All eight boards at once: clear from, to and the e.p. victim everywhere,
     * then set `to` in our colour's and the new type's lanes. */
    make_boards_t lanes = { 0 };
    lanes[us] = 0xFFFF;
    lanes[2 + newtype] = 0xFFFF;
    pv &= ~((make_boards_t){ 0 } + (bb_t)(fb | tb | epcap));
    pv |= lanes & ((make_boards_t){ 0 } + tb);
    memcpy(out, &pv, sizeof pv);
    bb_t keep = (bb_t)~(fb | tb);
    if (piece == OCTAD_KING)
        keep &= (bb_t)~MAKE_HOME[us];
    out->castle = (bb_t)(castle & keep);
}

/* The boards of p as one vector. */
BB_INLINE make_boards_t make_boards(const octad_pos_t *p)
{
    make_boards_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* *out = p after the legal move given by its parts (us = p->side; see
 * make_core); the clocks are copied unchanged (make_move sets them). */
BB_INLINE void make_parts(const octad_pos_t *p, int us, int from, int to, int kind, int piece,
                          octad_pos_t *out)
{
    out->halfmove = p->halfmove;
    out->fullmove = p->fullmove;
    out->reserved = 0;
    make_core(make_boards(p), p->castle, p->ksq, us, from, to, kind, piece, out);
}

/* *out = p after the legal move m, clocks left unchanged (see make_parts). */
BB_INLINE void make_move_board(const octad_pos_t *p, octad_move_t m, octad_pos_t *out)
{
    make_parts(p, p->side, octad_move_from(m), octad_move_to(m), octad_move_kind(m),
               octad_move_piece(m), out);
}

/* Whether the legal move m resets the halfmove clock, as make_move decides
 * (a capture, a pawn move, a change of castling rights), without making it:
 * a castle always gives up its side's rights; another move changes rights
 * when it leaves or lands on a partner's square, or is a king move with
 * rights on its home rank. */
static inline int make_move_zeroes(const octad_pos_t *p, octad_move_t m)
{
    int piece = octad_move_piece(m);
    if (piece == OCTAD_PAWN || octad_move_is_castle(m))
        return 1;
    bb_t tb = bb_sq(octad_move_to(m));
    bb_t touched = (bb_t)(bb_sq(octad_move_from(m)) | tb | (piece == OCTAD_KING ? MAKE_HOME[p->side] : 0));
    return (p->color[p->side ^ 1] & tb) || (p->castle & touched);
}

/* *out = p after the legal move m, clocks included (RULES.md "Halfmove clock"). */
static inline void make_move(const octad_pos_t *p, octad_move_t m, octad_pos_t *out)
{
    int kind = octad_move_kind(m);
    int capture = kind == OCTAD_MK_EN_PASSANT
                  || (!octad_move_is_castle(m) && (p->color[p->side ^ 1] & bb_sq(octad_move_to(m))));
    make_move_board(p, m, out);
    out->fullmove = p->fullmove + (p->side == OCTAD_BLACK && p->fullmove < OCTAD_COUNTER_MAX);
    out->halfmove = p->halfmove + (p->halfmove < OCTAD_COUNTER_MAX);
    if (capture || octad_move_piece(m) == OCTAD_PAWN || out->castle != p->castle)
        out->halfmove = 0;
}
