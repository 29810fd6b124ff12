/* perft.c: move-path enumeration with bulk counting: the last ply is a
 * popcount-based count of legal moves (movegen_count), never a move list. */
#include "bitboard.h"
#include "chess.h"
#include "count.h"
#include "make.h"
#include "movegen.h"
#include "tt.h"

/* Up to this depth a subtree count fits in 64 bits: 218^8 < 2^64. */
enum { PERFT_U64_DEPTH = 8 };

/* Perft for 2 <= depth <= PERFT_U64_DEPTH without a table. */
static uint64_t s_perft(const chess_pos_t *p, int depth)
{
    if (depth == 2)
        return movegen_perft2(p);
    chess_move_t moves[GAME_MOVES_MAX];
    int n = chess_gen_legal(p, moves);
    uint64_t total = 0;
    chess_pos_t child;
    for (int i = 0; i < n; i++) {
        make_move(p, moves[i], &child, false);
        total += s_perft(&child, depth - 1);
    }
    return total;
}

/* Perft for depth >= 2 with table tt (counts of 2^56 or more are simply not stored). */
static count_t s_perft_tt(const chess_pos_t *p, int depth, chess_tt_t *tt)
{
    uint64_t hit;
    if (tt_probe(tt, p->key, depth, &hit))
        return hit;
    count_t total = 0;
    if (depth == 2) {
        total = movegen_perft2(p);
    } else {
        chess_move_t moves[GAME_MOVES_MAX];
        int n = chess_gen_legal(p, moves);
        chess_pos_t child;
        for (int i = 0; i < n; i++) {
            make_move(p, moves[i], &child, true);
            total += s_perft_tt(&child, depth - 1, tt);
        }
    }
    if (total <= TT_COUNT_MAX)
        tt_store(tt, p->key, depth, (uint64_t)total);
    return total;
}

/* Perft without a table at any depth >= 2, in 128 bits above PERFT_U64_DEPTH. */
static count_t s_perft_wide(const chess_pos_t *p, int depth)
{
    if (depth <= PERFT_U64_DEPTH)
        return s_perft(p, depth);
    chess_move_t moves[GAME_MOVES_MAX];
    int n = chess_gen_legal(p, moves);
    count_t total = 0;
    chess_pos_t child;
    for (int i = 0; i < n; i++) {
        make_move(p, moves[i], &child, false);
        total += s_perft_wide(&child, depth - 1);
    }
    return total;
}

count_t chess_perft(const chess_pos_t *pos, int depth, chess_tt_t *tt)
{
    if (depth <= 0)
        return 1;
    if (depth == 1)
        return (count_t)movegen_count(pos);
    return tt ? s_perft_tt(pos, depth, tt) : s_perft_wide(pos, depth);
}

/* Squares of the mover's pieces in child whose content the move changed:
 * where the moved pieces stand (both, for a castle; Chess960 included). */
static uint64_t s_arrived(const chess_pos_t *p, const chess_pos_t *child)
{
    uint64_t changed = p->colors[p->side] ^ child->colors[p->side];
    for (int t = 0; t < CHESS_PIECE_NB; t++)
        changed |= p->pieces[t] ^ child->pieces[t];
    return changed & child->colors[p->side];
}

/* Adds the counts by kind of the last-ply move m of p. */
static void s_stats_leaf(const chess_pos_t *p, chess_move_t m, perft_stats_t *out)
{
    int type = move_type(m);
    chess_pos_t child;
    out->nodes++;
    if (type == CHESS_MOVE_EN_PASSANT) {
        out->en_passant++;
        out->captures++;
    } else if (type != CHESS_MOVE_CASTLING && (p->colors[p->side ^ 1] & bb64_sq(move_to(m)))) {
        out->captures++;
    }
    if (type == CHESS_MOVE_CASTLING)
        out->castles++;
    if (type == CHESS_MOVE_PROMOTION)
        out->promotions++;
    make_move(p, m, &child, false);
    uint64_t checkers = movegen_checkers(&child);
    count_stats_child(out, bb64_count(checkers), checkers && !(checkers & s_arrived(p, &child)), movegen_count(&child) == 0);
}

void chess_perft_stats(const chess_pos_t *pos, int depth, perft_stats_t *out)
{
    if (depth <= 0) {
        out->nodes++;
        return;
    }
    chess_move_t moves[GAME_MOVES_MAX];
    int n = chess_gen_legal(pos, moves);
    chess_pos_t child;
    for (int i = 0; i < n; i++) {
        if (depth == 1) {
            s_stats_leaf(pos, moves[i], out);
        } else {
            make_move(pos, moves[i], &child, false);
            chess_perft_stats(&child, depth - 1, out);
        }
    }
}
