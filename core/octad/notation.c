/* notation.c: move texts, UOI (long algebraic) and SAN (RULES.md "Notation"). */
#include <string.h>

#include "legal.h"
#include "make.h"
#include "octad.h"

static const char PIECE_LETTERS[] = "PNBRQK";
static const char PROMO_LETTERS[] = "pnbrqk";

/* Writes the name of square sq ("a1") at w; returns the end. */
static char *s_put_square(char *w, int sq)
{
    *w++ = (char)('a' + bb_file(sq));
    *w++ = (char)('1' + bb_rank(sq));
    return w;
}

void octad_move_uoi(const octad_pos_t *pos, octad_move_t m, char *buf)
{
    (void)pos;
    char *w = s_put_square(buf, octad_move_from(m));
    w = s_put_square(w, octad_move_to(m));
    if (octad_move_is_promo(m))
        *w++ = PROMO_LETTERS[octad_move_promo_type(m)];
    *w = '\0';
}

/* SAN of a castle: O, O-O, or O-O-O (the higher-file swap when both pawn neighbours castle). */
static const char *s_castle_text(const octad_pos_t *pos, octad_move_t m)
{
    int kind = octad_move_kind(m), k = octad_move_from(m), ps = octad_move_to(m);
    if (kind == OCTAD_MK_CASTLE_NEAR)
        return "O";
    if (kind == OCTAD_MK_CASTLE_FAR)
        return "O-O-O";
    int other = 2 * k - ps; /* the king's other neighbour */
    bb_t own_pawns = (bb_t)(pos->type[OCTAD_PAWN] & pos->color[pos->side]);
    if (ps > k && bb_file(other) == bb_file(k) - 1 && (own_pawns & bb_sq(other)))
        return "O-O-O";
    return "O-O";
}

/* Origin disambiguation (file, then rank, then both) against other legal
 * moves of the same piece type to the same square. */
static char *s_put_disambiguation(const octad_pos_t *pos, octad_move_t m, char *w)
{
    octad_move_t moves[GAME_MOVES_MAX];
    int n = octad_gen_legal(pos, moves), from = octad_move_from(m);
    int clash = 0, same_file = 0, same_rank = 0;
    for (int i = 0; i < n; i++) {
        octad_move_t o = moves[i];
        if (octad_move_from(o) == from || octad_move_to(o) != octad_move_to(m)
            || octad_move_piece(o) != octad_move_piece(m) || octad_move_is_castle(o))
            continue;
        clash = 1;
        same_file |= bb_file(octad_move_from(o)) == bb_file(from);
        same_rank |= bb_rank(octad_move_from(o)) == bb_rank(from);
    }
    if (!clash)
        return w;
    if (!same_file) {
        *w++ = (char)('a' + bb_file(from));
    } else if (!same_rank) {
        *w++ = (char)('1' + bb_rank(from));
    } else {
        w = s_put_square(w, from);
    }
    return w;
}

void octad_move_san(const octad_pos_t *pos, octad_move_t m, char *buf)
{
    char *w = buf;
    int piece = octad_move_piece(m), to = octad_move_to(m);
    int capture = octad_move_kind(m) == OCTAD_MK_EN_PASSANT
                  || (!octad_move_is_castle(m) && (pos->color[pos->side ^ 1] & bb_sq(to)));
    if (octad_move_is_castle(m)) {
        strcpy(w, s_castle_text(pos, m));
        w += strlen(w);
    } else {
        if (piece != OCTAD_PAWN) {
            *w++ = PIECE_LETTERS[piece];
            w = s_put_disambiguation(pos, m, w);
        } else if (capture) {
            *w++ = (char)('a' + bb_file(octad_move_from(m)));
        }
        if (capture)
            *w++ = 'x';
        w = s_put_square(w, to);
        if (octad_move_is_promo(m)) {
            *w++ = '=';
            *w++ = PIECE_LETTERS[octad_move_promo_type(m)];
        }
    }
    octad_pos_t child;
    make_move(pos, m, &child);
    int status = octad_status(&child);
    if (status & OCTAD_CHECKMATE)
        *w++ = '#';
    else if (status & OCTAD_IN_CHECK)
        *w++ = '+';
    *w = '\0';
}
