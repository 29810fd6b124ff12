/* leafcount.h: the number of legal moves of a position, counted by popcounts
 * without making or listing any move (perft's last ply). Inline, for perft.c. */
#pragma once

#include "legal.h"

/* Moves of the pawns `pawns` of li->us (unpinned, or one pinned pawn with a
 * line-restricted target), promotions counting four. */
BB_INLINE int s_lc_pawns(const legal_info_t *li, unsigned pawns, unsigned target)
{
    int us = li->us;
    unsigned empty = ~li->occ & 0xFFFFu, promo = us == OCTAD_WHITE ? BB_RANK_4 : BB_RANK_1;
    unsigned single = bb_pawns_push(us, (bb_t)pawns) & empty;
    unsigned dbl = bb_pawns_push(us, (bb_t)(single & (us == OCTAD_WHITE ? BB_RANK_2 : BB_RANK_3)))
                   & empty & target;
    unsigned west = (us == OCTAD_WHITE ? (pawns & ~BB_FILE_A) << 3 : (pawns & ~BB_FILE_A) >> 5)
                    & li->enemy & target;
    unsigned east = (us == OCTAD_WHITE ? (pawns & ~BB_FILE_D) << 5 : (pawns & ~BB_FILE_D) >> 3)
                    & li->enemy & target;
    single &= target;
    /* single, dbl and west never share a square; east may overlap west. */
    uint64_t lanes = (single | dbl | west) | ((uint64_t)east << 16);
    return __builtin_popcountll(lanes)
           + 3 * __builtin_popcount(((single | west) & promo) | ((east & promo) << 16));
}

/* Castles of li->us when not in check: swaps need the destination safe in
 * `attacked`; a far castle also needs the rank behind the vacated pawn square. */
BB_INLINE int s_lc_castles(const octad_pos_t *p, const legal_info_t *li, unsigned attacked)
{
    unsigned rights = p->castle & li->own, eorth = (p->type[OCTAD_ROOK] | p->type[OCTAD_QUEEN]) & li->enemy;
    int n = 0;
    for (; rights; rights &= rights - 1) {
        int ps = bb_lsb(rights), dist = ps > li->ksq ? ps - li->ksq : li->ksq - ps;
        if (dist == 1) {
            n += !(attacked & bb_sq(ps));
        } else if (dist == 2 && (p->type[OCTAD_PAWN] & bb_sq(ps))) {
            int mid = (ps + li->ksq) / 2;
            if (!(li->occ & bb_sq(mid)) && !(attacked & bb_sq(mid))
                && !(bb_rook_att(mid, (bb_t)(li->occ ^ bb_sq(ps))) & eorth))
                n++;
        }
    }
    return n;
}

/* Fills li's identity fields for p, `us` to move, king on ksq. */
BB_INLINE void s_lc_info(const octad_pos_t *p, int us, int ksq, legal_info_t *li)
{
    li->us = us;
    li->them = us ^ 1;
    li->ksq = ksq;
    li->own = p->color[us];
    li->enemy = p->color[us ^ 1];
    li->occ = (bb_t)(li->own | li->enemy);
}

/* En-passant captures of `us` (king on ksq), each verified on the resulting occupancy. */
static __attribute__((noinline)) int s_lc_ep(const octad_pos_t *p, int us, int ksq)
{
    legal_info_t li;
    int n = 0;
    s_lc_info(p, us, ksq, &li);
    unsigned cand = bb_pawn_att[us ^ 1][p->ep] & p->type[OCTAD_PAWN] & li.own;
    for (; cand; cand &= cand - 1)
        n += legal_ep_safe(p, &li, bb_lsb(cand));
    return n;
}

/* The general count given li (in check, or with pins); kmoves are the king's moves. */
BB_INLINE int s_lc_hard_as(const octad_pos_t *p, legal_info_t *li, int kmoves)
{
    int n = kmoves;
    if (bb_several(li->checkers))
        return n;
    li->target = (bb_t)~li->own;
    if (li->checkers)
        li->target = (bb_t)(li->checkers | bb_between[li->ksq][bb_lsb(li->checkers)]);
    unsigned free = li->own & ~li->pinned;
    n += s_lc_pawns(li, p->type[OCTAD_PAWN] & free, li->target);
    for (unsigned k = p->type[OCTAD_KNIGHT] & free; k; k &= k - 1)
        n += bb_count(bb_knight_att[bb_lsb(k)] & li->target);
    unsigned diag = (p->type[OCTAD_BISHOP] | p->type[OCTAD_QUEEN]) & li->own;
    unsigned orth = (p->type[OCTAD_ROOK] | p->type[OCTAD_QUEEN]) & li->own;
    for (unsigned s = diag | orth; s; s &= s - 1) {
        int sq = bb_lsb(s);
        unsigned a = 0;
        if (diag & bb_sq(sq))
            a |= bb_bishop_att(sq, li->occ);
        if (orth & bb_sq(sq))
            a |= bb_rook_att(sq, li->occ);
        a &= li->target;
        if (li->pinned & bb_sq(sq))
            a &= bb_line[li->ksq][sq];
        n += bb_count(a);
    }
    for (unsigned pp = p->type[OCTAD_PAWN] & li->own & li->pinned; pp; pp &= pp - 1) {
        int sq = bb_lsb(pp);
        n += s_lc_pawns(li, bb_sq(sq), li->target & bb_line[li->ksq][sq]);
    }
    if (p->ep != OCTAD_SQ_NONE)
        n += s_lc_ep(p, li->us, li->ksq);
    if (!li->checkers && (p->castle & li->own))
        n += s_lc_castles(p, li, li->attacked);
    return n;
}

/* The general count, out of line, from the facts the fast path computed. */
static __attribute__((noinline)) int s_lc_hard(const octad_pos_t *p, int us, int ksq, unsigned checkers,
                                               unsigned pinned, unsigned attacked)
{
    legal_info_t li;
    s_lc_info(p, us, ksq, &li);
    li.checkers = (bb_t)checkers;
    li.pinned = (bb_t)pinned;
    li.attacked = (bb_t)attacked;
    return s_lc_hard_as(p, &li, bb_count(bb_king_att[ksq] & ~li.own & ~attacked));
}

/* Enemy slider attacks (our king on ksq lifted), adding slider checkers and pins. */
BB_INLINE unsigned s_lc_sliders(unsigned ediag, unsigned eorth, int ksq, unsigned own, unsigned occ,
                                unsigned *checkers, unsigned *pinned)
{
    unsigned occ_nk = occ ^ bb_sq(ksq), a = 0;
    for (unsigned d = ediag; d; d &= d - 1)
        a |= bb_bishop_att(bb_lsb(d), (bb_t)occ_nk);
    for (unsigned o = eorth; o; o &= o - 1)
        a |= bb_rook_att(bb_lsb(o), (bb_t)occ_nk);
    unsigned snipers = (bb_bishop_empty[ksq] & ediag) | (bb_rook_empty[ksq] & eorth);
    for (; snipers; snipers &= snipers - 1) {
        int s = bb_lsb(snipers);
        unsigned b = bb_between[ksq][s] & occ;
        if (!b)
            *checkers |= bb_sq(s);
        else if (!bb_several(b) && (b & own))
            *pinned |= b;
    }
    return a;
}

/* Number of legal moves of p (us to move) when sliders may stand on the board.
 * The common case (not in check, nothing pinned) is a few popcounts; the rest
 * goes out of line. */
BB_INLINE int s_lc_general_as(const octad_pos_t *p, int us)
{
    int them = us ^ 1;
    unsigned own = p->color[us], enemy = p->color[them], occ = own | enemy;
    unsigned pawns = p->type[OCTAD_PAWN], knights = p->type[OCTAD_KNIGHT];
    unsigned queens = p->type[OCTAD_QUEEN];
    unsigned diag = p->type[OCTAD_BISHOP] | queens, orth = p->type[OCTAD_ROOK] | queens;
    unsigned sliders = diag | orth;
    int ksq = p->ksq[us];
    unsigned epawns = pawns & enemy, eknights = knights & enemy, pinned = 0;
    unsigned checkers = (bb_pawn_att[us][ksq] & epawns) | (bb_knight_att[ksq] & eknights);
    unsigned attacked = bb_pawns_att(them, (bb_t)epawns) | bb_knight_att[bb_lsb(eknights | 0x10000u)]
                        | bb_king_att[p->ksq[them]];
    for (unsigned more = eknights & (eknights - 1); more; more &= more - 1)
        attacked |= bb_knight_att[bb_lsb(more)];
    unsigned notown = ~own & 0xFFFFu;
    /* Pins need an enemy slider, and so does a double check after a legal
     * move; a parsed position may still hold two non-slider checkers. */
    if (sliders & enemy) {
        attacked |= s_lc_sliders(diag & enemy, orth & enemy, ksq, own, occ, &checkers, &pinned);
        if (pinned || bb_several(checkers))
            return s_lc_hard(p, us, ksq, checkers, pinned, attacked);
    } else if (__builtin_expect(bb_several(checkers), 0)) {
        return s_lc_hard(p, us, ksq, checkers, 0, attacked);
    }
    unsigned kmoves = bb_king_att[ksq] & notown & ~attacked;
    /* Non-king moves land on tgt: anywhere not ours, or on a single checker or
     * between it and the king. In check there is no castling. */
    unsigned evasion = bb_evasion[ksq][bb_lsb(checkers | 0x10000u)];
    unsigned tgt = notown & evasion;
    unsigned rights = p->castle & own & evasion; /* evasion squares are never ours */
    unsigned opawns = pawns & own, empty = ~occ & 0xFFFFu;
    unsigned single = bb_pawns_push(us, (bb_t)opawns) & empty;
    unsigned dbl = bb_pawns_push(us, (bb_t)(single & (us == OCTAD_WHITE ? BB_RANK_2 : BB_RANK_3)))
                   & empty & tgt;
    unsigned west = (us == OCTAD_WHITE ? (opawns & ~BB_FILE_A) << 3 : (opawns & ~BB_FILE_A) >> 5)
                    & enemy & tgt;
    unsigned east = (us == OCTAD_WHITE ? (opawns & ~BB_FILE_D) << 5 : (opawns & ~BB_FILE_D) >> 3)
                    & enemy & tgt;
    unsigned promo = us == OCTAD_WHITE ? BB_RANK_4 : BB_RANK_1;
    single &= tgt;
    /* single, dbl and west never share a square; east may overlap west. */
    uint64_t lanes = (single | dbl | west) | ((uint64_t)east << 16);
    /* Swap castles land on an own square, so they share the king's lane. */
    kmoves |= rights & bb_king_att[ksq] & ~attacked;
    /* The first knight by a sentinel lookup (bb_knight_att[16] = 0), others in a loop. */
    unsigned oknights = knights & own;
    lanes |= ((uint64_t)kmoves << 32)
             | ((uint64_t)(bb_knight_att[bb_lsb(oknights | 0x10000u)] & tgt) << 48);
    oknights &= oknights - 1;
    int n = __builtin_popcountll(lanes)
            + 3 * __builtin_popcount(((single | west) & promo) | ((east & promo) << 16));
    for (; oknights; oknights &= oknights - 1)
        n += bb_count(bb_knight_att[bb_lsb(oknights)] & tgt);
    if (sliders & own) {
        for (unsigned d = diag & own; d; d &= d - 1)
            n += bb_count(bb_bishop_att(bb_lsb(d), (bb_t)occ) & tgt);
        for (unsigned o = orth & own; o; o &= o - 1)
            n += bb_count(bb_rook_att(bb_lsb(o), (bb_t)occ) & tgt);
    }
    unsigned far = rights & pawns & bb_home_dist2[ksq];
    if (far) {
        int mid = (bb_lsb(far) + ksq) / 2;
        n += !(occ & bb_sq(mid)) && !(attacked & bb_sq(mid))
             && !(bb_rook_att(mid, (bb_t)(occ ^ far)) & orth & enemy);
    }
    if (p->ep != OCTAD_SQ_NONE && (bb_pawn_att[them][p->ep] & opawns))
        n += s_lc_ep(p, us, ksq);
    return n;
}

/* The general count out of line, per side to move (positions with sliders). */
static __attribute__((noinline)) int s_lc_general_white(const octad_pos_t *p)
{
    return s_lc_general_as(p, OCTAD_WHITE);
}

static __attribute__((noinline)) int s_lc_general_black(const octad_pos_t *p)
{
    return s_lc_general_as(p, OCTAD_BLACK);
}

/* Number of legal moves of p (us to move) when no bishop, rook or queen
 * stands on the board (most of the start position's tree): no pins, no
 * slider checks, and a single checker (pawn or knight) is the only evasion
 * target. */
BB_INLINE int s_lc_leapers_as(const octad_pos_t *p, int us)
{
    int them = us ^ 1, ksq = p->ksq[us];
    unsigned own = p->color[us], enemy = p->color[them], occ = own | enemy;
    unsigned pawns = p->type[OCTAD_PAWN], knights = p->type[OCTAD_KNIGHT];
    unsigned epawns = pawns & enemy, eknights = knights & enemy;
    unsigned checkers = (bb_pawn_att[us][ksq] & epawns) | (bb_knight_att[ksq] & eknights);
    unsigned attacked = (us == OCTAD_WHITE ? ((epawns & ~BB_FILE_A) >> 5) | ((epawns & ~BB_FILE_D) >> 3)
                                           : ((epawns & ~BB_FILE_A) << 3) | ((epawns & ~BB_FILE_D) << 5))
                        | bb_knight_att[bb_lsb(eknights | 0x10000u)] | bb_king_att[p->ksq[them]];
    for (unsigned more = eknights & (eknights - 1); more; more &= more - 1)
        attacked |= bb_knight_att[bb_lsb(more)];
    if (__builtin_expect(bb_several(checkers), 0))
        return s_lc_hard(p, us, ksq, checkers, 0, attacked);
    /* attacked may hold bits above 15 (white pawn shifts): only ever masked.
     * evasion: the checker, or every square (0xFFFF) when checkers == 0. */
    unsigned notown = ~own & 0xFFFFu, evasion = checkers | ((checkers - 1u) >> 16);
    unsigned tgt = notown & evasion, rights = p->castle & own & evasion;
    unsigned kmoves = bb_king_att[ksq] & ~attacked & (notown | rights); /* swaps share the king's lane */
    unsigned opawns = pawns & own, empty = ~occ & 0xFFFFu;
    unsigned single = (us == OCTAD_WHITE ? opawns << 4 : opawns >> 4) & empty;
    unsigned dbl = (us == OCTAD_WHITE ? (single & BB_RANK_2) << 4 : (single & BB_RANK_3) >> 4) & empty & tgt;
    unsigned west = (us == OCTAD_WHITE ? (opawns & ~BB_FILE_A) << 3 : (opawns & ~BB_FILE_A) >> 5) & enemy & tgt;
    unsigned east = (us == OCTAD_WHITE ? (opawns & ~BB_FILE_D) << 5 : (opawns & ~BB_FILE_D) >> 3) & enemy & tgt;
    unsigned promo = us == OCTAD_WHITE ? BB_RANK_4 : BB_RANK_1, oknights = knights & own;
    single &= tgt;
    /* Lanes as in s_lc_general_as: pawns | east captures | king | first knight. */
    uint64_t lanes = (single | dbl | west) | ((uint64_t)east << 16) | ((uint64_t)kmoves << 32)
                     | ((uint64_t)(bb_knight_att[bb_lsb(oknights | 0x10000u)] & tgt) << 48);
    int n = __builtin_popcountll(lanes)
            + 3 * __builtin_popcount(((single | west) & promo) | ((east & promo) << 16));
    for (oknights &= oknights - 1; oknights; oknights &= oknights - 1)
        n += bb_count(bb_knight_att[bb_lsb(oknights)] & tgt);
    /* Far castle: no slider can see the vacated square, so gap empty and safe is all. */
    unsigned far = rights & pawns & bb_home_dist2[ksq];
    if (far) {
        int mid = (bb_lsb(far) + ksq) / 2;
        n += !((occ | attacked) & bb_sq(mid));
    }
    if (bb_pawn_att[them][p->ep] & opawns) /* [them][OCTAD_SQ_NONE] = 0 */
        n += s_lc_ep(p, us, ksq);
    return n;
}

/* Number of legal moves of p, whose side to move is us. */
BB_INLINE int leafcount_as(const octad_pos_t *p, int us)
{
    if (p->type[OCTAD_BISHOP] | p->type[OCTAD_ROOK] | p->type[OCTAD_QUEEN])
        return us == OCTAD_WHITE ? s_lc_general_white(p) : s_lc_general_black(p);
    return s_lc_leapers_as(p, us);
}
