/* index.c: encoding positions as slots and back, and the board symmetries. */
#include "index.h"

#include <pthread.h>
#include <string.h>

#include "comb.h"
#include "sig.h"

static int16_t s_side_of[3 * 4 * 3 * 3 * 3];

static void s_init(void)
{
    layout_init();
    memset(s_side_of, -1, sizeof s_side_of);
    for (int id = 0; id < SIG_SIDE_NB; id++) {
        sig_side_t m = sig_side(id);
        s_side_of[m.count[0] + 3 * (m.count[1] + 4 * (m.count[2] + 3 * (m.count[3] + 3 * m.count[4])))] = (int16_t)id;
    }
}

void index_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, s_init);
}

void index_flip(const octad_pos_t *p, octad_pos_t *out)
{
    octad_pos_t r = *p;
    r.color[0] = comb_flip_ranks(p->color[1]);
    r.color[1] = comb_flip_ranks(p->color[0]);
    for (int t = 0; t < OCTAD_PIECE_TYPE_NB; t++)
        r.type[t] = comb_flip_ranks(p->type[t]);
    r.castle = comb_flip_ranks(p->castle);
    r.side = (uint8_t)(p->side ^ 1);
    r.ep = p->ep == OCTAD_SQ_NONE ? OCTAD_SQ_NONE : (uint8_t)(p->ep ^ 12);
    r.ksq[0] = (uint8_t)(p->ksq[1] ^ 12);
    r.ksq[1] = (uint8_t)(p->ksq[0] ^ 12);
    *out = r;
}

void index_mirror(const octad_pos_t *p, octad_pos_t *out)
{
    octad_pos_t r = *p;
    for (int c = 0; c < 2; c++) {
        r.color[c] = comb_mirror_files(p->color[c]);
        r.ksq[c] = (uint8_t)(p->ksq[c] ^ 3);
    }
    for (int t = 0; t < OCTAD_PIECE_TYPE_NB; t++)
        r.type[t] = comb_mirror_files(p->type[t]);
    r.castle = comb_mirror_files(p->castle);
    r.ep = p->ep == OCTAD_SQ_NONE ? OCTAD_SQ_NONE : (uint8_t)(p->ep ^ 3);
    *out = r;
}

static int s_side_id(const octad_pos_t *p, int c)
{
    unsigned own = p->color[c];
    int k[5];
    for (int t = 0; t < 5; t++)
        k[t] = __builtin_popcount(own & p->type[t]);
    if (k[0] > 2 || k[1] > 3 || k[2] > 2 || k[3] > 2 || k[4] > 2)
        return -1;
    return s_side_of[k[0] + 3 * (k[1] + 4 * (k[2] + 3 * (k[3] + 3 * k[4])))];
}

int index_table_of(const octad_pos_t *p)
{
    int x = s_side_id(p, OCTAD_WHITE), y = s_side_id(p, OCTAD_BLACK);
    return x < 0 || y < 0 ? -1 : sig_table(x, y);
}

int index_rights(const octad_pos_t *p, int *ra, int *rb)
{
    unsigned wr = p->castle & 0xFu, br = (p->castle >> 12) & 0xFu;
    *ra = *rb = RIGHTS_NONE;
    if (wr)
        *ra = p->ksq[0] < 4 ? rights_id(p->ksq[0], wr, p->type[OCTAD_KNIGHT] & wr) : -1;
    if (br)
        *rb = p->ksq[1] >= 12 ? rights_id(p->ksq[1] - 12, br, (p->type[OCTAD_KNIGHT] >> 12) & br) : -1;
    return *ra < 0 || *rb < 0 ? -1 : 0;
}

int index_pcfg(const octad_pos_t *p)
{
    return layout_pcfg(p->type[OCTAD_PAWN] & p->color[0], p->type[OCTAD_PAWN] & p->color[1]);
}

uint32_t index_encode(const layout_slice_t *s, const octad_pos_t *p)
{
    return index_encode_sets(s, p->color, p->type, false);
}

void index_decode(const layout_slice_t *s, uint32_t idx, octad_pos_t *out)
{
    unsigned rank[LAYOUT_GROUPS_MAX];
    for (int g = s->ngroups - 1; g >= 0; g--) {
        rank[g] = idx % s->radix[g];
        idx /= s->radix[g];
    }
    memset(out, 0, sizeof *out);
    out->type[OCTAD_PAWN] = (uint16_t)(s->pawns[0] | s->pawns[1]);
    out->color[0] = (uint16_t)(s->pawns[0] | s->fixed[0]);
    out->color[1] = (uint16_t)(s->pawns[1] | s->fixed[1]);
    for (int c = 0; c < 2; c++)
        if (s->rights[c] != RIGHTS_NONE) {
            const rights_cfg_t *r = rights_cfg(s->rights[c]);
            int home = c ? 12 : 0;
            out->type[OCTAD_KING] |= (uint16_t)(1u << (r->king + home));
            out->type[OCTAD_KNIGHT] |= (uint16_t)(r->knights << home);
        }
    unsigned avail = s->free;
    for (int g = 0; g < s->ngroups; g++) {
        const layout_group_t *gr = &s->group[g];
        unsigned set = comb_unrank(rank[g], gr->count, g == 0 ? s->domain0 : avail);
        avail &= ~set;
        out->color[gr->color] |= (uint16_t)set;
        out->type[gr->type] |= (uint16_t)set;
    }
    out->ksq[0] = (uint8_t)__builtin_ctz(out->type[OCTAD_KING] & out->color[0]);
    out->ksq[1] = (uint8_t)__builtin_ctz(out->type[OCTAD_KING] & out->color[1]);
    out->castle = s->castle;
    out->side = OCTAD_WHITE;
    out->ep = OCTAD_SQ_NONE;
    out->fullmove = 1;
}

int index_locate(const layout_table_t *t, const octad_pos_t *p, uint32_t *idx)
{
    int ra, rb;
    if (index_rights(p, &ra, &rb) < 0)
        return LAYOUT_NONE;
    int sl = layout_find(t, ra, rb, index_pcfg(p));
    octad_pos_t m;
    if (sl == LAYOUT_MIRROR) {
        index_mirror(p, &m);
        p = &m;
        sl = layout_find(t, ra, rb, index_pcfg(p));
    }
    if (sl < 0)
        return LAYOUT_NONE;
    if (t->slices[sl].half && (p->ksq[0] & 3) >= 2) {
        index_mirror(p, &m);
        p = &m;
        sl = layout_find(t, ra, rb, index_pcfg(p));
        if (sl < 0)
            return LAYOUT_NONE;
    }
    *idx = index_encode(&t->slices[sl], p);
    return sl;
}
