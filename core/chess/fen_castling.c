/* fen_castling.c: the FEN castling field in KQkq, X-FEN and Shredder-FEN forms. */
#include <ctype.h>

#include "bitboard.h"
#include "chess.h"
#include "fen.h"

/* Rooks of colour c on its first rank, on the king's side given by king_side. */
static uint64_t s_side_rooks(const chess_pos_t *pos, int c, int ksq, int king_side)
{
    uint64_t rank = c == CHESS_WHITE ? BB_RANK_1_MASK : BB_RANK_8_MASK;
    uint64_t rooks = pos->pieces[CHESS_ROOK] & pos->colors[c] & rank;
    uint64_t side = king_side ? ~(bb64_sq(ksq) * 2 - 1) : bb64_sq(ksq) - 1;
    return rooks & side;
}

/* Rook square named by ch for colour c, or -1 with a message. */
static int s_rook_for(const chess_pos_t *pos, char ch, int c, int ksq, char *err, size_t errlen)
{
    const char *who = c == CHESS_WHITE ? "white" : "black";
    char up = (char)toupper((unsigned char)ch);
    if (up == 'K' || up == 'Q') {
        uint64_t rooks = s_side_rooks(pos, c, ksq, up == 'K');
        if (!rooks)
            return err_printf(err, errlen, "castling: '%c' but no %s rook on the %s side of the %s king",
                             ch, who, up == 'K' ? "king's" : "queen's", who);
        return up == 'K' ? 63 - __builtin_clzll(rooks) : bb64_lsb(rooks); /* the outermost */
    }
    int sq = (c == CHESS_WHITE ? 0 : 56) + (up - 'A');
    if (!(pos->pieces[CHESS_ROOK] & pos->colors[c] & bb64_sq(sq)))
        return err_printf(err, errlen, "castling: '%c' but no %s rook on %c%c", ch, who, (char)tolower(up),
                         c == CHESS_WHITE ? '1' : '8');
    if (sq == ksq)
        return err_printf(err, errlen, "castling: '%c' names the king's own file", ch);
    return sq;
}

/* Checks the king of colour c may castle at all and returns its square, or -1. */
static int s_castling_king(const chess_pos_t *pos, char ch, int c, char *err, size_t errlen)
{
    const char *who = c == CHESS_WHITE ? "white" : "black";
    int ksq = bb64_lsb(pos->pieces[CHESS_KING] & pos->colors[c]);
    int home_rank = c == CHESS_WHITE ? 0 : 7;
    if ((ksq >> 3) != home_rank)
        return err_printf(err, errlen, "castling: '%c' but the %s king is not on its first rank", ch, who);
    if (pos->variant == VARIANT_CHESS && (ksq & 7) != 4)
        return err_printf(err, errlen, "castling: '%c' but the %s king is not on e%d (standard chess)", ch,
                         who, home_rank + 1);
    return ksq;
}

/* Adds one castling letter's right to pos->castle_rooks; 0 or -1. */
static int s_add_right(chess_pos_t *pos, char ch, char *err, size_t errlen)
{
    char up = (char)toupper((unsigned char)ch);
    if (up != 'K' && up != 'Q' && (up < 'A' || up > 'H'))
        return err_printf(err, errlen, "castling: unexpected character '%c'", ch);
    int c = isupper((unsigned char)ch) ? CHESS_WHITE : CHESS_BLACK;
    int ksq = s_castling_king(pos, ch, c, err, errlen);
    if (ksq < 0)
        return -1;
    int rsq = s_rook_for(pos, ch, c, ksq, err, errlen);
    if (rsq < 0)
        return -1;
    int king_side = rsq > ksq;
    if (pos->variant == VARIANT_CHESS && (rsq & 7) != (king_side ? 7 : 0))
        return err_printf(err, errlen, "castling: '%c' needs the rook on the %c-file in standard chess", ch,
                         king_side ? 'h' : 'a');
    if (s_side_rooks(pos, c, ksq, king_side) & pos->castle_rooks)
        return err_printf(err, errlen, "castling: two %s rights on the %s side", c == CHESS_WHITE ? "white" : "black",
                         king_side ? "king's" : "queen's");
    pos->castle_rooks |= bb64_sq(rsq);
    return 0;
}

int fen_parse_castling(chess_pos_t *pos, const char *field, char *err, size_t errlen)
{
    pos->castle_rooks = 0;
    if (field[0] == '-' && field[1] == '\0')
        return 0;
    if (field[0] == '\0')
        return err_printf(err, errlen, "castling: empty field");
    for (const char *s = field; *s; s++) {
        if (s - field >= 4)
            return err_printf(err, errlen, "castling: more than four rights in '%.16s'", field);
        if (s_add_right(pos, *s, err, errlen) < 0)
            return -1;
    }
    return 0;
}

/* Appends colour c's rights: KQ-style in chess, file letters (king's side first) in Chess960. */
static char *s_format_color(const chess_pos_t *pos, int c, char *out)
{
    uint64_t rank = c == CHESS_WHITE ? BB_RANK_1_MASK : BB_RANK_8_MASK;
    uint64_t rooks = pos->castle_rooks & rank;
    int ksq = bb64_lsb(pos->pieces[CHESS_KING] & pos->colors[c]);
    for (int king_side = 1; king_side >= 0; king_side--) {
        uint64_t r = rooks & s_side_rooks(pos, c, ksq, king_side);
        if (!r)
            continue;
        char ch = pos->variant == VARIANT_CHESS ? (king_side ? 'K' : 'Q') : (char)('A' + (bb64_lsb(r) & 7));
        *out++ = c == CHESS_WHITE ? ch : (char)tolower((unsigned char)ch);
    }
    return out;
}

void fen_format_castling(const chess_pos_t *pos, char *buf)
{
    char *out = s_format_color(pos, CHESS_WHITE, buf);
    out = s_format_color(pos, CHESS_BLACK, out);
    if (out == buf)
        *out++ = '-';
    *out = '\0';
}
