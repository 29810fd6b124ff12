/* cert_rec.c: positions and moves of the solver's rules (core/octad) written as certificate
 * records; the checker (certcheck/) reads them back with its own code. */
#include "cert_rec.h"

#include <stdio.h>
#include <stdlib.h>

void cert_canonical(octad_pos_t *p)
{
    if (p->ep == OCTAD_SQ_NONE)
        return;
    octad_move_t moves[256];
    int n = octad_gen_legal(p, moves);
    for (int i = 0; i < n; i++)
        if (octad_move_kind(moves[i]) == OCTAD_MK_EN_PASSANT)
            return;
    p->ep = OCTAD_SQ_NONE;
}

void cert_key(const octad_pos_t *p, uint64_t *board, uint16_t *state)
{
    uint64_t b = 0;
    for (int sq = 15; sq >= 0; sq--) {
        int code = 0;
        for (int t = 0; t < OCTAD_PIECE_TYPE_NB; t++)
            if (p->type[t] >> sq & 1)
                code = t + 1;
        if (code && (p->color[OCTAD_BLACK] >> sq & 1))
            code |= 8;
        b = b << 4 | (uint64_t)code;
    }
    unsigned s = p->side | (p->castle & 0xFu) << 1 | (p->castle >> 12 & 0xFu) << 5;
    if (p->ep != OCTAD_SQ_NONE)
        s |= (unsigned)(1 + p->ep % 4) << 9;
    *board = b;
    *state = (uint16_t)s;
}

uint16_t cert_move_code(octad_move_t m)
{
    unsigned promo = octad_move_is_promo(m) ? (unsigned)octad_move_promo_type(m) + 1 : 0;
    return (uint16_t)(octad_move_from(m) | octad_move_to(m) << 4 | promo << 8);
}

void cert_rec_bytes(const cert_rec_t *r, uint8_t *out)
{
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)(r->board >> (8 * i));
    out[8] = (uint8_t)r->state, out[9] = (uint8_t)(r->state >> 8);
    out[10] = r->clock, out[11] = 0;
    out[12] = (uint8_t)r->move, out[13] = (uint8_t)(r->move >> 8);
    out[14] = (uint8_t)r->rank, out[15] = (uint8_t)(r->rank >> 8);
}

static int s_cmp(const void *a, const void *b)
{
    const cert_rec_t *x = a, *y = b;
    if (x->board != y->board)
        return x->board < y->board ? -1 : 1;
    if (x->state != y->state)
        return x->state < y->state ? -1 : 1;
    return (x->clock > y->clock) - (x->clock < y->clock);
}

void cert_rec_sort(cert_rec_t *recs, size_t n)
{
    qsort(recs, n, sizeof *recs, s_cmp);
}

bool cert_terminal(const octad_pos_t *p)
{
    return (octad_status(p) & (OCTAD_CHECKMATE | OCTAD_STALEMATE)) || octad_insufficient_material(p);
}

int cert_men(const octad_pos_t *p)
{
    return __builtin_popcount((unsigned)(p->color[0] | p->color[1]));
}

octad_pos_t cert_child(const octad_pos_t *p, octad_move_t m, bool *zeroing)
{
    octad_pos_t from = *p, q;
    from.halfmove = 1;
    octad_make(&from, m, &q);
    *zeroing = q.halfmove == 0;
    q.halfmove = 0;
    q.fullmove = 1;
    cert_canonical(&q);
    return q;
}

int cert_fail(char *err, size_t len, const char *what, const octad_pos_t *p)
{
    char ofen[128] = "";
    if (p)
        octad_format(p, ofen, sizeof ofen);
    snprintf(err, len, "%s%s%s", what, p ? " at " : "", ofen);
    return -1;
}
