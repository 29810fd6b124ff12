/* stats.c: counts by kind at the last ply, with the checker's own rules: a check is counted
 * from the men that attack the king one by one, a discovered check when none of them is a man
 * the move put on its square, a double check when two or more attack it. */
#include "stats.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "board.h"

enum { ST_NODES, ST_CAPTURES, ST_EP, ST_CASTLES, ST_NEAR, ST_CENTER, ST_FAR, ST_PROMOTIONS, ST_CHECKS,
       ST_DISC, ST_DOUBLE, ST_MATES, ST_STALEMATES, ST_NB };

/* The names `octad perft --stats` prints, by counter. */
static const char *const NAMES[ST_NB] = {"nodes", "captures", "ep", "castles", "near", "center", "far",
                                         "promotions", "checks", "disc-checks", "dbl-checks", "mates",
                                         "stalemates"};

static int s_side(int man) { return man & CC_BLACK ? 1 : 0; }

/* Whether the man on `from` attacks square `to` on board q: the other men of its side are
 * made the opponent's pawns (they still block, and attack nothing of their own king). */
static int s_attacks(const cc_pos_t *q, int from, int to)
{
    cc_pos_t alone = *q;
    int side = s_side(q->sq[from]);
    for (int s = 0; s < 16; s++)
        if (s != from && q->sq[s] && s_side(q->sq[s]) == side && s != to)
            alone.sq[s] = (uint8_t)(CC_P | (side ? 0 : CC_BLACK));
    alone.side = !side;
    return cc_in_check(&alone, !side);
}

/* Adds the move m of p (a leaf) into c. */
static void s_leaf(const cc_pos_t *p, cc_move_t m, uint64_t *c)
{
    int man = p->sq[m.from], target = p->sq[m.to];
    int castle = (man & 7) == CC_K && target && s_side(target) == p->side;
    c[ST_NODES]++;
    if (castle) {
        int df = abs(m.to % 4 - m.from % 4);
        c[ST_CASTLES]++;
        c[df == 2 ? ST_FAR : (target & 7) == CC_N ? ST_NEAR : ST_CENTER]++;
    } else if (target) {
        c[ST_CAPTURES]++;
    } else if ((man & 7) == CC_P && m.to == p->ep) {
        c[ST_CAPTURES]++;
        c[ST_EP]++;
    }
    if (m.promo)
        c[ST_PROMOTIONS]++;
    cc_pos_t q = cc_play(p, m);
    int ksq = -1, checkers = 0, moved_checks = 0;
    for (int s = 0; s < 16; s++)
        if (q.sq[s] == (CC_K | (q.side ? CC_BLACK : 0)))
            ksq = s;
    for (int s = 0; s < 16; s++)
        if (q.sq[s] && s_side(q.sq[s]) == p->side && s_attacks(&q, s, ksq)) {
            checkers++;
            moved_checks += q.sq[s] != p->sq[s];
        }
    cc_move_t replies[CC_MAX_MOVES];
    int none = cc_legal_moves(&q, replies) == 0;
    if (checkers) {
        c[ST_CHECKS]++;
        c[ST_DISC] += moved_checks == 0;
        c[ST_DOUBLE] += checkers > 1;
        c[ST_MATES] += none;
    } else {
        c[ST_STALEMATES] += none;
    }
}

static void s_walk(const cc_pos_t *p, int depth, uint64_t *c)
{
    cc_move_t moves[CC_MAX_MOVES];
    if (depth <= 0) {
        c[ST_NODES]++;
        return;
    }
    int n = cc_legal_moves(p, moves);
    for (int i = 0; i < n; i++) {
        if (depth == 1) {
            s_leaf(p, moves[i], c);
        } else {
            cc_pos_t q = cc_play(p, moves[i]);
            s_walk(&q, depth - 1, c);
        }
    }
}

int cc_stats_print(const char *ofen, int depth)
{
    cc_pos_t p;
    char err[160];
    uint64_t c[ST_NB] = {0};
    if (cc_parse_ofen(ofen, &p, err, sizeof err)) {
        fprintf(stderr, "certcheck stats: OFEN: %s\n", err);
        return 2;
    }
    s_walk(&p, depth, c);
    for (int i = 0; i < ST_NB; i++)
        printf("%s %llu\n", NAMES[i], (unsigned long long)c[i]);
    return 0;
}
