/* notation.c: move texts (UCI and SAN) and the check/mate/stalemate status. */
#include <string.h>

#include "bitboard.h"
#include "chess.h"
#include "make.h"
#include "movegen.h"

enum {
    STATUS_IN_CHECK = 1, /* the values of GAME_IN_CHECK etc. in game.h */
    STATUS_CHECKMATE = 2,
    STATUS_STALEMATE = 4
};

static const char s_promo_chars[] = "pnbrqk";
static const char s_san_chars[] = "PNBRQK";

/* Writes square sq as two characters at out; returns out + 2. */
static char *s_square(char *out, int sq)
{
    *out++ = (char)('a' + (sq & 7));
    *out++ = (char)('1' + (sq >> 3));
    return out;
}

void chess_move_uci(const chess_pos_t *pos, chess_move_t m, char *buf)
{
    int from = move_from(m), to = move_to(m);
    if (move_type(m) == CHESS_MOVE_CASTLING && pos->variant == VARIANT_CHESS) {
        int rd;
        movegen_castle_squares(pos->side, from, to, &to, &rd);
    }
    char *o = s_square(s_square(buf, from), to);
    if (move_type(m) == CHESS_MOVE_PROMOTION)
        *o++ = s_promo_chars[move_promo(m)];
    *o = '\0';
}

int chess_status(const chess_pos_t *pos)
{
    int flags = movegen_checkers(pos) ? STATUS_IN_CHECK : 0;
    if (movegen_count(pos) == 0)
        flags |= flags ? STATUS_CHECKMATE : STATUS_STALEMATE;
    return flags;
}

/* File and/or rank of `from` needed to tell m apart from other legal moves of the same piece type. */
static char *s_disambiguate(const chess_pos_t *pos, chess_move_t m, int pt, char *o)
{
    chess_move_t moves[GAME_MOVES_MAX];
    int n = chess_gen_legal(pos, moves), from = move_from(m), to = move_to(m);
    bool clash = false, same_file = false, same_rank = false;
    for (int i = 0; i < n; i++) {
        int f = move_from(moves[i]);
        if (move_to(moves[i]) != to || f == from || move_type(moves[i]) == CHESS_MOVE_CASTLING
            || !(pos->pieces[pt] & bb64_sq(f)))
            continue;
        clash = true;
        same_file |= (f & 7) == (from & 7);
        same_rank |= (f >> 3) == (from >> 3);
    }
    if (!clash)
        return o;
    if (!same_file)
        *o++ = (char)('a' + (from & 7));
    else if (!same_rank)
        *o++ = (char)('1' + (from >> 3));
    else
        o = s_square(o, from);
    return o;
}

void chess_move_san(const chess_pos_t *pos, chess_move_t m, char *buf)
{
    int from = move_from(m), to = move_to(m), type = move_type(m);
    char *o = buf;
    if (type == CHESS_MOVE_CASTLING) {
        strcpy(o, to > from ? "O-O" : "O-O-O");
        o += strlen(o);
    } else {
        int pt = make_piece_on(pos, bb64_sq(from));
        bool capture = type == CHESS_MOVE_EN_PASSANT || (pos->colors[pos->side ^ 1] & bb64_sq(to));
        if (pt == CHESS_PAWN) {
            if (capture)
                *o++ = (char)('a' + (from & 7));
        } else {
            *o++ = s_san_chars[pt];
            o = s_disambiguate(pos, m, pt, o);
        }
        if (capture)
            *o++ = 'x';
        o = s_square(o, to);
        if (type == CHESS_MOVE_PROMOTION) {
            *o++ = '=';
            *o++ = s_san_chars[move_promo(m)];
        }
    }
    chess_pos_t child;
    make_move(pos, m, &child, false);
    int status = chess_status(&child);
    if (status & STATUS_CHECKMATE)
        *o++ = '#';
    else if (status & STATUS_IN_CHECK)
        *o++ = '+';
    *o = '\0';
}
