/* vt_forward.c: explicit game graph, fixpoint sweeps (dtm; zeroing-metric
 * dtz) and memoised minimax over (position, clock). */
#include "vt_forward.h"

#include <stdlib.h>
#include <string.h>

#include "vt_file.h"

enum { VT_CLOCK_LIMIT = 50, F_UNKNOWN = -1 };

/* The largest graph built (~200 bytes a position): refuse rather than swap. */
#define VT_FWD_MAX_NODES (1u << 25)

/* Node kinds. */
enum { F_OPEN, F_MATED, F_DEAD }; /* F_DEAD: stalemate or insufficient material */
/* G-inf results. */
enum { F_NONE, F_WON, F_LOST };

struct vt_fwd {
    octad_pos_t *pos;
    uint32_t n, cap;
    uint64_t *hkey; /* hash of positions: key, and node index + 1 (0 empty) */
    uint32_t *hval;
    uint32_t hcap;
    uint32_t *first; /* edges of node i: first[i] .. first[i + 1] - 1 */
    uint32_t *edge;  /* child index, top bit set for a zeroing move */
    uint32_t nedges, ecap;
    uint8_t *kind, *res;
    int16_t *dtm, *zinf;
    uint8_t *memo; /* G-50 per (node, clock): 0 unknown, else VT_LOSS/DRAW/WIN + 1 */
};

vt_fwd_t *vt_fwd_new(void)
{
    return calloc(1, sizeof(vt_fwd_t));
}

void vt_fwd_destroy(vt_fwd_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    vt_fwd_t *s = *self_p;
    free(s->pos), free(s->hkey), free(s->hval), free(s->first), free(s->edge);
    free(s->kind), free(s->res), free(s->dtm), free(s->zinf), free(s->memo);
    free(s);
    *self_p = NULL;
}

/* 4 bits a square, then rights, side and e.p. (clocks are not part of it). */
static void s_key(const octad_pos_t *p, uint64_t *k0, uint64_t *k1)
{
    uint64_t k = 0;
    for (int sq = 0; sq < 16; sq++) {
        uint16_t b = (uint16_t)(1u << sq);
        int code = 0;
        for (int t = 0; t < OCTAD_PIECE_TYPE_NB; t++)
            if (p->type[t] & b)
                code = 1 + t + ((p->color[OCTAD_BLACK] & b) ? 6 : 0);
        k |= (uint64_t)code << (4 * sq);
    }
    *k0 = k;
    *k1 = (uint64_t)p->castle | (uint64_t)p->side << 16 | (uint64_t)p->ep << 17;
}

static uint32_t s_slot(const vt_fwd_t *s, uint64_t k0, uint64_t k1)
{
    uint64_t h = (k0 * 0x9E3779B97F4A7C15ull) ^ (k1 * 0xC2B2AE3D27D4EB4Full);
    return (uint32_t)(h >> 32) & (s->hcap - 1);
}

int64_t vt_fwd_find(const vt_fwd_t *s, const octad_pos_t *p)
{
    if (!s->hcap)
        return -1;
    uint64_t k0, k1;
    s_key(p, &k0, &k1);
    for (uint32_t h = s_slot(s, k0, k1); s->hval[h]; h = (h + 1) & (s->hcap - 1))
        if (s->hkey[2 * h] == k0 && s->hkey[2 * h + 1] == k1)
            return s->hval[h] - 1;
    return -1;
}

static int s_grow_hash(vt_fwd_t *s)
{
    uint32_t cap = s->hcap ? 2 * s->hcap : 1u << 16;
    uint64_t *keys = calloc((size_t)cap * 2, sizeof *keys);
    uint32_t *vals = calloc(cap, sizeof *vals);
    if (!keys || !vals) {
        free(keys), free(vals);
        return -1;
    }
    free(s->hkey), free(s->hval);
    s->hkey = keys, s->hval = vals, s->hcap = cap;
    for (uint32_t i = 0; i < s->n; i++) {
        uint64_t k0, k1;
        s_key(&s->pos[i], &k0, &k1);
        uint32_t h = s_slot(s, k0, k1);
        while (s->hval[h])
            h = (h + 1) & (cap - 1);
        s->hkey[2 * h] = k0, s->hkey[2 * h + 1] = k1, s->hval[h] = i + 1;
    }
    return 0;
}

/* Index of p, inserting it (clocks cleared; an e.p. square that no capture
 * can use dropped, as it changes nothing). -1 out of memory. */
static int64_t s_intern(vt_fwd_t *s, const octad_pos_t *in)
{
    octad_pos_t p = *in;
    p.halfmove = 0, p.fullmove = 1;
    if (p.ep != OCTAD_SQ_NONE) {
        octad_move_t moves[256];
        int n = octad_gen_legal(&p, moves), ep = 0;
        for (int i = 0; i < n; i++)
            ep |= octad_move_kind(moves[i]) == OCTAD_MK_EN_PASSANT;
        if (!ep)
            p.ep = OCTAD_SQ_NONE;
    }
    int64_t found = vt_fwd_find(s, &p);
    if (found >= 0)
        return found;
    if ((2 * (s->n + 1) > s->hcap && s_grow_hash(s) < 0))
        return -1;
    if (s->n >= VT_FWD_MAX_NODES)
        return -1;
    if (s->n == s->cap) {
        uint32_t cap = s->cap ? 2 * s->cap : 4096;
        octad_pos_t *np = realloc(s->pos, cap * sizeof *np);
        if (!np)
            return -1;
        s->pos = np, s->cap = cap;
    }
    s->pos[s->n] = p;
    uint64_t k0, k1;
    s_key(&p, &k0, &k1);
    uint32_t h = s_slot(s, k0, k1);
    while (s->hval[h])
        h = (h + 1) & (s->hcap - 1);
    s->hkey[2 * h] = k0, s->hkey[2 * h + 1] = k1, s->hval[h] = ++s->n;
    return s->n - 1;
}

int vt_fwd_add(vt_fwd_t *self, const octad_pos_t *p)
{
    return s_intern(self, p) < 0 ? -1 : 0;
}

uint32_t vt_fwd_size(const vt_fwd_t *self)
{
    return self->n;
}

const octad_pos_t *vt_fwd_position(const vt_fwd_t *self, uint32_t i)
{
    return &self->pos[i];
}

static int s_push_edge(vt_fwd_t *s, uint32_t e)
{
    if (s->nedges == s->ecap) {
        uint32_t cap = s->ecap ? 2 * s->ecap : 1u << 16;
        uint32_t *ne = realloc(s->edge, cap * sizeof *ne);
        if (!ne)
            return -1;
        s->edge = ne, s->ecap = cap;
    }
    s->edge[s->nedges++] = e;
    return 0;
}

/* Expands every node breadth first; the kinds and edges. */
static int s_expand(vt_fwd_t *s)
{
    uint8_t *kinds = NULL;
    uint32_t *first = NULL;
    size_t kcap = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        if (i + 2 > kcap) {
            kcap = kcap ? 2 * kcap : 4096;
            uint8_t *nk = realloc(kinds, kcap);
            uint32_t *nf = realloc(first, kcap * sizeof *nf);
            kinds = nk ? nk : kinds, first = nf ? nf : first;
            if (!nk || !nf)
                goto oom;
        }
        first[i] = s->nedges;
        octad_pos_t p = s->pos[i];
        octad_move_t moves[256];
        int n = octad_insufficient_material(&p) ? 0 : octad_gen_legal(&p, moves);
        kinds[i] = n ? F_OPEN : (!octad_insufficient_material(&p) && (octad_status(&p) & OCTAD_CHECKMATE)) ? F_MATED : F_DEAD;
        uint16_t enemy = p.color[p.side ^ 1];
        for (int m = 0; m < n; m++) {
            octad_pos_t c;
            octad_make(&p, moves[m], &c);
            bool zeroing = octad_move_piece(moves[m]) == OCTAD_PAWN || (enemy & (1u << octad_move_to(moves[m])))
                           || c.castle != p.castle;
            int64_t ci = s_intern(s, &c);
            if (ci < 0 || s_push_edge(s, (uint32_t)ci | (zeroing ? 0x80000000u : 0)) < 0)
                goto oom;
        }
    }
    first[s->n] = s->nedges;
    s->kind = kinds, s->first = first;
    return 0;
oom:
    free(kinds), free(first);
    return -1;
}

/* dtm by sweeps: at odd level k a position wins if a child is lost at k - 1,
 * at even k it loses if every child is won (necessarily below k). */
static void s_sweep_dtm(vt_fwd_t *s)
{
    for (uint32_t i = 0; i < s->n; i++) {
        s->res[i] = s->kind[i] == F_MATED ? F_LOST : F_NONE;
        s->dtm[i] = s->kind[i] == F_MATED ? 0 : F_UNKNOWN;
    }
    for (int k = 1;; k++) {
        uint32_t changed = 0;
        for (uint32_t i = 0; i < s->n; i++) {
            if (s->res[i] != F_NONE || s->kind[i] != F_OPEN)
                continue;
            bool hit = (k & 1) == 0;
            for (uint32_t e = s->first[i]; e < s->first[i + 1]; e++) {
                uint32_t c = s->edge[e] & 0x7FFFFFFFu;
                if (k & 1) {
                    if (s->res[c] == F_LOST && s->dtm[c] == k - 1) {
                        hit = true;
                        break;
                    }
                } else if (s->res[c] != F_WON) {
                    hit = false;
                    break;
                }
            }
            if (hit)
                s->res[i] = (k & 1) ? F_WON : F_LOST, s->dtm[i] = (int16_t)k, changed++;
        }
        if (!changed)
            break;
    }
}

/* The zeroing-metric dtz without the rule, by sweeps: a winner at level k
 * has a zeroing move into a lost position (k = 1) or a move to a loser at
 * k - 1; a loser is at the largest of 1 (zeroing moves) and its non-zeroing
 * children's levels + 1, once all those are known. */
static void s_sweep_zinf(vt_fwd_t *s)
{
    for (uint32_t i = 0; i < s->n; i++)
        s->zinf[i] = s->kind[i] == F_MATED ? 0 : F_UNKNOWN;
    for (int k = 1;; k++) {
        uint32_t changed = 0;
        for (uint32_t i = 0; i < s->n; i++) {
            if (s->zinf[i] != F_UNKNOWN || s->res[i] == F_NONE)
                continue;
            bool won = s->res[i] == F_WON, hit = !won;
            int worst = 1;
            for (uint32_t e = s->first[i]; e < s->first[i + 1]; e++) {
                uint32_t c = s->edge[e] & 0x7FFFFFFFu;
                bool zeroing = s->edge[e] >> 31;
                int zc = s->zinf[c];
                if (won) {
                    if (s->res[c] == F_LOST && (zeroing ? k == 1 : zc == k - 1)) {
                        hit = true;
                        break;
                    }
                } else if (!zeroing) {
                    if (zc == F_UNKNOWN || zc > k - 1) {
                        hit = false;
                        break;
                    }
                    worst = zc + 1 > worst ? zc + 1 : worst;
                }
            }
            if (hit && (won || worst == k))
                s->zinf[i] = (int16_t)k, changed++;
        }
        if (!changed && k > 1)
            break;
    }
}

int vt_fwd_solve(vt_fwd_t *s)
{
    if (s_expand(s) < 0)
        return -1;
    s->res = malloc(s->n ? s->n : 1);
    s->dtm = malloc((s->n ? s->n : 1) * sizeof *s->dtm);
    s->zinf = malloc((s->n ? s->n : 1) * sizeof *s->zinf);
    s->memo = calloc((size_t)(s->n ? s->n : 1), VT_CLOCK_LIMIT);
    if (!s->res || !s->dtm || !s->zinf || !s->memo)
        return -1;
    s_sweep_dtm(s);
    s_sweep_zinf(s);
    return 0;
}

int vt_fwd_at_clock(vt_fwd_t *s, uint32_t i, int h)
{
    uint8_t *m = &s->memo[(size_t)i * VT_CLOCK_LIMIT + (size_t)h];
    if (*m)
        return *m - 1;
    int v;
    if (s->kind[i] != F_OPEN) {
        v = s->kind[i] == F_MATED ? VT_LOSS : VT_DRAW;
    } else {
        bool all_win = true, any_loss = false;
        for (uint32_t e = s->first[i]; e < s->first[i + 1] && !any_loss; e++) {
            uint32_t c = s->edge[e] & 0x7FFFFFFFu;
            int hc = (s->edge[e] >> 31) ? 0 : h + 1;
            int cv = s->kind[c] == F_MATED ? VT_LOSS : hc >= VT_CLOCK_LIMIT ? VT_DRAW : vt_fwd_at_clock(s, c, hc);
            any_loss = cv == VT_LOSS;
            all_win = all_win && cv == VT_WIN;
        }
        v = any_loss ? VT_WIN : all_win ? VT_LOSS : VT_DRAW;
    }
    *m = (uint8_t)(v + 1);
    return v;
}

int vt_fwd_dtz_inf(const vt_fwd_t *s, uint32_t i)
{
    return s->res[i] == F_NONE ? -1 : s->zinf[i];
}

vt_fwd_value_t vt_fwd_value(vt_fwd_t *s, uint32_t i)
{
    vt_fwd_value_t out = {VT_DRAW, 0, 0};
    int v0 = vt_fwd_at_clock(s, i, 0);
    if (s->kind[i] == F_MATED)
        return (vt_fwd_value_t){VT_LOSS, 0, 0};
    if (v0 == VT_WIN || v0 == VT_LOSS) {
        int h = 0;
        while (h + 1 < VT_CLOCK_LIMIT && vt_fwd_at_clock(s, i, h + 1) == v0)
            h++;
        out = (vt_fwd_value_t){v0, s->dtm[i], VT_CLOCK_LIMIT - h};
    } else if (s->res[i] == F_WON) {
        out = (vt_fwd_value_t){VT_CURSED, s->dtm[i], s->zinf[i]};
    } else if (s->res[i] == F_LOST) {
        out = (vt_fwd_value_t){VT_BLESSED, s->dtm[i], s->zinf[i]};
    }
    return out;
}
