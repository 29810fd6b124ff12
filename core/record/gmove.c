/* gmove.c: the variant-independent raw move layer (gmove.h), dispatching to core/octad and core/chess. */
#include "gmove.h"

int gmove_legal(const game_pos_t *pos, gmove_t *moves)
{
    if (pos->variant == VARIANT_OCTAD)
        return octad_gen_legal(&pos->u.octad, moves);
    return chess_gen_legal(&pos->u.chess, moves);
}

void gmove_make(const game_pos_t *pos, gmove_t m, game_pos_t *out)
{
    out->variant = pos->variant;
    if (pos->variant == VARIANT_OCTAD)
        octad_make(&pos->u.octad, m, &out->u.octad);
    else
        chess_make(&pos->u.chess, m, &out->u.chess);
}

static gmove_info_t s_octad_info(const octad_pos_t *p, octad_move_t m)
{
    int from = octad_move_from(m), to = octad_move_to(m), kind = octad_move_kind(m);
    gmove_info_t i = {
        .from_file = (int8_t)(from & 3), .from_rank = (int8_t)(from >> 2),
        .to_file = (int8_t)(to & 3), .to_rank = (int8_t)(to >> 2),
        .piece = (int8_t)octad_move_piece(m),
        .promo = (int8_t)(octad_move_is_promo(m) ? octad_move_promo_type(m) : 0),
        .castle = octad_move_is_castle(m) != 0,
        .en_passant = kind == OCTAD_MK_EN_PASSANT,
    };
    i.capture = i.en_passant || (!i.castle && (p->color[p->side ^ 1] >> to & 1));
    return i;
}

static gmove_info_t s_chess_info(const chess_pos_t *p, chess_move_t m)
{
    int from = move_from(m), to = move_to(m), type = move_type(m);
    gmove_info_t i = {
        .from_file = (int8_t)(from & 7), .from_rank = (int8_t)(from >> 3),
        .to_file = (int8_t)(to & 7), .to_rank = (int8_t)(to >> 3),
        .promo = (int8_t)(type == CHESS_MOVE_PROMOTION ? move_promo(m) : 0),
        .castle = type == CHESS_MOVE_CASTLING,
        .en_passant = type == CHESS_MOVE_EN_PASSANT,
    };
    for (int t = 0; t < CHESS_PIECE_NB; t++)
        if (p->pieces[t] >> from & 1)
            i.piece = (int8_t)t;
    i.capture = i.en_passant || (!i.castle && (p->colors[p->side ^ 1] >> to & 1));
    return i;
}

gmove_info_t gmove_info(const game_pos_t *pos, gmove_t m)
{
    if (pos->variant == VARIANT_OCTAD)
        return s_octad_info(&pos->u.octad, m);
    return s_chess_info(&pos->u.chess, m);
}

void gmove_uoi(const game_pos_t *pos, gmove_t m, char *buf)
{
    if (pos->variant == VARIANT_OCTAD)
        octad_move_uoi(&pos->u.octad, m, buf);
    else
        chess_move_uci(&pos->u.chess, m, buf);
}

void gmove_san(const game_pos_t *pos, gmove_t m, char *buf)
{
    if (pos->variant == VARIANT_OCTAD)
        octad_move_san(&pos->u.octad, m, buf);
    else
        chess_move_san(&pos->u.chess, m, buf);
}
