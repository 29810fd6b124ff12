/* legal.h: what legality needs, computed once per position (checkers, pins,
 * enemy attacks, check-evasion targets), shared by generation and counting. */
#pragma once

#include "bb.h"

/* Facts about the side to move, from legal_info_compute. */
typedef struct {
    int us, them;    /* colours */
    int ksq;         /* our king's square */
    bb_t own, enemy; /* occupancy by colour */
    bb_t occ;        /* all pieces */
    bb_t checkers;   /* enemy pieces giving check */
    bb_t pinned;     /* our pieces pinned to our king */
    bb_t target;     /* where non-king moves may land: not own, and blocking/capturing a single checker */
    bb_t attacked;   /* squares the enemy attacks with our king lifted off the board */
} legal_info_t;

/* Pieces of colour `by` attacking sq when the board occupancy is occ. */
static inline bb_t legal_attackers_to(const octad_pos_t *p, int sq, bb_t occ, int by)
{
    bb_t diag = (bb_t)(p->type[OCTAD_BISHOP] | p->type[OCTAD_QUEEN]);
    bb_t orth = (bb_t)(p->type[OCTAD_ROOK] | p->type[OCTAD_QUEEN]);
    bb_t a = (bb_t)((bb_pawn_att[by ^ 1][sq] & p->type[OCTAD_PAWN])
                    | (bb_knight_att[sq] & p->type[OCTAD_KNIGHT])
                    | (bb_king_att[sq] & p->type[OCTAD_KING]));
    if (diag & p->color[by])
        a |= bb_bishop_att(sq, occ) & diag;
    if (orth & p->color[by])
        a |= bb_rook_att(sq, occ) & orth;
    return (bb_t)(a & p->color[by]);
}

/* Enemy slider attacks, slider checkers and pins (only when the enemy has sliders). */
static inline void s_legal_sliders(legal_info_t *li, bb_t ediag, bb_t eorth)
{
    bb_t occ_nk = (bb_t)(li->occ ^ bb_sq(li->ksq));
    for (bb_t d = ediag; d;)
        li->attacked |= bb_bishop_att(bb_pop_lsb(&d), occ_nk);
    for (bb_t o = eorth; o;)
        li->attacked |= bb_rook_att(bb_pop_lsb(&o), occ_nk);
    bb_t snipers = (bb_t)((bb_bishop_empty[li->ksq] & ediag) | (bb_rook_empty[li->ksq] & eorth));
    while (snipers) {
        int s = bb_pop_lsb(&snipers);
        bb_t b = (bb_t)(bb_between[li->ksq][s] & li->occ);
        if (!b)
            li->checkers |= bb_sq(s);
        else if (!bb_several(b) && (b & li->own))
            li->pinned |= b;
    }
}

/* Fills *li for the side to move of p, which is `us` (a constant where it matters). */
BB_INLINE void legal_info_compute_as(const octad_pos_t *p, legal_info_t *li, int us)
{
    int them = us ^ 1;
    li->us = us;
    li->them = them;
    li->own = p->color[us];
    li->enemy = p->color[them];
    li->occ = (bb_t)(li->own | li->enemy);
    li->ksq = p->ksq[us];
    bb_t epawns = (bb_t)(p->type[OCTAD_PAWN] & li->enemy);
    bb_t eknights = (bb_t)(p->type[OCTAD_KNIGHT] & li->enemy);
    li->checkers = (bb_t)((bb_pawn_att[us][li->ksq] & epawns) | (bb_knight_att[li->ksq] & eknights));
    li->attacked = (bb_t)(bb_pawns_att(them, epawns) | bb_knight_att[bb_lsb(eknights | 0x10000u)]
                          | bb_king_att[p->ksq[them]]);
    for (unsigned more = eknights & (eknights - 1u); more; more &= more - 1)
        li->attacked |= bb_knight_att[bb_lsb(more)];
    li->pinned = 0;
    bb_t ediag = (bb_t)((p->type[OCTAD_BISHOP] | p->type[OCTAD_QUEEN]) & li->enemy);
    bb_t eorth = (bb_t)((p->type[OCTAD_ROOK] | p->type[OCTAD_QUEEN]) & li->enemy);
    if (ediag | eorth)
        s_legal_sliders(li, ediag, eorth);
    li->target = (bb_t)~li->own;
    if (li->checkers)
        li->target = (bb_t)(li->checkers | bb_between[li->ksq][bb_lsb(li->checkers)]);
}

/* Fills *li for the side to move of p. */
static inline void legal_info_compute(const octad_pos_t *p, legal_info_t *li)
{
    legal_info_compute_as(p, li, p->side);
}

/* Whether the en-passant capture by the pawn on `from` leaves our king safe. */
static inline int legal_ep_safe(const octad_pos_t *p, const legal_info_t *li, int from)
{
    int capsq = li->us == OCTAD_WHITE ? p->ep - 4 : p->ep + 4;
    bb_t occ = (bb_t)((li->occ ^ bb_sq(from) ^ bb_sq(capsq)) | bb_sq(p->ep));
    bb_t att = legal_attackers_to(p, li->ksq, occ, li->them);
    return (att & ~bb_sq(capsq)) == 0;
}

/* Castles of the side to move: writes up to 3 moves into out, returns how many.
 * A right's kind follows from where its partner stands now (RULES.md). */
static inline int legal_castles(const octad_pos_t *p, const legal_info_t *li, octad_move_t *out)
{
    bb_t rights = (bb_t)(p->castle & (li->us == OCTAD_WHITE ? BB_RANK_1 : BB_RANK_4));
    int n = 0;
    if (!rights || li->checkers)
        return 0;
    while (rights) {
        int ps = bb_pop_lsb(&rights);
        int dist = ps > li->ksq ? ps - li->ksq : li->ksq - ps;
        int kind, dest = ps;
        bb_t occ = li->occ;
        if (dist == 1 && (p->type[OCTAD_KNIGHT] & bb_sq(ps))) {
            kind = OCTAD_MK_CASTLE_NEAR;
        } else if (dist == 1 && (p->type[OCTAD_PAWN] & bb_sq(ps))) {
            kind = OCTAD_MK_CASTLE_CENTER;
        } else if (dist == 2 && (p->type[OCTAD_PAWN] & bb_sq(ps))
                   && !(li->occ & bb_sq((ps + li->ksq) / 2))) {
            kind = OCTAD_MK_CASTLE_FAR;
            dest = (ps + li->ksq) / 2;
            occ = (bb_t)((occ ^ bb_sq(ps)) | bb_sq(dest));
        } else {
            continue;
        }
        if (legal_attackers_to(p, dest, occ, li->them))
            continue;
        out[n++] = octad_move_new(li->ksq, ps, kind, OCTAD_KING);
    }
    return n;
}
