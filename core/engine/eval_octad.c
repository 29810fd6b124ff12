/* eval_octad.c: octad's static evaluation (eval.h). On a 4x4 board a pawn is
 * at most two steps from promotion, so the terms are material, the pawn race
 * (how far a pawn is, whether its way is clear and unguarded), mobility, and
 * how many squares around each king the enemy attacks. */
#include "eval.h"
#include "octad/legal.h"

static const int S_VALUE[OCTAD_PIECE_TYPE_NB] = { 100, 270, 300, 480, 900, 0 };
/* By steps made from the home rank (0, 1, 2: the next step promotes). */
static const int S_PAWN_ADVANCE[3] = { 0, 15, 50 };
static const int S_PAWN_FREE[3] = { 0, 25, 110 };   /* nothing on or guarding the way */
static const int S_MOBILITY[OCTAD_PIECE_TYPE_NB] = { 0, 6, 5, 4, 2, 0 };
static const int S_KING_ZONE_ATTACK = 12;
static const int S_TEMPO = 10;

/* Squares colour c attacks (king included). */
static bb_t s_attacks(const octad_pos_t *p, int c, bb_t occ)
{
    bb_t own = p->color[c];
    bb_t a = (bb_t)(bb_pawns_att(c, (bb_t)(p->type[OCTAD_PAWN] & own)) | bb_king_att[p->ksq[c]]);
    for (bb_t n = (bb_t)(p->type[OCTAD_KNIGHT] & own); n;)
        a |= bb_knight_att[bb_pop_lsb(&n)];
    for (bb_t d = (bb_t)((p->type[OCTAD_BISHOP] | p->type[OCTAD_QUEEN]) & own); d;)
        a |= bb_bishop_att(bb_pop_lsb(&d), occ);
    for (bb_t o = (bb_t)((p->type[OCTAD_ROOK] | p->type[OCTAD_QUEEN]) & own); o;)
        a |= bb_rook_att(bb_pop_lsb(&o), occ);
    return a;
}

/* Pawn terms of colour c, given the squares the enemy attacks. */
static int s_pawns(const octad_pos_t *p, int c, bb_t occ, bb_t enemy_att)
{
    int score = 0;
    for (bb_t pw = (bb_t)(p->type[OCTAD_PAWN] & p->color[c]); pw;) {
        int sq = bb_pop_lsb(&pw);
        int steps = c == OCTAD_WHITE ? bb_rank(sq) : 3 - bb_rank(sq);
        if (steps > 2)
            continue;
        score += S_PAWN_ADVANCE[steps];
        bb_t path = 0;
        for (int s = sq + (c == OCTAD_WHITE ? 4 : -4); s >= 0 && s < OCTAD_SQ_NB; s += c == OCTAD_WHITE ? 4 : -4)
            path |= bb_sq(s);
        if (!(path & (occ | enemy_att)))
            score += S_PAWN_FREE[steps];
    }
    return score;
}

/* Material, mobility and king-zone terms of colour c. */
static int s_side(const octad_pos_t *p, int c, bb_t occ, bb_t enemy_att)
{
    int score = 0;
    bb_t own = p->color[c];
    for (int t = OCTAD_PAWN; t < OCTAD_KING; t++)
        score += S_VALUE[t] * bb_count(p->type[t] & own);
    for (int t = OCTAD_KNIGHT; t < OCTAD_KING; t++) {
        for (bb_t b = (bb_t)(p->type[t] & own); b;) {
            int sq = bb_pop_lsb(&b);
            bb_t a = t == OCTAD_KNIGHT   ? bb_knight_att[sq]
                     : t == OCTAD_BISHOP ? bb_bishop_att(sq, occ)
                     : t == OCTAD_ROOK   ? bb_rook_att(sq, occ)
                                         : (bb_t)(bb_bishop_att(sq, occ) | bb_rook_att(sq, occ));
            score += S_MOBILITY[t] * bb_count(a & ~own);
        }
    }
    score -= S_KING_ZONE_ATTACK * bb_count(bb_king_att[p->ksq[c]] & enemy_att);
    return score + s_pawns(p, c, occ, enemy_att);
}

int eval_octad(const octad_pos_t *p)
{
    bb_t occ = (bb_t)(p->color[0] | p->color[1]);
    bb_t att_w = s_attacks(p, OCTAD_WHITE, occ), att_b = s_attacks(p, OCTAD_BLACK, occ);
    int white = s_side(p, OCTAD_WHITE, occ, att_b) - s_side(p, OCTAD_BLACK, occ, att_w);
    return (p->side == OCTAD_WHITE ? white : -white) + S_TEMPO;
}
