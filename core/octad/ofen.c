/* ofen.c: strict OFEN parsing and canonical formatting (RULES.md "OFEN"). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "legal.h"
#include "err.h"
#include "octad.h"

const char OCTAD_START_OFEN[] = "ppkn/4/4/NKPP w NCFncf - 0 1";

static const char PIECE_CHARS[] = "PNBRQK";
static const char PIECE_CHARS_BOTH[] = "PNBRQKpnbrqk";
static const char ROLE_CHARS[] = "NCF";
static const char ROLE_CHARS_BOTH[] = "NCFncf";

enum { OFEN_FIELD_NB = 6, OFEN_NUMBER_MAX = OCTAD_COUNTER_MAX };

/* Role squares of one side's castling letters N, C, F (OCTAD_SQ_NONE if empty). */
typedef struct {
    int sq[3];
} ofen_roles_t;

/* Prints byte c readably for an error message. */
static const char *s_show_char(char c, char *buf)
{
    if (c >= 33 && c <= 126)
        snprintf(buf, 8, "'%c'", c);
    else
        snprintf(buf, 8, "0x%02x", (unsigned char)c);
    return buf;
}

/* Piece on sq: colour in *c, type returned; -1 if empty. */
static int s_piece_at(const octad_pos_t *p, int sq, int *c)
{
    for (int t = 0; t < OCTAD_PIECE_TYPE_NB; t++)
        if (p->type[t] & bb_sq(sq)) {
            *c = (p->color[OCTAD_BLACK] & bb_sq(sq)) ? OCTAD_BLACK : OCTAD_WHITE;
            return t;
        }
    return -1;
}

/* The N, C, F role squares of colour c in the current placement. */
static ofen_roles_t s_roles(const octad_pos_t *p, int c)
{
    ofen_roles_t r = { { OCTAD_SQ_NONE, OCTAD_SQ_NONE, OCTAD_SQ_NONE } };
    int home = c == OCTAD_WHITE ? 0 : 12;
    bb_t king = (bb_t)(p->type[OCTAD_KING] & p->color[c]);
    if (!king || bb_rank(bb_lsb(king)) != bb_rank(home))
        return r;
    int kf = bb_file(bb_lsb(king));
    bb_t knights = (bb_t)(p->type[OCTAD_KNIGHT] & p->color[c]);
    bb_t pawns = (bb_t)(p->type[OCTAD_PAWN] & p->color[c]);
    int near_pawns[2], nn = 0;
    for (int f = kf - 1; f <= kf + 1; f += 2) {
        if (f < 0 || f > 3)
            continue;
        if ((knights & bb_sq(home + f)) && r.sq[0] == OCTAD_SQ_NONE)
            r.sq[0] = home + f;
        if (pawns & bb_sq(home + f))
            near_pawns[nn++] = home + f;
    }
    if (nn >= 1)
        r.sq[1] = near_pawns[0];
    if (nn == 2) {
        r.sq[2] = near_pawns[1];
    } else {
        for (int f = kf - 2; f <= kf + 2; f += 4)
            if (f >= 0 && f <= 3 && (pawns & bb_sq(home + f)))
                r.sq[2] = home + f;
    }
    return r;
}

/* Field 1: placement, rank 4 first. */
static int s_parse_placement(const char *s, octad_pos_t *p, char *err, size_t errlen)
{
    int rank = 3, file = 0;
    char cb[8];
    for (; *s; s++) {
        if (*s == '/') {
            if (file != 4)
                return err_printf(err, errlen, "placement: rank %d has %d squares", rank + 1, file);
            if (--rank < 0)
                return err_printf(err, errlen, "placement: more than 4 ranks");
            file = 0;
        } else if (*s >= '1' && *s <= '4') {
            if (s[1] >= '0' && s[1] <= '9')
                return err_printf(err, errlen, "placement: rank %d has two digits in a row", rank + 1);
            file += *s - '0';
            if (file > 4)
                return err_printf(err, errlen, "placement: rank %d has more than 4 squares", rank + 1);
        } else {
            const char *c = memchr(PIECE_CHARS_BOTH, *s, 12);
            if (!c)
                return err_printf(err, errlen, "placement: unknown piece letter %s", s_show_char(*s, cb));
            if (file >= 4)
                return err_printf(err, errlen, "placement: rank %d has more than 4 squares", rank + 1);
            int idx = (int)(c - PIECE_CHARS_BOTH), sq = rank * 4 + file++;
            p->type[idx % 6] |= bb_sq(sq);
            p->color[idx / 6] |= bb_sq(sq);
        }
    }
    if (file != 4)
        return err_printf(err, errlen, "placement: rank %d has %d squares", rank + 1, file);
    if (rank != 0)
        return err_printf(err, errlen, "placement: %d ranks instead of 4", 4 - rank);
    return 0;
}

/* Field 3: castling letters, mapped to role squares (letters whose role is empty are dropped). */
static int s_parse_castling(const char *s, octad_pos_t *p, char *err, size_t errlen)
{
    char cb[8];
    if (strcmp(s, "-") == 0)
        return 0;
    if (!*s)
        return err_printf(err, errlen, "castling: empty field");
    ofen_roles_t roles[2] = { s_roles(p, OCTAD_WHITE), s_roles(p, OCTAD_BLACK) };
    int seen = 0;
    for (; *s; s++) {
        const char *c = memchr(ROLE_CHARS_BOTH, *s, 6);
        if (!c)
            return err_printf(err, errlen, "castling: unknown letter %s", s_show_char(*s, cb));
        int idx = (int)(c - ROLE_CHARS_BOTH);
        if (seen & (1 << idx))
            return err_printf(err, errlen, "castling: repeated letter '%c'", *s);
        seen |= 1 << idx;
        int sq = roles[idx / 3].sq[idx % 3];
        if (sq != OCTAD_SQ_NONE)
            p->castle |= bb_sq(sq);
    }
    return 0;
}

/* Field 4: en-passant target. */
static int s_parse_ep(const char *s, octad_pos_t *p, char *err, size_t errlen)
{
    if (strcmp(s, "-") == 0)
        return 0;
    if (strlen(s) != 2 || s[0] < 'a' || s[0] > 'd' || s[1] < '1' || s[1] > '4')
        return err_printf(err, errlen, "en passant: \"%.8s\" is not a square or '-'", s);
    int sq = (s[1] - '1') * 4 + (s[0] - 'a');
    int white_moved = p->side == OCTAD_BLACK;
    if (bb_rank(sq) != (white_moved ? 1 : 2))
        return err_printf(err, errlen, "en passant: %s is on the wrong rank for %s to move", s,
                      white_moved ? "Black" : "White");
    int pawn_sq = white_moved ? sq + 4 : sq - 4, origin = white_moved ? sq - 4 : sq + 4;
    int mover = white_moved ? OCTAD_WHITE : OCTAD_BLACK;
    if (!(p->type[OCTAD_PAWN] & p->color[mover] & bb_sq(pawn_sq)))
        return err_printf(err, errlen, "en passant: no double-stepped pawn in front of %s", s);
    if ((p->color[0] | p->color[1]) & (bb_sq(sq) | bb_sq(origin)))
        return err_printf(err, errlen, "en passant: %s or the square behind it is occupied", s);
    p->ep = (uint8_t)sq;
    return 0;
}

/* Fields 5 and 6: a decimal number in [min, OFEN_NUMBER_MAX]. */
static int s_parse_number(const char *s, const char *field, uint32_t min, uint32_t *out,
                          char *err, size_t errlen)
{
    uint64_t v = 0;
    if (!*s)
        return err_printf(err, errlen, "%s: empty", field);
    for (const char *c = s; *c; c++) {
        if (*c < '0' || *c > '9')
            return err_printf(err, errlen, "%s: \"%.12s\" is not a non-negative integer", field, s);
        v = v * 10 + (uint64_t)(*c - '0');
        if (v > OFEN_NUMBER_MAX)
            return err_printf(err, errlen, "%s: \"%.12s\" is too large", field, s);
    }
    if (v < min)
        return err_printf(err, errlen, "%s: %llu is below %u", field, (unsigned long long)v, min);
    *out = (uint32_t)v;
    return 0;
}

/* Whole-position checks: kings, pawns on promotion ranks, side not to move in check. */
static int s_validate(const octad_pos_t *p, char *err, size_t errlen)
{
    static const char *NAMES[2] = { "White", "Black" };
    for (int c = 0; c < 2; c++) {
        int kings = bb_count(p->type[OCTAD_KING] & p->color[c]);
        if (kings != 1)
            return err_printf(err, errlen, "placement: %s has %d kings", NAMES[c], kings);
    }
    if ((p->type[OCTAD_PAWN] & p->color[OCTAD_WHITE] & BB_RANK_4)
        || (p->type[OCTAD_PAWN] & p->color[OCTAD_BLACK] & BB_RANK_1))
        return err_printf(err, errlen, "placement: a pawn stands on its promotion rank");
    int them = p->side ^ 1;
    int ksq = bb_lsb(p->type[OCTAD_KING] & p->color[them]);
    if (legal_attackers_to(p, ksq, (bb_t)(p->color[0] | p->color[1]), p->side))
        return err_printf(err, errlen, "placement: %s, not to move, is in check", NAMES[them]);
    return 0;
}

/* Splits text (trimmed) at single spaces into exactly 6 fields inside buf. */
static int s_split(const char *text, char *buf, size_t size, char **fields, char *err, size_t errlen)
{
    while (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\r')
        text++;
    size_t len = strlen(text);
    while (len && (text[len - 1] == ' ' || text[len - 1] == '\t' || text[len - 1] == '\n'
                   || text[len - 1] == '\r'))
        len--;
    if (len == 0)
        return err_printf(err, errlen, "OFEN: empty text");
    if (len >= size)
        return err_printf(err, errlen, "OFEN: text longer than %zu characters", size - 1);
    memcpy(buf, text, len);
    buf[len] = '\0';
    int n = 0;
    for (char *s = buf;;) {
        if (n == OFEN_FIELD_NB)
            return err_printf(err, errlen, "OFEN: more than %d fields", OFEN_FIELD_NB);
        fields[n++] = s;
        char *sp = strchr(s, ' ');
        if (sp)
            *sp = '\0';
        if (!*s)
            return err_printf(err, errlen, "OFEN: empty field %d (fields are separated by single spaces)", n);
        if (!sp)
            break;
        s = sp + 1;
    }
    if (n != OFEN_FIELD_NB)
        return err_printf(err, errlen, "OFEN: %d fields instead of %d", n, OFEN_FIELD_NB);
    return 0;
}

int octad_parse(const char *text, octad_pos_t *out, char *err, size_t errlen)
{
    char buf[GAME_TEXT_MAX * 2], *f[OFEN_FIELD_NB];
    octad_pos_t p;
    memset(&p, 0, sizeof p);
    p.ep = OCTAD_SQ_NONE;
    if (!text)
        return err_printf(err, errlen, "OFEN: no text");
    if (s_split(text, buf, sizeof buf, f, err, errlen) || s_parse_placement(f[0], &p, err, errlen))
        return -1;
    if (strcmp(f[1], "w") && strcmp(f[1], "b"))
        return err_printf(err, errlen, "side to move: \"%.8s\" is not 'w' or 'b'", f[1]);
    p.side = f[1][0] == 'w' ? OCTAD_WHITE : OCTAD_BLACK;
    if (s_validate(&p, err, errlen) || s_parse_castling(f[2], &p, err, errlen)
        || s_parse_ep(f[3], &p, err, errlen)
        || s_parse_number(f[4], "halfmove clock", 0, &p.halfmove, err, errlen)
        || s_parse_number(f[5], "fullmove number", 1, &p.fullmove, err, errlen))
        return -1;
    for (int c = 0; c < OCTAD_COLOR_NB; c++)
        p.ksq[c] = (uint8_t)bb_lsb(p.type[OCTAD_KING] & p.color[c]);
    *out = p;
    return 0;
}

/* Castling letters of the position into s (at least 7 bytes). */
static void s_format_castling(const octad_pos_t *p, char *s)
{
    char *w = s;
    for (int c = 0; c < 2; c++) {
        ofen_roles_t r = s_roles(p, c);
        for (int i = 0; i < 3; i++)
            if (r.sq[i] != OCTAD_SQ_NONE && (p->castle & bb_sq(r.sq[i])))
                *w++ = (char)(c == OCTAD_WHITE ? ROLE_CHARS[i] : ROLE_CHARS[i] + ('a' - 'A'));
    }
    if (w == s)
        *w++ = '-';
    *w = '\0';
}

void octad_format_key(const octad_pos_t *pos, char *buf, size_t len)
{
    char board[32], *w = board, castling[8], ep[3] = "-";
    for (int rank = 3; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 4; file++) {
            int c, t = s_piece_at(pos, rank * 4 + file, &c);
            if (t < 0) {
                empty++;
                continue;
            }
            if (empty)
                *w++ = (char)('0' + empty);
            empty = 0;
            *w++ = c == OCTAD_WHITE ? PIECE_CHARS[t] : (char)(PIECE_CHARS[t] + ('a' - 'A'));
        }
        if (empty)
            *w++ = (char)('0' + empty);
        if (rank)
            *w++ = '/';
    }
    *w = '\0';
    s_format_castling(pos, castling);
    if (pos->ep != OCTAD_SQ_NONE) {
        ep[0] = (char)('a' + bb_file(pos->ep));
        ep[1] = (char)('1' + bb_rank(pos->ep));
        ep[2] = '\0';
    }
    snprintf(buf, len, "%s %c %s %s", board, pos->side == OCTAD_WHITE ? 'w' : 'b', castling, ep);
}

void octad_format(const octad_pos_t *pos, char *buf, size_t len)
{
    char key[GAME_TEXT_MAX];
    octad_format_key(pos, key, sizeof key);
    snprintf(buf, len, "%s %u %u", key, (unsigned)pos->halfmove, (unsigned)pos->fullmove);
}
