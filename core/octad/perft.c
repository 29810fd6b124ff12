/* perft.c: perft with bulk counting at the last ply (legal moves counted by
 * popcount, never made: leafcount.h), with or without the table, and the
 * stats version. */
#include <string.h>

#include "count.h"
#include "gen.h"
#include "leafcount.h"
#include "make.h"
#include "octad.h"
#include "tt.h"

/* Deepest subtree whose count surely fits 64 bits (octad grows < 8x a ply). */
enum { PERFT_DEPTH_64 = 20 };

/* Legal moves of a slider-free child, per side to move (one child per call:
 * measured faster than two per call with the lean counter). */
static __attribute__((noinline)) int s_count_white(const octad_pos_t *p)
{
    return s_lc_leapers_as(p, OCTAD_WHITE);
}

static __attribute__((noinline)) int s_count_black(const octad_pos_t *p)
{
    return s_lc_leapers_as(p, OCTAD_BLACK);
}

/* Legal moves of any position (s_perft at depth 1). */
static int s_count_legal(const octad_pos_t *p)
{
    return p->side == OCTAD_WHITE ? leafcount_as(p, OCTAD_WHITE) : leafcount_as(p, OCTAD_BLACK);
}

/* Where the children of a depth-2 node are made, and the parent's boards and
 * rights (small, so the whole context stays in registers while the generator
 * runs; children get no clocks, which counting never reads). Children with no
 * bishop, rook or queen grow up from `lean`, the others down from `slider`. */
typedef struct {
    octad_pos_t *lean;
    octad_pos_t *slider;
    make_boards_t boards;
    bb_t castle;
    uint8_t ksq[OCTAD_COLOR_NB];
} perft_children_t;

/* Depth-2 consumer for a parent with sliders: every child may hold one. */
BB_INLINE void s_emit_child(void *ctx, const octad_pos_t *p, int us, int from, int to, int kind,
                            int piece)
{
    perft_children_t *c = ctx;
    (void)p;
    make_core(c->boards, c->castle, c->ksq, us, from, to, kind, piece, --c->slider);
}

/* Depth-2 consumer for a slider-free parent: only promotions to a slider
 * make a child with one (kind is a constant, so this folds). */
BB_INLINE void s_emit_child_lean(void *ctx, const octad_pos_t *p, int us, int from, int to, int kind,
                                 int piece)
{
    perft_children_t *c = ctx;
    (void)p;
    octad_pos_t *out = kind > OCTAD_MK_PROMO_KNIGHT ? --c->slider : c->lean++;
    make_core(c->boards, c->castle, c->ksq, us, from, to, kind, piece, out);
}

/* Perft at depth 2 of p, `us` to move: children made as generated, then
 * counted, the slider-free ones by the lean counter (no dispatch per child). */
BB_INLINE uint64_t s_perft2_as(const octad_pos_t *p, int us)
{
    legal_info_t li;
    _Alignas(64) octad_pos_t child[GAME_MOVES_MAX];
    perft_children_t c = { child, child + GAME_MOVES_MAX, make_boards(p), p->castle,
                           { p->ksq[0], p->ksq[1] } };
    legal_info_compute_as(p, &li, us);
    if (p->type[OCTAD_BISHOP] | p->type[OCTAD_ROOK] | p->type[OCTAD_QUEEN])
        gen_legal_as(p, &li, us, s_emit_child, &c);
    else
        gen_legal_as(p, &li, us, s_emit_child_lean, &c);
    uint64_t total = 0;
    for (const octad_pos_t *l = child; l < c.lean; l++)
        total += (uint64_t)(us == OCTAD_WHITE ? s_count_black(l) : s_count_white(l));
    for (const octad_pos_t *s = c.slider; s < child + GAME_MOVES_MAX; s++)
        total += (uint64_t)(us == OCTAD_WHITE ? s_lc_general_black(s) : s_lc_general_white(s));
    return total;
}

/* Depth-2 perft for each side to move. */
static __attribute__((noinline, hot)) uint64_t s_perft2_white(const octad_pos_t *p)
{
    return s_perft2_as(p, OCTAD_WHITE);
}

static __attribute__((noinline, hot)) uint64_t s_perft2_black(const octad_pos_t *p)
{
    return s_perft2_as(p, OCTAD_BLACK);
}

static uint64_t s_perft(const octad_pos_t *p, int depth);

/* A node at depth >= 3 being expanded: the running total, the children's
 * depth, and the node's boards and rights (children get no clocks). */
typedef struct {
    uint64_t total;
    int depth;
    make_boards_t boards;
    bb_t castle;
    uint8_t ksq[OCTAD_COLOR_NB];
} perft_node_t;

/* Depth >= 3 consumer: makes the move and recurses into the child. */
BB_INLINE void s_emit_recurse(void *ctx, const octad_pos_t *p, int us, int from, int to, int kind,
                              int piece)
{
    perft_node_t *node = ctx;
    octad_pos_t child;
    (void)p;
    make_core(node->boards, node->castle, node->ksq, us, from, to, kind, piece, &child);
    if (node->depth == 2)
        node->total += us == OCTAD_WHITE ? s_perft2_black(&child) : s_perft2_white(&child);
    else
        node->total += s_perft(&child, node->depth);
}

/* Perft at depth >= 3 of p, `us` to move. */
BB_INLINE uint64_t s_perft_deep_as(const octad_pos_t *p, int depth, int us)
{
    legal_info_t li;
    perft_node_t node = { 0, depth - 1, make_boards(p), p->castle, { p->ksq[0], p->ksq[1] } };
    legal_info_compute_as(p, &li, us);
    gen_legal_as(p, &li, us, s_emit_recurse, &node);
    return node.total;
}

static __attribute__((noinline)) uint64_t s_perft_deep_white(const octad_pos_t *p, int depth)
{
    return s_perft_deep_as(p, depth, OCTAD_WHITE);
}

static __attribute__((noinline)) uint64_t s_perft_deep_black(const octad_pos_t *p, int depth)
{
    return s_perft_deep_as(p, depth, OCTAD_BLACK);
}

/* Perft without a table, depth >= 1, 64-bit. */
static uint64_t s_perft(const octad_pos_t *p, int depth)
{
    if (depth == 1)
        return (uint64_t)s_count_legal(p);
    if (depth == 2)
        return p->side == OCTAD_WHITE ? s_perft2_white(p) : s_perft2_black(p);
    return p->side == OCTAD_WHITE ? s_perft_deep_white(p, depth) : s_perft_deep_black(p, depth);
}

/* Perft with the table, 2 <= depth <= TT_DEPTH_MAX, 64-bit. */
static uint64_t s_perft_tt(const octad_pos_t *p, int depth, octad_tt_t *tt)
{
    if (depth <= 2)
        return s_perft(p, depth);
    uint64_t placement, total = 0;
    unsigned rest = tt_key(p, &placement);
    tt_entry_t *bucket = tt_bucket(tt, placement, rest);
    if (tt_probe(bucket, placement, rest, depth, &total))
        return total;
    octad_move_t moves[GAME_MOVES_MAX];
    int n = octad_gen_legal(p, moves);
    octad_pos_t child;
    for (int i = 0; i < n; i++) {
        make_move_board(p, moves[i], &child);
        total += s_perft_tt(&child, depth - 1, tt);
    }
    tt_store(bucket, placement, rest, depth, total);
    return total;
}

/* Perft of any depth >= 1 in 128 bits, 64-bit below PERFT_DEPTH_64. */
static count_t s_perft_wide(const octad_pos_t *p, int depth, octad_tt_t *tt)
{
    if (depth <= PERFT_DEPTH_64)
        return tt && depth <= TT_DEPTH_MAX ? s_perft_tt(p, depth, tt) : s_perft(p, depth);
    octad_move_t moves[GAME_MOVES_MAX];
    int n = octad_gen_legal(p, moves);
    count_t total = 0;
    octad_pos_t child;
    for (int i = 0; i < n; i++) {
        make_move_board(p, moves[i], &child);
        total += s_perft_wide(&child, depth - 1, tt);
    }
    return total;
}

count_t octad_perft(const octad_pos_t *pos, int depth, octad_tt_t *tt)
{
    if (depth <= 0)
        return 1;
    return s_perft_wide(pos, depth, tt);
}

/* Squares of the mover's pieces in child whose content the move changed:
 * where the moved pieces stand (both king and partner, for a castle). */
static bb_t s_arrived(const octad_pos_t *p, const octad_pos_t *child)
{
    unsigned changed = (unsigned)(p->color[p->side] ^ child->color[p->side]);
    for (int t = 0; t < OCTAD_PIECE_TYPE_NB; t++)
        changed |= (unsigned)(p->type[t] ^ child->type[t]);
    return (bb_t)(changed & child->color[p->side]);
}

/* Adds one last-ply move of p to the stats. */
static void s_stats_leaf(const octad_pos_t *p, octad_move_t m, perft_stats_t *out)
{
    static const int KIND_OF[] = { [OCTAD_MK_CASTLE_NEAR] = CASTLE_NEAR,
                                   [OCTAD_MK_CASTLE_CENTER] = CASTLE_CENTER,
                                   [OCTAD_MK_CASTLE_FAR] = CASTLE_FAR };
    int kind = octad_move_kind(m);
    octad_pos_t child;
    out->nodes++;
    if (octad_move_is_castle(m)) {
        out->castles++;
        out->castle_kind[KIND_OF[kind]]++;
    } else if (kind == OCTAD_MK_EN_PASSANT) {
        out->captures++;
        out->en_passant++;
    } else if (p->color[p->side ^ 1] & bb_sq(octad_move_to(m))) {
        out->captures++;
    }
    if (octad_move_is_promo(m))
        out->promotions++;
    make_move(p, m, &child);
    legal_info_t li;
    legal_info_compute(&child, &li);
    count_stats_child(out, bb_count(li.checkers), li.checkers && !(li.checkers & s_arrived(p, &child)),
                      s_count_legal(&child) == 0);
}

void octad_perft_stats(const octad_pos_t *pos, int depth, perft_stats_t *out)
{
    octad_move_t moves[GAME_MOVES_MAX];
    if (depth <= 0) {
        out->nodes++;
        return;
    }
    int n = octad_gen_legal(pos, moves);
    octad_pos_t child;
    for (int i = 0; i < n; i++) {
        if (depth == 1) {
            s_stats_leaf(pos, moves[i], out);
            continue;
        }
        make_move_board(pos, moves[i], &child);
        octad_perft_stats(&child, depth - 1, out);
    }
}
