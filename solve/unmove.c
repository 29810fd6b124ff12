/* unmove.c: retrograde moves for the generator. */
#include "unmove.h"

#include "octad/legal.h"

/* Squares a piece of type t on sq attacks with occupancy occ. */
static inline bb_t s_attacks(int t, int sq, bb_t occ)
{
    switch (t) {
    case OCTAD_KING:
        return bb_king_att[sq];
    case OCTAD_KNIGHT:
        return bb_knight_att[sq];
    case OCTAD_BISHOP:
        return bb_bishop_att(sq, occ);
    case OCTAD_ROOK:
        return bb_rook_att(sq, occ);
    default:
        return (bb_t)(bb_bishop_att(sq, occ) | bb_rook_att(sq, occ));
    }
}

int unmove_gen(const octad_pos_t *p, unsigned fixed, octad_pos_t *out)
{
    static const int TYPES[5] = {OCTAD_KING, OCTAD_KNIGHT, OCTAD_BISHOP, OCTAD_ROOK, OCTAD_QUEEN};
    bb_t occ = (bb_t)(p->color[0] | p->color[1]);
    bb_t empty = (bb_t)~occ;
    int n = 0;
    for (int i = 0; i < 5; i++) {
        int t = TYPES[i];
        bb_t movers = (bb_t)(p->type[t] & p->color[OCTAD_WHITE] & ~fixed);
        while (movers) {
            int s = bb_pop_lsb(&movers);
            /* A slider's reverse move is symmetric: it came from a square it sees. */
            bb_t from = (bb_t)(s_attacks(t, s, occ) & empty);
            while (from) {
                int f = bb_pop_lsb(&from);
                bb_t d = (bb_t)(bb_sq(s) | bb_sq(f));
                octad_pos_t *q = &out[n];
                *q = *p;
                q->color[OCTAD_WHITE] ^= d;
                q->type[t] ^= d;
                if (t == OCTAD_KING)
                    q->ksq[OCTAD_WHITE] = (uint8_t)f;
                q->side = OCTAD_WHITE;
                bb_t qocc = (bb_t)(occ ^ d);
                if (!legal_attackers_to(q, q->ksq[OCTAD_BLACK], qocc, OCTAD_WHITE))
                    n++; /* else Black, not to move, would stand in check */
            }
        }
    }
    return n;
}
