/* make.h: copy-make of a legal move, inlined into perft; with_hash also updates the 128-bit key. */
#pragma once

#include <stdbool.h>

#include "bitboard.h"
#include "move.h"
#include "movegen.h"
#include "zobrist.h"

/* Piece type on sq (which must be occupied). */
static inline int make_piece_on(const chess_pos_t *p, uint64_t sqbb)
{
    int t = 0; /* branch-free: the six tests are unpredictable */
    for (int i = CHESS_KNIGHT; i < CHESS_PIECE_NB; i++)
        t |= (p->pieces[i] & sqbb) ? i : 0;
    return t;
}

/* XORs piece (c, t) on sq into both keys. */
static inline void make_hash_piece(chess_pos_t *o, int c, int t, int sq)
{
    o->key[0] ^= zob_piece[0][c][t][sq];
    o->key[1] ^= zob_piece[1][c][t][sq];
}

/* Castling: king takes own rook; both land on their fixed squares. */
static inline void make_castle(chess_pos_t *o, int us, int ksq, int rsq, bool with_hash)
{
    int kd, rd;
    movegen_castle_squares(us, ksq, rsq, &kd, &rd);
    uint64_t kmove = bb64_sq(ksq) ^ bb64_sq(kd), rmove = bb64_sq(rsq) ^ bb64_sq(rd);
    o->pieces[CHESS_KING] ^= kmove;
    o->pieces[CHESS_ROOK] ^= rmove;
    o->colors[us] ^= kmove ^ rmove;
    if (with_hash) {
        make_hash_piece(o, us, CHESS_KING, ksq);
        make_hash_piece(o, us, CHESS_KING, kd);
        make_hash_piece(o, us, CHESS_ROOK, rsq);
        make_hash_piece(o, us, CHESS_ROOK, rd);
    }
}

/* The pawn move from->to: promotion, e.p. removal, or a double push's e.p. square. */
static inline void make_pawn_extra(chess_pos_t *o, chess_move_t m, int us, int from, int to, bool with_hash)
{
    int type = move_type(m);
    if (type == CHESS_MOVE_PROMOTION) {
        o->pieces[CHESS_PAWN] ^= bb64_sq(to);
        o->pieces[move_promo(m)] ^= bb64_sq(to);
        if (with_hash) {
            make_hash_piece(o, us, CHESS_PAWN, to);
            make_hash_piece(o, us, move_promo(m), to);
        }
    } else if (type == CHESS_MOVE_EN_PASSANT) {
        int cap = to ^ 8;
        o->pieces[CHESS_PAWN] ^= bb64_sq(cap);
        o->colors[us ^ 1] ^= bb64_sq(cap);
        if (with_hash)
            make_hash_piece(o, us ^ 1, CHESS_PAWN, cap);
    } else if ((from ^ to) == 16) {
        int ep = (from + to) >> 1;
        /* Only an e.p. square some enemy pawn could use: equal trees hash equally. */
        if (bb64_pawn_attacks[us][ep] & o->pieces[CHESS_PAWN] & o->colors[us ^ 1]) {
            o->ep = (uint8_t)ep;
            if (with_hash) {
                o->key[0] ^= zob_ep[0][ep & 7];
                o->key[1] ^= zob_ep[1][ep & 7];
            }
        }
    }
}

/* Writes into *o the position after legal move m in p. Every field of *o is
 * written once from p's fields (no copy then read-modify-write: that stalls
 * store-to-load forwarding on the hot path); rarer moves then patch *o. */
static inline void make_move(const chess_pos_t *p, chess_move_t m, chess_pos_t *o, bool with_hash)
{
    int us = p->side, from = move_from(m), to = move_to(m);
    uint64_t fbb = bb64_sq(from), tbb = bb64_sq(to);
    uint64_t back_rank = us == CHESS_WHITE ? BB_RANK_1_MASK : BB_RANK_8_MASK;
    bool castle = move_type(m) == CHESS_MOVE_CASTLING;
    int pt = make_piece_on(p, fbb);
    bool capture = !castle && (p->colors[us ^ 1] & tbb);
    uint64_t clear = castle ? 0 : tbb, moved = castle ? 0 : fbb | tbb;
    for (int i = 0; i < CHESS_PIECE_NB; i++)
        o->pieces[i] = (p->pieces[i] & ~clear) ^ (i == pt ? moved : 0);
    o->colors[us] = p->colors[us] ^ moved;
    o->colors[us ^ 1] = p->colors[us ^ 1] & ~clear;
    o->castle_rooks = p->castle_rooks & ~(fbb | tbb) & (pt == CHESS_KING ? ~back_rank : ~0ULL);
    o->key[0] = p->key[0];
    o->key[1] = p->key[1];
    o->side = (uint8_t)(us ^ 1);
    o->ep = CHESS_SQ_NONE;
    o->variant = p->variant;
    o->halfmove = (uint8_t)(capture || pt == CHESS_PAWN ? 0 : p->halfmove + (p->halfmove < 255));
    o->fullmove = (uint16_t)(p->fullmove + (us == CHESS_BLACK && p->fullmove < 65535));
    if (with_hash) {
        if (zob_ep_hashed(p)) {
            o->key[0] ^= zob_ep[0][p->ep & 7];
            o->key[1] ^= zob_ep[1][p->ep & 7];
        }
        if (capture)
            make_hash_piece(o, us ^ 1, make_piece_on(p, tbb), to);
        if (!castle) {
            make_hash_piece(o, us, pt, from);
            make_hash_piece(o, us, pt, to);
        }
        uint64_t gone = p->castle_rooks ^ o->castle_rooks;
        while (gone) {
            int sq = bb64_pop(&gone);
            o->key[0] ^= zob_castle[0][sq];
            o->key[1] ^= zob_castle[1][sq];
        }
        o->key[0] ^= zob_side[0];
        o->key[1] ^= zob_side[1];
    }
    if (castle)
        make_castle(o, us, from, to, with_hash);
    else if (pt == CHESS_PAWN)
        make_pawn_extra(o, m, us, from, to, with_hash);
}
