/* see_chess.c: static exchange evaluation on the chess board (see.h). The
 * threshold form: the running balance is compared against the threshold after
 * each capture, so no list of gains is kept; x-ray attackers behind a piece
 * that has captured join through the updated occupancy. */
#include "see.h"

#include "chess/bitboard.h"
#include "chess/make.h"
#include "chess/movegen.h"

static const int S_VALUE[CHESS_PIECE_NB] = { 100, 320, 320, 500, 950, 30000 };

/* Every piece of either colour attacking sq through occupancy occ. */
static uint64_t s_attackers(const chess_pos_t *p, int sq, uint64_t occ)
{
    return (movegen_attackers(p, sq, CHESS_WHITE, occ) | movegen_attackers(p, sq, CHESS_BLACK, occ)) & occ;
}

/* The least valuable piece type among set, or -1 when empty. */
static int s_least(const chess_pos_t *p, uint64_t set)
{
    for (int t = CHESS_PAWN; t <= CHESS_KING; t++)
        if (set & p->pieces[t])
            return t;
    return -1;
}

bool see_chess_ge(const chess_pos_t *p, engine_move_t m, int threshold)
{
    int type = move_type(m), from = move_from(m), to = move_to(m);
    if (type == CHESS_MOVE_CASTLING)
        return threshold <= 0;
    uint64_t occ = (p->colors[0] | p->colors[1]) ^ bb64_sq(from);
    int victim = type == CHESS_MOVE_EN_PASSANT ? CHESS_PAWN
                 : (p->colors[p->side ^ 1] & bb64_sq(to)) ? make_piece_on(p, bb64_sq(to)) : -1;
    if (type == CHESS_MOVE_EN_PASSANT)
        occ ^= bb64_sq(to + (p->side == CHESS_WHITE ? -8 : 8));
    int balance = (victim >= 0 ? S_VALUE[victim] : 0) - threshold;
    if (balance < 0)
        return false;
    balance = S_VALUE[make_piece_on(p, bb64_sq(from))] - balance;
    if (balance <= 0)
        return true; /* even losing the mover keeps the threshold */
    occ |= bb64_sq(to);
    uint64_t attackers = s_attackers(p, to, occ);
    uint64_t diag = p->pieces[CHESS_BISHOP] | p->pieces[CHESS_QUEEN], line = p->pieces[CHESS_ROOK] | p->pieces[CHESS_QUEEN];
    int stm = p->side, ok = 1;
    for (;;) {
        stm ^= 1;
        attackers &= occ;
        uint64_t mine = attackers & p->colors[stm];
        if (mine == 0)
            break;
        int t = s_least(p, mine);
        ok ^= 1;
        if (t == CHESS_KING) /* the king may take only if nothing recaptures */
            return (attackers & p->colors[stm ^ 1]) ? ok ^ 1 : ok;
        balance = S_VALUE[t] - balance;
        if (balance < ok)
            break;
        occ ^= bb64_sq(bb64_lsb(mine & p->pieces[t]));
        if (t == CHESS_PAWN || t == CHESS_BISHOP || t == CHESS_QUEEN)
            attackers |= bb64_bishop_attacks(to, occ) & diag;
        if (t == CHESS_ROOK || t == CHESS_QUEEN)
            attackers |= bb64_rook_attacks(to, occ) & line;
    }
    return ok != 0;
}
