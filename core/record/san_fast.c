/* san_fast.c: the chess SAN shortcut (san_fast.h). It reads the board with the
 * chess core's attack functions (core/chess/bitboard.h, movegen.h), because a
 * full legal move list per ply is what made SAN input slow: here the candidates
 * are only the pieces of the named kind that reach the destination, and each is
 * checked by making it and asking whether our king is attacked. */
#include "san_fast.h"

#include "chess/bitboard.h"
#include "chess/movegen.h"

/* Whether the pseudo-legal move m leaves our king safe. */
static int s_legal(const chess_pos_t *pos, chess_move_t m)
{
    chess_pos_t child;
    int us = pos->side;
    chess_make(pos, m, &child);
    uint64_t occ = child.colors[0] | child.colors[1];
    int ksq = bb64_lsb(child.pieces[CHESS_KING] & child.colors[us]);
    return movegen_attackers(&child, ksq, us ^ 1, occ) == 0;
}

/* Origins of our pawns that move to `to` as the text says (push or capture). */
static uint64_t s_pawn_origins(const chess_pos_t *pos, const san_t *s, int to, int *type)
{
    int us = pos->side, dir = us == CHESS_WHITE ? 8 : -8;
    uint64_t own = pos->pieces[CHESS_PAWN] & pos->colors[us], occ = pos->colors[0] | pos->colors[1];
    *type = CHESS_MOVE_NORMAL;
    if (s->from_file < 0 || s->from_file == s->to_file) { /* a push */
        int one = to - dir, two = to - 2 * dir;
        if (occ >> to & 1)
            return 0;
        if (one >= 0 && one < 64 && (own >> one & 1))
            return bb64_sq(one);
        int start = us == CHESS_WHITE ? 1 : 6;
        if (two >= 0 && two < 64 && (own >> two & 1) && (two >> 3) == start && !(occ >> one & 1))
            return bb64_sq(two);
        return 0;
    }
    if (to == pos->ep)
        *type = CHESS_MOVE_EN_PASSANT;
    else if (!(pos->colors[us ^ 1] >> to & 1))
        return 0;
    return bb64_pawn_attacks[us ^ 1][to] & own;
}

int san_chess_fast(const chess_pos_t *pos, const san_t *s, chess_move_t *out)
{
    int us = pos->side, to = s->to_rank * 8 + s->to_file, type = CHESS_MOVE_NORMAL;
    if (s->castle || s->piece < 0 || s->to_file > 7 || s->to_rank > 7 || (pos->colors[us] >> to & 1))
        return 0;
    uint64_t from;
    if (s->piece == CHESS_PAWN) {
        from = s_pawn_origins(pos, s, to, &type);
        bool last = (to >> 3) == (us == CHESS_WHITE ? 7 : 0);
        if (last != (s->promo != 0))
            return 0;
        if (last)
            type = CHESS_MOVE_PROMOTION;
    } else {
        if (s->promo)
            return 0;
        from = movegen_attackers(pos, to, us, pos->colors[0] | pos->colors[1]) & pos->pieces[s->piece];
    }
    int found = 0;
    while (from) {
        int f = bb64_pop(&from);
        if ((s->from_file >= 0 && (f & 7) != s->from_file) || (s->from_rank >= 0 && (f >> 3) != s->from_rank))
            continue;
        chess_move_t m = move_new(f, to, type, type == CHESS_MOVE_PROMOTION ? s->promo - CHESS_KNIGHT : 0);
        if (!s_legal(pos, m))
            continue;
        if (found++)
            return 0; /* ambiguous: the general path names both */
        *out = m;
    }
    return found == 1;
}
