/* unmove.c: retrograde moves for the generator, straight to slots: one
 * working copy of the position is changed and restored for each predecessor,
 * and the slice that holds the predecessors is checked once (pawns and
 * rights do not change in a retrograde move, only the mirror may). */
#include "unmove.h"

#include "comb.h"
#include "index.h"
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

/* Whether slice s holds positions with these pawns and castle bits. */
static bool s_fits(const layout_slice_t *s, unsigned wp, unsigned bp, unsigned castle)
{
    return wp == s->pawns[0] && bp == s->pawns[1] && castle == s->castle;
}

int unmove_slots(const unmove_unit_t *u, int j, const octad_pos_t *pf, unsigned fixed, uint32_t *out,
                 octad_pos_t *bad)
{
    static const int TYPES[5] = {OCTAD_KING, OCTAD_KNIGHT, OCTAD_BISHOP, OCTAD_ROOK, OCTAD_QUEEN};
    octad_pos_t q = *pf;
    q.side = OCTAD_WHITE;
    unsigned wp = q.type[OCTAD_PAWN] & q.color[0], bp = q.type[OCTAD_PAWN] & q.color[1];
    /* The slice (and its first slot) as they are, and mirrored (half slices only). */
    int js[2] = {j, j};
    bool fits[2] = {s_fits(u->sl[j], wp, bp, q.castle), false};
    bool half = u->sl[j]->half;
    if (half) {
        unsigned mwp = comb_mirror_files(wp), mbp = comb_mirror_files(bp);
        if (u->n == 2 && mwp != u->sl[j]->pawns[0])
            js[1] = 1 - j;
        fits[1] = s_fits(u->sl[js[1]], mwp, mbp, comb_mirror_files(q.castle));
    }
    uint32_t base[2] = {js[0] ? u->size0 : 0, js[1] ? u->size0 : 0};
    bb_t occ = (bb_t)(q.color[0] | q.color[1]);
    bb_t empty = (bb_t)~occ;
    int n = 0;
    for (int i = 0; i < 5; i++) {
        int t = TYPES[i];
        bb_t movers = (bb_t)(q.type[t] & q.color[OCTAD_WHITE] & ~fixed);
        while (movers) {
            int s = bb_pop_lsb(&movers);
            /* A slider's reverse move is symmetric: it came from a square it sees. */
            bb_t from = (bb_t)(s_attacks(t, s, occ) & empty);
            while (from) {
                int f = bb_pop_lsb(&from);
                bb_t d = (bb_t)(bb_sq(s) | bb_sq(f));
                q.color[OCTAD_WHITE] ^= d;
                q.type[t] ^= d;
                /* Else Black, not to move, would stand in check. */
                if (!legal_attackers_to(&q, q.ksq[OCTAD_BLACK], (bb_t)(occ ^ d), OCTAD_WHITE)) {
                    int wk = t == OCTAD_KING ? f : q.ksq[OCTAD_WHITE];
                    int m = half && (wk & 3) >= 2;
                    if (!fits[m]) {
                        *bad = q;
                        bad->ksq[OCTAD_WHITE] = (uint8_t)wk;
                        return -1;
                    }
                    out[n++] = base[m] + index_encode_sets(u->sl[js[m]], q.color, q.type, m);
                }
                q.color[OCTAD_WHITE] ^= d;
                q.type[t] ^= d;
            }
        }
    }
    return n;
}
