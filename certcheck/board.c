/* board.c: octad's moves for the certificate checker, from docs/rules.md: men as in chess on
 * 4x4, pawns with double steps from their home rank, e.p., four promotions, three castles. */
#include "board.h"

#include <stdlib.h>

static const int KING_STEPS[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
static const int KNIGHT_STEPS[8][2] = {{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}};

static int s_on(int f, int r) { return f >= 0 && f < 4 && r >= 0 && r < 4; }
static int s_color(int man) { return man & CC_BLACK ? 1 : 0; }
static int s_kind(int man) { return man & 7; }
static int s_home_rank(int side) { return side ? 3 : 0; }
static int s_forward(int side) { return side ? -1 : 1; }

/* Whether square sq is attacked by a man of side by. */
static int s_attacked(const cc_pos_t *p, int sq, int by)
{
    int f = sq % 4, r = sq / 4;
    for (int i = 0; i < 8; i++) {
        int kf = f + KING_STEPS[i][0], kr = r + KING_STEPS[i][1];
        if (s_on(kf, kr) && p->sq[kr * 4 + kf] == (CC_K | (by ? CC_BLACK : 0)))
            return 1;
        int nf = f + KNIGHT_STEPS[i][0], nr = r + KNIGHT_STEPS[i][1];
        if (s_on(nf, nr) && p->sq[nr * 4 + nf] == (CC_N | (by ? CC_BLACK : 0)))
            return 1;
    }
    for (int df = -1; df <= 1; df += 2) { /* a pawn of `by` one rank behind, diagonally */
        int pf = f + df, pr = r - s_forward(by);
        if (s_on(pf, pr) && p->sq[pr * 4 + pf] == (CC_P | (by ? CC_BLACK : 0)))
            return 1;
    }
    for (int i = 0; i < 8; i++) { /* sliders: the first man along each line */
        int df = KING_STEPS[i][0], dr = KING_STEPS[i][1], diag = df && dr;
        for (int tf = f + df, tr = r + dr; s_on(tf, tr); tf += df, tr += dr) {
            int man = p->sq[tr * 4 + tf];
            if (!man)
                continue;
            int k = s_kind(man);
            if (s_color(man) == by && (k == CC_Q || k == (diag ? CC_B : CC_R)))
                return 1;
            break;
        }
    }
    return 0;
}

int cc_in_check(const cc_pos_t *p, int side)
{
    for (int sq = 0; sq < 16; sq++)
        if (p->sq[sq] == (CC_K | (side ? CC_BLACK : 0)))
            return s_attacked(p, sq, !side);
    return 0;
}

static void s_add(cc_move_t *list, int *n, int from, int to, int promo)
{
    list[(*n)++] = (cc_move_t){(uint8_t)from, (uint8_t)to, (uint8_t)promo};
}

static void s_pawn_moves(const cc_pos_t *p, int sq, cc_move_t *list, int *n)
{
    int side = p->side, f = sq % 4, r = sq / 4, fw = s_forward(side);
    int last = side ? 0 : 3, tr = r + fw;
    if (!s_on(f, tr))
        return;
    int targets[3], nt = 0;
    if (!p->sq[tr * 4 + f]) {
        targets[nt++] = tr * 4 + f;
        int r2 = tr + fw;
        if (r == s_home_rank(side) && s_on(f, r2) && !p->sq[r2 * 4 + f])
            s_add(list, n, sq, r2 * 4 + f, 0);
    }
    for (int df = -1; df <= 1; df += 2) {
        int tf = f + df;
        if (!s_on(tf, tr))
            continue;
        int to = tr * 4 + tf, man = p->sq[to];
        if ((man && s_color(man) != side) || to == p->ep)
            targets[nt++] = to;
    }
    for (int i = 0; i < nt; i++) {
        if (targets[i] / 4 == last)
            for (int k = CC_N; k <= CC_Q; k++)
                s_add(list, n, sq, targets[i], k);
        else
            s_add(list, n, sq, targets[i], 0);
    }
}

static void s_piece_moves(const cc_pos_t *p, int sq, cc_move_t *list, int *n)
{
    int k = s_kind(p->sq[sq]), f = sq % 4, r = sq / 4;
    const int (*steps)[2] = k == CC_N ? KNIGHT_STEPS : KING_STEPS;
    for (int i = 0; i < 8; i++) {
        int df = steps[i][0], dr = steps[i][1];
        if ((k == CC_B && !(df && dr)) || (k == CC_R && df && dr))
            continue;
        int slides = k == CC_B || k == CC_R || k == CC_Q;
        for (int tf = f + df, tr = r + dr; s_on(tf, tr); tf += df, tr += dr) {
            int man = p->sq[tr * 4 + tf];
            if (man && s_color(man) == p->side)
                break;
            s_add(list, n, sq, tr * 4 + tf, 0);
            if (man || !slides)
                break;
        }
    }
}

/* The castles of docs/rules.md: with a right-holding knight or pawn beside the king, or a
 * right-holding pawn two files away with the square between empty; never out of check. */
static void s_castles(const cc_pos_t *p, int ksq, cc_move_t *list, int *n)
{
    int side = p->side, home = s_home_rank(side);
    if (ksq / 4 != home || cc_in_check(p, side))
        return;
    for (int df = -2; df <= 2; df++) {
        int pf = ksq % 4 + df;
        if (!df || !s_on(pf, home) || !(p->rights >> (side * 4 + pf) & 1))
            continue;
        int psq = home * 4 + pf, man = p->sq[psq];
        if (!man || s_color(man) != side)
            continue;
        int near = abs(df) == 1;
        if ((near && (s_kind(man) == CC_N || s_kind(man) == CC_P)) ||
            (!near && s_kind(man) == CC_P && !p->sq[ksq + df / 2]))
            s_add(list, n, ksq, psq, 0);
    }
}

static int s_is_castle(const cc_pos_t *p, cc_move_t m)
{
    int a = p->sq[m.from], b = p->sq[m.to];
    return s_kind(a) == CC_K && b && s_color(b) == s_color(a);
}

cc_pos_t cc_play(const cc_pos_t *p, cc_move_t m)
{
    cc_pos_t q = *p;
    int man = p->sq[m.from], side = p->side, reset = 0;
    q.ep = -1;
    if (s_is_castle(p, m)) {
        int partner = p->sq[m.to], df = m.to % 4 - m.from % 4;
        q.sq[m.from] = q.sq[m.to] = CC_EMPTY;
        if (abs(df) == 1) { /* near and center: the two exchange squares */
            q.sq[m.to] = (uint8_t)man;
            q.sq[m.from] = (uint8_t)partner;
        } else {            /* far: the king one square toward the pawn, the pawn where it was */
            q.sq[m.from + df / 2] = (uint8_t)man;
            q.sq[m.from] = (uint8_t)partner;
        }
    } else {
        int captured = p->sq[m.to];
        if (s_kind(man) == CC_P) {
            reset = 1;
            if (m.to == p->ep && !captured)       /* e.p.: the double-stepper stands behind */
                q.sq[m.to - 4 * s_forward(side)] = CC_EMPTY;
            if (abs(m.to / 4 - m.from / 4) == 2)  /* a double step marks the jumped square */
                q.ep = (m.from + m.to) / 2;
        }
        if (captured)
            reset = 1;
        q.sq[m.to] = m.promo ? (uint8_t)(m.promo | (side ? CC_BLACK : 0)) : (uint8_t)man;
        q.sq[m.from] = CC_EMPTY;
    }
    if (s_kind(man) == CC_K)
        q.rights &= (uint8_t)~(0xF << (side * 4));
    for (int s = 0; s < 16; s++) { /* a right leaves with its man: moved away or captured */
        int bit = s < 4 ? s : s >= 12 ? s - 8 : -1;
        if (bit >= 0 && (s == m.from || s == m.to) && !s_is_castle(p, m))
            q.rights &= (uint8_t)~(1u << bit);
    }
    if (q.rights != p->rights)
        reset = 1;
    q.clock = reset ? 0 : p->clock + 1;
    q.side = !side;
    if (side)
        q.fullmove++;
    return q;
}

int cc_legal_moves(const cc_pos_t *p, cc_move_t *moves)
{
    cc_move_t pseudo[CC_MAX_MOVES * 2];
    int np = 0, n = 0;
    for (int sq = 0; sq < 16; sq++) {
        int man = p->sq[sq];
        if (!man || s_color(man) != p->side)
            continue;
        if (s_kind(man) == CC_P)
            s_pawn_moves(p, sq, pseudo, &np);
        else
            s_piece_moves(p, sq, pseudo, &np);
        if (s_kind(man) == CC_K)
            s_castles(p, sq, pseudo, &np);
    }
    for (int i = 0; i < np; i++) {
        cc_pos_t q = cc_play(p, pseudo[i]);
        if (!cc_in_check(&q, p->side) && n < CC_MAX_MOVES)
            moves[n++] = pseudo[i];
    }
    return n;
}

static int s_dead(const cc_pos_t *p)
{
    int knights = 0, bishops[2] = {0, 0};
    for (int sq = 0; sq < 16; sq++) {
        int k = s_kind(p->sq[sq]);
        if (k == CC_P || k == CC_R || k == CC_Q)
            return 0;
        if (k == CC_N)
            knights++;
        if (k == CC_B)
            bishops[(sq % 4 + sq / 4) % 2]++; /* a1 (0 + 0) is dark: colour 0 */
    }
    int minors = knights + bishops[0] + bishops[1];
    return minors <= 1 || (!knights && (!bishops[0] || !bishops[1]));
}

int cc_status(const cc_pos_t *p)
{
    cc_move_t moves[CC_MAX_MOVES];
    if (cc_legal_moves(p, moves) == 0)
        return cc_in_check(p, p->side) ? CC_MATE : CC_STALEMATE;
    return s_dead(p) ? CC_DEAD : CC_ONGOING;
}

void cc_canonical_ep(cc_pos_t *p)
{
    if (p->ep < 0)
        return;
    cc_move_t moves[CC_MAX_MOVES];
    int n = cc_legal_moves(p, moves);
    int stepper = p->ep - 4 * s_forward(p->side); /* the pawn that double-stepped */
    int want = CC_P | (p->side ? 0 : CC_BLACK);
    for (int i = 0; i < n; i++)
        if (moves[i].to == p->ep && s_kind(p->sq[moves[i].from]) == CC_P && !p->sq[p->ep] &&
            p->sq[stepper] == want)
            return;
    p->ep = -1;
}

void cc_move_text(cc_move_t m, char *buf)
{
    static const char PROMO[] = "  nbrq";
    buf[0] = (char)('a' + m.from % 4);
    buf[1] = (char)('1' + m.from / 4);
    buf[2] = (char)('a' + m.to % 4);
    buf[3] = (char)('1' + m.to / 4);
    buf[4] = m.promo ? PROMO[m.promo] : '\0';
    buf[5] = '\0';
}

int cc_men(const cc_pos_t *p)
{
    int n = 0;
    for (int sq = 0; sq < 16; sq++)
        n += p->sq[sq] != 0;
    return n;
}
