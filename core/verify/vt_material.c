/* vt_material.c: side ids sorted by (pieces, pawns, then (P, N, B, R, Q)
 * lexicographically), as docs/solver.md defines them. */
#include "vt_material.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static vt_side_t s_sides[VT_SIDE_NB];
static int s_nsides;
/* Side id by counts (P 0-2, N 0-3, B, R, Q 0-2), -1 for no side. */
static int8_t s_ids[3][4][3][3][3];

static int s_total(const vt_side_t *s)
{
    return s->n[0] + s->n[1] + s->n[2] + s->n[3] + s->n[4];
}

static int s_cmp(const void *a, const void *b)
{
    const vt_side_t *x = a, *y = b;
    int d = s_total(x) - s_total(y);
    if (d)
        return d;
    for (int t = 0; t < 5; t++)
        if (x->n[t] != y->n[t])
            return x->n[t] - y->n[t];
    return 0;
}

/* Promoted pieces of a side: every bishop, rook and queen, knights beyond one. */
static int s_promoted(const vt_side_t *s)
{
    return s->n[2] + s->n[3] + s->n[4] + (s->n[1] > 1 ? s->n[1] - 1 : 0);
}

void vt_material_init(void)
{
    if (s_nsides)
        return;
    int k = 0;
    for (int p = 0; p <= 2; p++)
        for (int n = 0; n <= 3; n++)
            for (int b = 0; b <= 2; b++)
                for (int r = 0; r <= 2; r++)
                    for (int q = 0; q <= 2; q++) {
                        vt_side_t s = {{(uint8_t)p, (uint8_t)n, (uint8_t)b, (uint8_t)r, (uint8_t)q}};
                        if (s_promoted(&s) <= 2 - p && k < VT_SIDE_NB)
                            s_sides[k++] = s;
                    }
    qsort(s_sides, (size_t)k, sizeof s_sides[0], s_cmp);
    memset(s_ids, 0xFF, sizeof s_ids);
    for (int i = 0; i < k; i++) {
        const uint8_t *n = s_sides[i].n;
        s_ids[n[0]][n[1]][n[2]][n[3]][n[4]] = (int8_t)i;
    }
    s_nsides = k;
}

int vt_side_id(const vt_side_t *side)
{
    const uint8_t *n = side->n;
    if (n[0] > 2 || n[1] > 3 || n[2] > 2 || n[3] > 2 || n[4] > 2)
        return -1;
    return s_ids[n[0]][n[1]][n[2]][n[3]][n[4]];
}

vt_side_t vt_side_of(int id)
{
    return s_sides[id];
}

vt_side_t vt_side_count(const octad_pos_t *pos, int color)
{
    vt_side_t s;
    for (int t = 0; t < 5; t++)
        s.n[t] = (uint8_t)__builtin_popcount(pos->type[t] & pos->color[color]);
    return s;
}

static char *s_side_name(const vt_side_t *s, char *out)
{
    static const char letters[] = "QRBNP";
    static const int types[] = {OCTAD_QUEEN, OCTAD_ROOK, OCTAD_BISHOP, OCTAD_KNIGHT, OCTAD_PAWN};
    *out++ = 'K';
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < s->n[types[i]]; j++)
            *out++ = letters[i];
    return out;
}

void vt_table_name(int id, char *buf)
{
    vt_side_t x = s_sides[id / VT_SIDE_NB], y = s_sides[id % VT_SIDE_NB];
    char *p = s_side_name(&x, buf);
    *p++ = 'v';
    p = s_side_name(&y, p);
    *p = '\0';
}

int vt_table_parse(const char *name)
{
    char buf[VT_NAME_MAX];
    size_t len = strlen(name);
    if (len > 4 && strcmp(name + len - 4, ".otb") == 0)
        len -= 4;
    if (len == 0 || len >= sizeof buf)
        return -1;
    for (int id = 0; id < VT_TABLE_NB; id++) {
        vt_table_name(id, buf);
        if (strlen(buf) == len && memcmp(buf, name, len) == 0)
            return id;
    }
    return -1;
}

bool vt_table_fileless(int id)
{
    vt_side_t x = s_sides[id / VT_SIDE_NB], y = s_sides[id % VT_SIDE_NB];
    int heavy = x.n[OCTAD_PAWN] + x.n[OCTAD_ROOK] + x.n[OCTAD_QUEEN] + y.n[OCTAD_PAWN] + y.n[OCTAD_ROOK]
                + y.n[OCTAD_QUEEN];
    int minors = x.n[OCTAD_KNIGHT] + x.n[OCTAD_BISHOP] + y.n[OCTAD_KNIGHT] + y.n[OCTAD_BISHOP];
    return heavy == 0 && minors <= 1;
}

int vt_table_pieces(int id)
{
    vt_side_t x = s_sides[id / VT_SIDE_NB], y = s_sides[id % VT_SIDE_NB];
    return 2 + s_total(&x) + s_total(&y);
}
