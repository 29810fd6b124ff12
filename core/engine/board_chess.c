/* board_chess.c: the search's view of a chess or Chess960 position (board.h). */
#include "board.h"
#include "chess/make.h"
#include "eval.h"
#include "see.h"

static int s_gen(const game_pos_t *pos, engine_move_t *moves)
{
    return chess_gen_legal(&pos->u.chess, moves);
}

static void s_make(const game_pos_t *pos, engine_move_t m, game_pos_t *out)
{
    out->variant = pos->variant;
    make_move(&pos->u.chess, m, &out->u.chess, true);
}

static bool s_make_null(const game_pos_t *pos, game_pos_t *out)
{
    *out = *pos;
    chess_pos_t *o = &out->u.chess;
    if (zob_ep_hashed(&pos->u.chess)) {
        o->key[0] ^= zob_ep[0][o->ep & 7];
        o->key[1] ^= zob_ep[1][o->ep & 7];
    }
    o->ep = CHESS_SQ_NONE;
    o->side ^= 1;
    o->key[0] ^= zob_side[0];
    o->key[1] ^= zob_side[1];
    o->halfmove = (uint8_t)(o->halfmove + (o->halfmove < 255));
    return true;
}

static bool s_in_check(const game_pos_t *pos)
{
    return movegen_checkers(&pos->u.chess) != 0;
}

static int s_victim(const game_pos_t *pos, engine_move_t m)
{
    const chess_pos_t *p = &pos->u.chess;
    if (move_type(m) == CHESS_MOVE_EN_PASSANT)
        return CHESS_PAWN;
    if (move_type(m) == CHESS_MOVE_CASTLING || !(p->colors[p->side ^ 1] & bb64_sq(move_to(m))))
        return -1;
    return make_piece_on(p, bb64_sq(move_to(m)));
}

static bool s_tactical(const game_pos_t *pos, engine_move_t m)
{
    const chess_pos_t *p = &pos->u.chess;
    int type = move_type(m);
    return type == CHESS_MOVE_PROMOTION || type == CHESS_MOVE_EN_PASSANT
           || (type != CHESS_MOVE_CASTLING && (p->colors[p->side ^ 1] & bb64_sq(move_to(m))));
}

static int s_mover(const game_pos_t *pos, engine_move_t m)
{
    return make_piece_on(&pos->u.chess, bb64_sq(move_from(m)));
}

static int s_promo(engine_move_t m)
{
    return move_type(m) == CHESS_MOVE_PROMOTION ? move_promo(m) : -1;
}

static int s_to(engine_move_t m)
{
    return move_to(m);
}

static bool s_has_pieces(const game_pos_t *pos)
{
    const chess_pos_t *p = &pos->u.chess;
    return (p->colors[p->side] & ~(p->pieces[CHESS_PAWN] | p->pieces[CHESS_KING])) != 0;
}

static bool s_insufficient(const game_pos_t *pos)
{
    return chess_insufficient_material(&pos->u.chess);
}

static int s_eval(const game_pos_t *pos)
{
    return eval_chess(&pos->u.chess);
}

static bool s_see_ge(const game_pos_t *pos, engine_move_t m, int threshold)
{
    return see_chess_ge(&pos->u.chess, m, threshold);
}

static engine_key_t s_key(const game_pos_t *pos)
{
    return (engine_key_t){ pos->u.chess.key[0], pos->u.chess.key[1] };
}

static int s_side(const game_pos_t *pos)
{
    return pos->u.chess.side;
}

static int s_halfmove(const game_pos_t *pos)
{
    return pos->u.chess.halfmove;
}

static uint64_t s_pawn_hash(const game_pos_t *pos)
{
    const chess_pos_t *p = &pos->u.chess;
    uint64_t w = p->pieces[CHESS_PAWN] & p->colors[CHESS_WHITE], b = p->pieces[CHESS_PAWN] & p->colors[CHESS_BLACK];
    uint64_t h = w * 0x9e3779b97f4a7c15ull ^ (b * 0xc2b2ae3d27d4eb4full + (b >> 29));
    h ^= h >> 31;
    return h * 0xff51afd7ed558ccdull;
}

const board_ops_t BOARD_CHESS = {
    .gen = s_gen, .make = s_make, .make_null = s_make_null, .in_check = s_in_check,
    .victim = s_victim, .tactical = s_tactical, .mover = s_mover, .promo = s_promo, .to = s_to,
    .has_pieces = s_has_pieces, .insufficient = s_insufficient, .eval = s_eval, .key = s_key,
    .side = s_side, .halfmove = s_halfmove, .draw_clock = 100, .null_move = true,
    .see_ge = s_see_ge, .forward_prune = true, .pawn_hash = s_pawn_hash,
};
