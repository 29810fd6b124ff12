/* oracle_cover.c: the tables a directory covers (oracle_cover.h). */
#include "oracle_cover.h"

#include "index.h"

/* Whether the side with id `id` minus one piece of type `lose` plus one of
 * type `gain` (-1: none) is an octad side; its id in *out. */
static bool s_side_change(int id, int lose, int gain, int *out)
{
    sig_side_t s = sig_side(id);
    if (lose >= 0) {
        if (s.count[lose] == 0)
            return false;
        s.count[lose]--;
    }
    if (gain >= 0)
        s.count[gain]++;
    *out = sig_side_id(&s);
    return *out >= 0;
}

/* Whether every table a capture or promotion by the side to move of table t
 * leads to is covered (those lie in earlier pairs, already decided). */
static bool s_exits_covered(int t, const bool covered[SIG_TABLE_NB])
{
    int mover = sig_table_stm(t), other = sig_table_opp(t);
    for (int victim = -1; victim <= OCTAD_QUEEN; victim++) {
        int other2 = other;
        if (victim >= 0 && !s_side_change(other, victim, -1, &other2))
            continue;
        for (int promo = -1; promo <= OCTAD_QUEEN; promo++) {
            if (promo == OCTAD_PAWN || (victim < 0 && promo < 0))
                continue; /* a quiet move stays in the pair */
            int mover2 = mover;
            if (promo >= 0 && !s_side_change(mover, OCTAD_PAWN, promo, &mover2))
                continue;
            if (!covered[sig_table(other2, mover2)])
                return false;
        }
    }
    return true;
}

void oracle_cover_compute(const bool present[SIG_TABLE_NB], bool covered[SIG_TABLE_NB])
{
    sig_init();
    for (int t = 0; t < SIG_TABLE_NB; t++)
        covered[t] = sig_table_dead(t);
    for (int i = 0; i < sig_pair_nb(); i++) {
        int a = sig_pair_table(i), b = sig_table_flip(a);
        bool ok = (present[a] || sig_table_dead(a)) && (present[b] || sig_table_dead(b));
        ok = ok && s_exits_covered(a, covered) && s_exits_covered(b, covered);
        covered[a] = covered[a] || ok;
        covered[b] = covered[b] || ok;
    }
}

int oracle_cover_table_of(const octad_pos_t *p)
{
    octad_pos_t w;
    if (p->side != OCTAD_WHITE) {
        index_flip(p, &w);
        p = &w;
    }
    return index_table_of(p);
}
