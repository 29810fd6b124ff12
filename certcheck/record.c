/* record.c: the certificate's position encoding, read back and checked against the rules:
 * a record must be a legal position in canonical form (one way to write each position). */
#include "record.h"

#include <string.h>

static unsigned s_le(const uint8_t *b, int n)
{
    unsigned v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}

cc_rec_t cc_rec_read(const uint8_t *b)
{
    cc_rec_t r;
    r.board = 0;
    for (int i = 7; i >= 0; i--)
        r.board = r.board << 8 | b[i];
    r.state = (uint16_t)s_le(b + 8, 2);
    r.clock = b[10] | b[11] << 8; /* byte 11 must be zero: a nonzero one makes the clock invalid */
    unsigned m = s_le(b + 12, 2);
    r.has_move = m != CC_NO_MOVE;
    r.move = (cc_move_t){(uint8_t)(m & 15), (uint8_t)(m >> 4 & 15), (uint8_t)(m >> 8 & 0xFF)};
    if (r.has_move && m >> 11)
        r.move.promo = 0xFF; /* bits 11-15 must be zero: matches no legal move */
    r.rank = (int)s_le(b + 14, 2);
    return r;
}

int cc_rec_cmp(const cc_rec_t *a, const cc_rec_t *b)
{
    if (a->board != b->board)
        return a->board < b->board ? -1 : 1;
    if (a->state != b->state)
        return a->state < b->state ? -1 : 1;
    return (a->clock > b->clock) - (a->clock < b->clock);
}

void cc_rec_key(const cc_pos_t *p, uint64_t *board, uint16_t *state)
{
    uint64_t b = 0;
    for (int sq = 15; sq >= 0; sq--)
        b = b << 4 | p->sq[sq];
    unsigned s = (unsigned)p->side | (unsigned)(p->rights & 0xF) << 1 | (unsigned)(p->rights >> 4) << 5;
    if (p->ep >= 0)
        s |= (unsigned)(1 + p->ep % 4) << 9;
    *board = b;
    *state = (uint16_t)s;
}

/* Whether the man on home-rank square sq may hold a castling right (docs/certificate.md). */
static int s_right_ok(const cc_pos_t *p, int side, int sq)
{
    int home = side ? 12 : 0, own = side ? CC_BLACK : 0, ksq = -1;
    for (int f = 0; f < 4; f++)
        if (p->sq[home + f] == (CC_K | own))
            ksq = home + f;
    if (ksq < 0)
        return 0;
    int dist = sq > ksq ? sq - ksq : ksq - sq;
    return (dist == 1 && (p->sq[sq] == (CC_N | own) || p->sq[sq] == (CC_P | own))) ||
           (dist == 2 && p->sq[sq] == (CC_P | own));
}

static int s_fail(const char **why, const char *text)
{
    *why = text;
    return -1;
}

int cc_rec_position(const cc_rec_t *r, cc_pos_t *p, const char **why)
{
    memset(p, 0, sizeof *p);
    int kings[2] = {0, 0};
    for (int sq = 0; sq < 16; sq++) {
        int man = (int)(r->board >> (4 * sq) & 15);
        if (man == 7 || man == 8 || man == 15)
            return s_fail(why, "a square holds no man's code (7, 8 or 15)");
        if ((man & 7) == CC_P && sq / 4 == (man & CC_BLACK ? 0 : 3))
            return s_fail(why, "a pawn stands on the rank where it would have promoted");
        if ((man & 7) == CC_K)
            kings[man >> 3]++;
        p->sq[sq] = (uint8_t)man;
    }
    if (kings[0] != 1 || kings[1] != 1)
        return s_fail(why, "a side without exactly one king");
    if (r->state >> 12)
        return s_fail(why, "state bits 12-15 are not zero");
    p->side = r->state & 1;
    p->rights = (uint8_t)((r->state >> 1 & 0xF) | (r->state >> 5 & 0xF) << 4);
    int epf = r->state >> 9 & 7;
    if (epf > 4)
        return s_fail(why, "the e.p. field is not 0-4");
    p->ep = epf ? (p->side ? 4 : 8) + epf - 1 : -1;
    p->clock = r->clock;
    p->fullmove = 1;
    if (cc_in_check(p, !p->side))
        return s_fail(why, "the side not to move stands in check");
    for (int bit = 0; bit < 8; bit++)
        if (p->rights >> bit & 1 && !s_right_ok(p, bit >> 2, (bit >> 2 ? 12 : 0) + (bit & 3)))
            return s_fail(why, "a castling right held by no king's knight or pawn partner");
    cc_pos_t canon = *p;
    cc_canonical_ep(&canon);
    if (canon.ep != p->ep)
        return s_fail(why, "an e.p. square that no legal e.p. capture uses");
    return 0;
}
