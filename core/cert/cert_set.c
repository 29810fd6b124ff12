/* cert_set.c: an open-addressing hash table over the positions of a certificate. */
#include "cert_set.h"

#include <stdlib.h>
#include <string.h>

#include "cert_rec.h"

void cert_set_init(cert_set_t *s)
{
    memset(s, 0, sizeof *s);
}

void cert_set_free(cert_set_t *s)
{
    free(s->pos), free(s->board), free(s->state), free(s->slot);
    cert_set_init(s);
}

static size_t s_hash(uint64_t board, uint16_t state, size_t mask)
{
    uint64_t h = (board ^ (uint64_t)state << 48) * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 20) & mask;
}

static size_t s_probe(const cert_set_t *s, uint64_t board, uint16_t state)
{
    size_t mask = s->nslots - 1, i = s_hash(board, state, mask);
    while (s->slot[i] && !(s->board[s->slot[i] - 1] == board && s->state[s->slot[i] - 1] == state))
        i = (i + 1) & mask;
    return i;
}

long cert_set_find(const cert_set_t *s, const octad_pos_t *p)
{
    if (!s->nslots)
        return -1;
    uint64_t board;
    uint16_t state;
    cert_key(p, &board, &state);
    size_t i = s_probe(s, board, state);
    return s->slot[i] ? (long)s->slot[i] - 1 : -1;
}

static int s_grow(cert_set_t *s)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024;
        octad_pos_t *pos = realloc(s->pos, cap * sizeof *pos);
        if (pos)
            s->pos = pos;
        uint64_t *board = realloc(s->board, cap * sizeof *board);
        if (board)
            s->board = board;
        uint16_t *state = realloc(s->state, cap * sizeof *state);
        if (state)
            s->state = state;
        if (!pos || !board || !state)
            return -1;
        s->cap = cap;
    }
    if (2 * (s->n + 1) > s->nslots) {
        size_t nslots = s->nslots ? s->nslots * 2 : 4096;
        uint32_t *slot = calloc(nslots, sizeof *slot);
        if (!slot)
            return -1;
        free(s->slot);
        s->slot = slot, s->nslots = nslots;
        for (size_t k = 0; k < s->n; k++)
            s->slot[s_probe(s, s->board[k], s->state[k])] = (uint32_t)k + 1;
    }
    return 0;
}

long cert_set_add(cert_set_t *s, const octad_pos_t *p, int *added)
{
    *added = 0;
    long at = cert_set_find(s, p);
    if (at >= 0)
        return at;
    if (s->n >= UINT32_MAX - 1 || s_grow(s) < 0)
        return -1;
    size_t k = s->n++;
    s->pos[k] = *p;
    cert_key(p, &s->board[k], &s->state[k]);
    s->slot[s_probe(s, s->board[k], s->state[k])] = (uint32_t)k + 1;
    *added = 1;
    return (long)k;
}
