/* board_octad.c: the search's view of an octad position (board.h). */
#include "board.h"
#include "eval.h"
#include "octad/legal.h"
#include "octad/make.h"

static int s_gen(const game_pos_t *pos, engine_move_t *moves)
{
    return octad_gen_legal(&pos->u.octad, moves);
}

static void s_make(const game_pos_t *pos, engine_move_t m, game_pos_t *out)
{
    out->variant = VARIANT_OCTAD;
    make_move(&pos->u.octad, m, &out->u.octad);
}

static bool s_make_null(const game_pos_t *pos, game_pos_t *out)
{
    (void)pos;
    (void)out;
    return false;
}

static bool s_in_check(const game_pos_t *pos)
{
    const octad_pos_t *p = &pos->u.octad;
    bb_t occ = (bb_t)(p->color[0] | p->color[1]);
    return legal_attackers_to(p, p->ksq[p->side], occ, p->side ^ 1) != 0;
}

static int s_victim(const game_pos_t *pos, engine_move_t m)
{
    const octad_pos_t *p = &pos->u.octad;
    if (octad_move_kind(m) == OCTAD_MK_EN_PASSANT)
        return OCTAD_PAWN;
    bb_t to = bb_sq(octad_move_to(m));
    if (octad_move_is_castle(m) || !(p->color[p->side ^ 1] & to))
        return -1;
    for (int t = OCTAD_PAWN; t < OCTAD_KING; t++)
        if (p->type[t] & to)
            return t;
    return -1;
}

static bool s_tactical(const game_pos_t *pos, engine_move_t m)
{
    const octad_pos_t *p = &pos->u.octad;
    return octad_move_is_promo(m) || octad_move_kind(m) == OCTAD_MK_EN_PASSANT
           || (!octad_move_is_castle(m) && (p->color[p->side ^ 1] & bb_sq(octad_move_to(m))));
}

static int s_mover(const game_pos_t *pos, engine_move_t m)
{
    (void)pos;
    return octad_move_piece(m);
}

static int s_promo(engine_move_t m)
{
    return octad_move_is_promo(m) ? octad_move_promo_type(m) : -1;
}

static int s_to(engine_move_t m)
{
    return octad_move_to(m);
}

static bool s_has_pieces(const game_pos_t *pos)
{
    const octad_pos_t *p = &pos->u.octad;
    return (p->color[p->side] & ~(p->type[OCTAD_PAWN] | p->type[OCTAD_KING])) != 0;
}

static bool s_insufficient(const game_pos_t *pos)
{
    return octad_insufficient_material(&pos->u.octad);
}

static int s_eval(const game_pos_t *pos)
{
    return eval_octad(&pos->u.octad);
}

/* Placement as black occupancy and three type bit planes (each square's type
 * 0-5 in binary), so 64 bits say it all; then side, rights, recorded e.p. */
static engine_key_t s_key(const game_pos_t *pos)
{
    const octad_pos_t *p = &pos->u.octad;
    bb_t plane0 = (bb_t)(p->type[OCTAD_KNIGHT] | p->type[OCTAD_ROOK] | p->type[OCTAD_KING]);
    bb_t plane1 = (bb_t)(p->type[OCTAD_BISHOP] | p->type[OCTAD_ROOK]);
    bb_t plane2 = (bb_t)(p->type[OCTAD_QUEEN] | p->type[OCTAD_KING]);
    bb_t occ = (bb_t)(p->color[0] | p->color[1]);
    engine_key_t k;
    k.a = (uint64_t)p->color[OCTAD_BLACK] | ((uint64_t)occ << 16) | ((uint64_t)plane0 << 32)
          | ((uint64_t)plane1 << 48);
    k.b = (uint64_t)plane2 | ((uint64_t)p->castle << 16) | ((uint64_t)p->side << 32)
          | ((uint64_t)p->ep << 33);
    return k;
}

static int s_side(const game_pos_t *pos)
{
    return pos->u.octad.side;
}

static int s_halfmove(const game_pos_t *pos)
{
    return (int)pos->u.octad.halfmove;
}

const board_ops_t BOARD_OCTAD = {
    .gen = s_gen, .make = s_make, .make_null = s_make_null, .in_check = s_in_check,
    .victim = s_victim, .tactical = s_tactical, .mover = s_mover, .promo = s_promo, .to = s_to,
    .has_pieces = s_has_pieces, .insufficient = s_insufficient, .eval = s_eval, .key = s_key,
    .side = s_side, .halfmove = s_halfmove, .draw_clock = 50, .null_move = false,
};
