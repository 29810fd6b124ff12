/* vt_value.c: values from records and by look-ahead, under the rules of
 * docs/solver.md "Values": G-inf (no clock) decides win/draw/loss and dtm;
 * G-50 with a fresh clock decides win/loss and their dtz, a child reached by a
 * non-zeroing move standing at clock 1 (won or lost there iff 1 + dtz <= 50). */
#include "vt_value.h"

#include <stdio.h>

enum { VT_LOOKAHEAD_DEPTH = 8, VT_BIG = 1 << 20 };

bool vt_attacked(const octad_pos_t *p, int sq, int by)
{
    uint16_t mine = p->color[by], occ = (uint16_t)(p->color[0] | p->color[1]);
    int f = sq & 3, r = sq >> 2;
    int pr = by == OCTAD_WHITE ? r - 1 : r + 1; /* the rank a pawn of `by` attacks from */
    for (int df = -1; df <= 1; df += 2)
        if (pr >= 0 && pr < 4 && f + df >= 0 && f + df < 4 && (p->type[OCTAD_PAWN] & mine & (1u << (pr * 4 + f + df))))
            return true;
    static const int jumps[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    for (int i = 0; i < 8; i++) {
        int nf = f + jumps[i][0], nr = r + jumps[i][1];
        if (nf >= 0 && nf < 4 && nr >= 0 && nr < 4 && (p->type[OCTAD_KNIGHT] & mine & (1u << (nr * 4 + nf))))
            return true;
    }
    for (int df = -1; df <= 1; df++)
        for (int dr = -1; dr <= 1; dr++) {
            if (!df && !dr)
                continue;
            uint16_t slider = (uint16_t)(p->type[OCTAD_QUEEN] | (df && dr ? p->type[OCTAD_BISHOP] : p->type[OCTAD_ROOK]));
            for (int nf = f + df, nr = r + dr, steps = 1; nf >= 0 && nf < 4 && nr >= 0 && nr < 4;
                 nf += df, nr += dr, steps++) {
                uint16_t b = (uint16_t)(1u << (nr * 4 + nf));
                if (!(occ & b))
                    continue;
                if ((mine & b) && ((slider & b) || (steps == 1 && (p->type[OCTAD_KING] & b))))
                    return true;
                break;
            }
        }
    return false;
}

bool vt_placement_legal(const octad_pos_t *p)
{
    int them = p->side ^ 1;
    return !vt_attacked(p, p->ksq[them], p->side);
}

vt_value_t vt_value_record(uint32_t rec)
{
    vt_value_t v = {vt_rec_code(rec), vt_rec_dtz(rec), vt_rec_dtm(rec), 0, 0};
    if (v.code == VT_CURSED || v.code == VT_BLESSED)
        v.zlo = v.zhi = v.dtz;
    else if (v.code == VT_WIN || v.code == VT_LOSS)
        v.zlo = v.dtz ? 1 : 0, v.zhi = v.dtz;
    return v;
}

/* Rights of colour c as (king file, partner files, knight partner files). */
static void s_rights(const octad_pos_t *q, int c, int8_t *kfile, uint8_t *partners, uint8_t *knights)
{
    int home = c ? 12 : 0;
    *partners = (uint8_t)((q->castle >> home) & 0xF);
    *knights = (uint8_t)((q->type[OCTAD_KNIGHT] & q->color[c]) >> home & *partners);
    *kfile = *partners ? (int8_t)(q->ksq[c] & 3) : -1;
}

static uint64_t s_key(const octad_pos_t *q)
{
    int8_t kfile[2];
    uint8_t partners[2], knights[2];
    for (int c = 0; c < 2; c++)
        s_rights(q, c, &kfile[c], &partners[c], &knights[c]);
    uint16_t pawns[2] = {(uint16_t)(q->type[OCTAD_PAWN] & q->color[0]), (uint16_t)(q->type[OCTAD_PAWN] & q->color[1])};
    return vt_slice_key(kfile, partners, knights, pawns);
}

/* The slice of t holding q (White to move), mirroring q where the spec says. */
static int s_find_slice(const vt_table_t *t, octad_pos_t *q)
{
    int i = vt_table_find(t, s_key(q));
    if (q->castle)
        return i;
    if (i >= 0 && t->slices[i].half && (q->ksq[OCTAD_WHITE] & 3) >= 2) {
        vt_mirror(q, q);
        return vt_table_find(t, s_key(q));
    }
    if (i < 0) {
        vt_mirror(q, q);
        i = vt_table_find(t, s_key(q));
    }
    return i;
}

int vt_locate(vt_store_t *st, const octad_pos_t *p, const vt_table_t **table, uint64_t *slot, char *err,
              size_t errlen)
{
    octad_pos_t q = *p;
    if (q.side == OCTAD_BLACK)
        vt_flip(p, &q);
    vt_side_t x = vt_side_count(&q, OCTAD_WHITE), y = vt_side_count(&q, OCTAD_BLACK);
    int ix = vt_side_id(&x), iy = vt_side_id(&y);
    *table = NULL;
    if (ix < 0 || iy < 0) {
        snprintf(err, errlen, "material outside every table");
        return VT_BAD;
    }
    int id = ix * VT_SIDE_NB + iy;
    if (vt_table_fileless(id))
        return VT_OK;
    const vt_table_t *t = vt_store_get(st, id, err, errlen);
    if (!t)
        return VT_MISSING;
    if (((q.castle & 0x000F) && q.ksq[OCTAD_WHITE] > 3) || ((q.castle & 0xF000) && q.ksq[OCTAD_BLACK] < 12)) {
        snprintf(err, errlen, "castling rights with the king off its home rank");
        return VT_BAD;
    }
    int i = s_find_slice(t, &q);
    int64_t idx = i < 0 ? VT_NO_SLOT : vt_slice_encode(&t->slices[i], &q);
    if (idx == VT_NO_SLOT) {
        char ofen[128];
        octad_format(p, ofen, sizeof ofen);
        snprintf(err, errlen, "no slot of %s holds %s", t->name, ofen);
        return VT_BAD;
    }
    *table = t;
    *slot = t->slices[i].offset + (uint64_t)idx;
    return VT_OK;
}

static bool s_has_ep_capture(const octad_pos_t *p)
{
    octad_move_t moves[256];
    int n = octad_gen_legal(p, moves);
    for (int i = 0; i < n; i++)
        if (octad_move_kind(moves[i]) == OCTAD_MK_EN_PASSANT)
            return true;
    return false;
}

static int s_value(vt_store_t *st, const octad_pos_t *p, vt_value_t *out, int depth, char *err, size_t errlen);

static int s_lookahead(vt_store_t *st, const octad_pos_t *p, vt_value_t *out, int depth, char *err, size_t errlen);

static int s_value(vt_store_t *st, const octad_pos_t *p, vt_value_t *out, int depth, char *err, size_t errlen)
{
    *out = (vt_value_t){VT_DRAW, 0, 0, 0, 0};
    if (octad_insufficient_material(p))
        return VT_OK;
    if (p->ep != OCTAD_SQ_NONE && s_has_ep_capture(p))
        return s_lookahead(st, p, out, depth + 1, err, errlen);
    const vt_table_t *t;
    uint64_t slot;
    int rc = vt_locate(st, p, &t, &slot, err, errlen);
    if (rc != VT_OK || !t)
        return rc;
    uint32_t rec = vt_table_record(t, slot);
    *out = vt_value_record(rec);
    if (out->code > VT_WIN) {
        char ofen[128];
        octad_format(p, ofen, sizeof ofen);
        snprintf(err, errlen, "child %s: its slot %llu of %s holds %s", ofen, (unsigned long long)slot, t->name,
                 vt_code_name(out->code));
        return VT_BAD;
    }
    return VT_OK;
}

int vt_value_of(vt_store_t *st, const octad_pos_t *p, vt_value_t *out, char *err, size_t errlen)
{
    return s_value(st, p, out, 0, err, errlen);
}

/* Running minima and maxima over the children (see s_lookahead). */
typedef struct {
    bool inf_win, all_won, win50, all_win50;
    int win_dtm, loss_dtm, win_z50, loss_z50;
    int win_zlo, win_zhi, loss_zlo, loss_zhi;
} s_acc_t;

static inline int s_min(int a, int b) { return a < b ? a : b; }
static inline int s_max(int a, int b) { return a > b ? a : b; }

/* Folds in one child with value v (for the child's side to move). */
static void s_fold(s_acc_t *a, const vt_value_t *v, bool zeroing)
{
    bool lost = v->code == VT_LOSS || v->code == VT_BLESSED;
    bool won = v->code == VT_WIN || v->code == VT_CURSED;
    int zlo = zeroing ? 1 : v->zlo + 1, zhi = zeroing ? 1 : v->zhi + 1;
    int z50 = zeroing ? 1 : v->dtz + 1; /* at the child's clock (0 or 1) */
    if (lost) {
        a->inf_win = true;
        a->win_dtm = s_min(a->win_dtm, v->dtm + 1);
        a->win_zlo = s_min(a->win_zlo, zlo);
        a->win_zhi = s_min(a->win_zhi, zhi);
    }
    if (won) {
        a->loss_dtm = s_max(a->loss_dtm, v->dtm + 1);
        a->loss_zlo = s_max(a->loss_zlo, zlo);
        a->loss_zhi = s_max(a->loss_zhi, zhi);
    } else {
        a->all_won = false;
    }
    if (v->code == VT_LOSS && z50 <= 50) {
        a->win50 = true;
        a->win_z50 = s_min(a->win_z50, z50);
    }
    if (v->code == VT_WIN && z50 <= 50)
        a->loss_z50 = s_max(a->loss_z50, z50);
    else
        a->all_win50 = false;
}

static vt_value_t s_result(const s_acc_t *a)
{
    if (a->win50)
        return (vt_value_t){VT_WIN, a->win_z50, a->win_dtm, a->win_zlo, a->win_zhi};
    if (a->inf_win)
        return (vt_value_t){VT_CURSED, a->win_zhi, a->win_dtm, a->win_zlo, a->win_zhi};
    if (a->all_win50)
        return (vt_value_t){VT_LOSS, a->loss_z50, a->loss_dtm, a->loss_zlo, a->loss_zhi};
    if (a->all_won)
        return (vt_value_t){VT_BLESSED, a->loss_zhi, a->loss_dtm, a->loss_zlo, a->loss_zhi};
    return (vt_value_t){VT_DRAW, 0, 0, 0, 0};
}

static int s_lookahead(vt_store_t *st, const octad_pos_t *p, vt_value_t *out, int depth, char *err, size_t errlen)
{
    if (depth > VT_LOOKAHEAD_DEPTH) {
        snprintf(err, errlen, "e.p. look-ahead deeper than %d plies", VT_LOOKAHEAD_DEPTH);
        return VT_BAD;
    }
    octad_move_t moves[256];
    int n = octad_gen_legal(p, moves);
    if (n == 0) {
        bool check = vt_attacked(p, p->ksq[p->side], p->side ^ 1);
        *out = check ? (vt_value_t){VT_LOSS, 0, 0, 0, 0} : (vt_value_t){VT_DRAW, 0, 0, 0, 0};
        return VT_OK;
    }
    s_acc_t a = {.all_won = true, .all_win50 = true, .win_dtm = VT_BIG, .win_z50 = VT_BIG, .win_zlo = VT_BIG,
                 .win_zhi = VT_BIG};
    uint16_t enemy = p->color[p->side ^ 1];
    for (int i = 0; i < n; i++) {
        octad_move_t m = moves[i];
        octad_pos_t c;
        octad_make(p, m, &c);
        bool zeroing = octad_move_piece(m) == OCTAD_PAWN || (enemy & (1u << octad_move_to(m))) || c.castle != p->castle;
        vt_value_t v;
        int rc = s_value(st, &c, &v, depth, err, errlen);
        if (rc != VT_OK)
            return rc;
        s_fold(&a, &v, zeroing);
    }
    *out = s_result(&a);
    return VT_OK;
}

int vt_lookahead(vt_store_t *st, const octad_pos_t *p, vt_value_t *out, char *err, size_t errlen)
{
    return s_lookahead(st, p, out, 0, err, errlen);
}
