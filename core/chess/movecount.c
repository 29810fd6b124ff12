/* movecount.c: legal move counts without move lists, for the last two plies
 * of perft: the count of one position (popcounts of destination sets, pawns
 * shifted as whole sets) and perft 2 (each child made cheaply and counted). */
#include "movegen.h"

#include "make.h"
#include "movegen_steps.h"

/* Count of a destination set where promotions count four times. */
MG_INLINE int s_promo_count(uint64_t b)
{
    return bb64_count(b) + 3 * bb64_count(b & (BB_RANK_1_MASK | BB_RANK_8_MASK));
}

MG_INLINE int s_count_pawns(const chess_pos_t *p, const mg_ctx_t *c)
{
    mg_pawn_sets_t s;
    mg_pawn_sets(p, c, &s);
    int n = bb64_count(s.push2) + bb64_count(s.push1) + bb64_count(s.cap_west) + bb64_count(s.cap_east);
    uint64_t last = BB_RANK_1_MASK | BB_RANK_8_MASK;
    if ((s.push1 | s.cap_west | s.cap_east) & last) /* three more for each promotion */
        n += 3 * (bb64_count(s.push1 & last) + bb64_count(s.cap_west & last) + bb64_count(s.cap_east & last));
    uint64_t pinned = c->checkers ? 0 : p->pieces[CHESS_PAWN] & c->pinned;
    while (pinned)
        n += s_promo_count(mg_pinned_pawn_dests(c, bb64_pop(&pinned)));
    return n + bb64_count(mg_ep_origins(p, c));
}

/* Knights, bishops, rooks and queens (queens in both slider passes); pinned
 * sliders (never in check: a pinned piece cannot block or capture then) move
 * along their pin line. */
MG_INLINE int s_count_pieces(const chess_pos_t *p, const mg_ctx_t *c)
{
    uint64_t unpinned = c->own & ~c->pinned, bq = p->pieces[CHESS_BISHOP] | p->pieces[CHESS_QUEEN];
    uint64_t rq = p->pieces[CHESS_ROOK] | p->pieces[CHESS_QUEEN];
    int n = 0;
    uint64_t b = p->pieces[CHESS_KNIGHT] & unpinned;
    while (b)
        n += bb64_count(bb64_knight[bb64_pop(&b)] & c->target);
    for (b = bq & unpinned; b;)
        n += bb64_count(mg_bishop(c, bb64_pop(&b), c->occ) & c->target);
    for (b = rq & unpinned; b;)
        n += bb64_count(mg_rook(c, bb64_pop(&b), c->occ) & c->target);
    if (!c->pinned || c->checkers)
        return n;
    for (b = bq & c->pinned; b;)
        n += bb64_count(mg_slider_dests(c, CHESS_BISHOP, bb64_pop(&b)));
    for (b = rq & c->pinned; b;)
        n += bb64_count(mg_slider_dests(c, CHESS_ROOK, bb64_pop(&b)));
    return n;
}

/* The count of p with `us` to move, given the enemy's leaper attacks. */
MG_INLINE int s_count(const chess_pos_t *p, int us, bool pext, uint64_t danger)
{
    mg_ctx_t c;
    mg_setup(p, &c, us, pext);
    c.danger = danger;
    int n = bb64_count(mg_king_dests(&c));
    if (bb64_many(c.checkers))
        return n;
    return n + s_count_pieces(p, &c) + s_count_pawns(p, &c) + bb64_count(mg_castles(p, &c));
}

/* One out-of-line instance per (side to move, slider method). */
#define S_COUNT_INSTANCE(name, us, pext) \
    static __attribute__((noinline)) int name(const chess_pos_t *p, uint64_t danger) \
    { \
        return s_count(p, us, pext, danger); \
    }
S_COUNT_INSTANCE(s_count_white_pext, CHESS_WHITE, true)
S_COUNT_INSTANCE(s_count_black_pext, CHESS_BLACK, true)
S_COUNT_INSTANCE(s_count_white_magic, CHESS_WHITE, false)
S_COUNT_INSTANCE(s_count_black_magic, CHESS_BLACK, false)

/* The count of p with `us` to move; us and pext are constants at every call. */
MG_INLINE int s_count_side(const chess_pos_t *p, int us, bool pext, uint64_t danger)
{
    if (pext)
        return us == CHESS_WHITE ? s_count_white_pext(p, danger) : s_count_black_pext(p, danger);
    return us == CHESS_WHITE ? s_count_white_magic(p, danger) : s_count_black_magic(p, danger);
}

int movegen_count(const chess_pos_t *p)
{
    int us = p->side;
    mg_ctx_t c; /* only the fields mg_leaper_attacks reads */
    c.us = us;
    c.opp = p->colors[us ^ 1];
    uint64_t danger = mg_leaper_attacks(p, &c);
    if (bb64_use_pext)
        return us == CHESS_WHITE ? s_count_white_pext(p, danger) : s_count_black_pext(p, danger);
    return us == CHESS_WHITE ? s_count_white_magic(p, danger) : s_count_black_magic(p, danger);
}

/* Perft 2. The child `ch` is a light copy of the parent: only what a count
 * reads (pieces, colours, castling rooks, e.p.) and only the opponent's
 * castling rights matter, no key or clocks. Between moves ch equals the
 * parent but for side and e.p. (none); each move group writes the fields
 * it changes from the parent's, counts, and restores them. Our leaper
 * attacks (the child's danger squares) are kept by kind, so a move only
 * recomputes the part it changes. */
typedef struct {
    const chess_pos_t *p;
    chess_pos_t ch;
    mg_ctx_t c;
    uint64_t pawn_att, knight_att, king_att; /* squares our pawns, knights, king attack */
    uint64_t knight_base;                    /* our leaper attacks without the knight now moving */
} s_leaf_t;

/* Our leaper attacks after our pt moved by m (from and to squares) to `to`. */
MG_INLINE uint64_t s_child_danger(const s_leaf_t *l, int pt, uint64_t m, int to)
{
    if (pt == CHESS_KING)
        return l->pawn_att | l->knight_att | bb64_king[to];
    if (pt == CHESS_KNIGHT)
        return l->knight_base | bb64_knight[to];
    if (pt == CHESS_PAWN)
        return mg_pawn_attacks((l->p->pieces[CHESS_PAWN] & l->c.own) ^ m, l->c.us) | l->knight_att | l->king_att;
    return l->pawn_att | l->knight_att | l->king_att;
}

/* Quiet moves of our pt to each of dests, from `from` (or, when delta is
 * not 0, from to - delta: pawns); a double push sets the e.p. square. */
MG_INLINE uint64_t s_quiet(s_leaf_t *l, int pt, int from, int delta, uint64_t dests)
{
    int us = l->c.us;
    uint64_t n = 0;
    while (dests) {
        int to = bb64_pop(&dests);
        uint64_t m = bb64_sq(to) | bb64_sq(delta ? to - delta : from);
        l->ch.pieces[pt] = l->p->pieces[pt] ^ m;
        l->ch.colors[us] = l->p->colors[us] ^ m;
        if (delta == 16 || delta == -16)
            l->ch.ep = (uint8_t)(to - delta / 2);
        n += (uint64_t)s_count_side(&l->ch, us ^ 1, l->c.pext, s_child_danger(l, pt, m, to));
    }
    l->ch.pieces[pt] = l->p->pieces[pt];
    l->ch.colors[us] = l->p->colors[us];
    l->ch.ep = CHESS_SQ_NONE;
    return n;
}

/* Captures by our pt on each of dests, from `from` or to - delta as in s_quiet. */
MG_INLINE uint64_t s_captures(s_leaf_t *l, int pt, int from, int delta, uint64_t dests)
{
    int us = l->c.us;
    const chess_pos_t *p = l->p;
    uint64_t n = 0;
    if (!dests)
        return 0;
    while (dests) {
        int to = bb64_pop(&dests);
        uint64_t tbb = bb64_sq(to), m = tbb | bb64_sq(delta ? to - delta : from);
        for (int i = 0; i < CHESS_PIECE_NB; i++)
            l->ch.pieces[i] = (p->pieces[i] & ~tbb) ^ (i == pt ? m : 0);
        l->ch.colors[us] = p->colors[us] ^ m;
        l->ch.colors[us ^ 1] = p->colors[us ^ 1] ^ tbb;
        l->ch.castle_rooks = p->castle_rooks & ~tbb;
        n += (uint64_t)s_count_side(&l->ch, us ^ 1, l->c.pext, s_child_danger(l, pt, m, to));
    }
    for (int i = 0; i < CHESS_PIECE_NB; i++)
        l->ch.pieces[i] = p->pieces[i];
    l->ch.colors[us] = p->colors[us];
    l->ch.colors[us ^ 1] = p->colors[us ^ 1];
    l->ch.castle_rooks = p->castle_rooks;
    return n;
}

/* Moves of our pt from `from` to dests (pin and check already applied). */
MG_INLINE uint64_t s_piece(s_leaf_t *l, int pt, int from, uint64_t dests)
{
    return s_quiet(l, pt, from, 0, dests & ~l->c.opp) + s_captures(l, pt, from, 0, dests & l->c.opp);
}

/* Rare moves (castles, promotions, e.p., pinned pawns) by the full make. */
static __attribute__((noinline)) uint64_t s_rare(const chess_pos_t *p, chess_move_t m)
{
    chess_pos_t child;
    make_move(p, m, &child, false);
    return (uint64_t)movegen_count(&child);
}

/* The four promotions of each pawn landing on dests from to - delta. */
MG_INLINE uint64_t s_promotions(const chess_pos_t *p, int delta, uint64_t dests)
{
    uint64_t n = 0;
    while (dests) {
        int to = bb64_pop(&dests);
        for (int promo = 0; promo < 4; promo++)
            n += s_rare(p, move_new(to - delta, to, CHESS_MOVE_PROMOTION, promo));
    }
    return n;
}

MG_INLINE uint64_t s_leaf_pawns(s_leaf_t *l)
{
    const chess_pos_t *p = l->p;
    const mg_ctx_t *c = &l->c;
    mg_pawn_sets_t s;
    mg_pawn_sets(p, c, &s);
    uint64_t last = BB_RANK_1_MASK | BB_RANK_8_MASK;
    uint64_t n = s_quiet(l, CHESS_PAWN, 0, s.dir, s.push1 & ~last) + s_quiet(l, CHESS_PAWN, 0, 2 * s.dir, s.push2)
               + s_captures(l, CHESS_PAWN, 0, s.dir - 1, s.cap_west & ~last)
               + s_captures(l, CHESS_PAWN, 0, s.dir + 1, s.cap_east & ~last);
    if ((s.push1 | s.cap_west | s.cap_east) & last)
        n += s_promotions(p, s.dir, s.push1 & last) + s_promotions(p, s.dir - 1, s.cap_west & last)
           + s_promotions(p, s.dir + 1, s.cap_east & last);
    uint64_t pinned = c->checkers ? 0 : p->pieces[CHESS_PAWN] & c->pinned;
    while (pinned) {
        int from = bb64_pop(&pinned);
        uint64_t d = mg_pinned_pawn_dests(c, from);
        while (d) {
            int to = bb64_pop(&d);
            n += bb64_sq(to) & last ? s_promotions(p, to - from, bb64_sq(to))
                                    : s_rare(p, move_new(from, to, CHESS_MOVE_NORMAL, 0));
        }
    }
    uint64_t ep = mg_ep_origins(p, c);
    while (ep)
        n += s_rare(p, move_new(bb64_pop(&ep), p->ep, CHESS_MOVE_EN_PASSANT, 0));
    return n;
}

MG_INLINE uint64_t s_leaf_pieces(s_leaf_t *l)
{
    const chess_pos_t *p = l->p;
    const mg_ctx_t *c = &l->c;
    uint64_t movable = c->own & (c->checkers ? ~c->pinned : ~0ULL), n = 0;
    uint64_t b = p->pieces[CHESS_KNIGHT] & movable & ~c->pinned;
    while (b) {
        int sq = bb64_pop(&b);
        uint64_t others = p->pieces[CHESS_KNIGHT] & c->own & ~bb64_sq(sq);
        l->knight_base = l->pawn_att | l->king_att | mg_knight_attacks(others);
        n += s_piece(l, CHESS_KNIGHT, sq, bb64_knight[sq] & c->target);
    }
    for (b = p->pieces[CHESS_BISHOP] & movable; b;) {
        int sq = bb64_pop(&b);
        n += s_piece(l, CHESS_BISHOP, sq, mg_slider_dests(c, CHESS_BISHOP, sq));
    }
    for (b = p->pieces[CHESS_ROOK] & movable; b;) {
        int sq = bb64_pop(&b);
        n += s_piece(l, CHESS_ROOK, sq, mg_slider_dests(c, CHESS_ROOK, sq));
    }
    for (b = p->pieces[CHESS_QUEEN] & movable; b;) {
        int sq = bb64_pop(&b);
        n += s_piece(l, CHESS_QUEEN, sq, mg_slider_dests(c, CHESS_QUEEN, sq));
    }
    return n;
}

MG_INLINE uint64_t s_perft2(const chess_pos_t *p, int us, bool pext)
{
    s_leaf_t l;
    l.p = p;
    l.ch = *p;
    l.ch.side = (uint8_t)(us ^ 1);
    l.ch.ep = CHESS_SQ_NONE;
    mg_setup(p, &l.c, us, pext);
    l.c.danger = mg_leaper_attacks(p, &l.c);
    l.pawn_att = mg_pawn_attacks(p->pieces[CHESS_PAWN] & l.c.own, us);
    l.knight_att = mg_knight_attacks(p->pieces[CHESS_KNIGHT] & l.c.own);
    l.king_att = bb64_king[l.c.ksq];
    uint64_t n = s_piece(&l, CHESS_KING, l.c.ksq, mg_king_dests(&l.c));
    if (bb64_many(l.c.checkers))
        return n;
    n += s_leaf_pieces(&l) + s_leaf_pawns(&l);
    uint64_t castles = mg_castles(p, &l.c);
    while (castles)
        n += s_rare(p, move_new(l.c.ksq, bb64_pop(&castles), CHESS_MOVE_CASTLING, 0));
    return n;
}

uint64_t movegen_perft2(const chess_pos_t *p)
{
    if (bb64_use_pext)
        return p->side == CHESS_WHITE ? s_perft2(p, CHESS_WHITE, true) : s_perft2(p, CHESS_BLACK, true);
    return p->side == CHESS_WHITE ? s_perft2(p, CHESS_WHITE, false) : s_perft2(p, CHESS_BLACK, false);
}
