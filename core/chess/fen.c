/* fen.c: strict FEN parsing and canonical formatting for chess and Chess960. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bitboard.h"
#include "chess.h"
#include "fen.h"
#include "movegen.h"
#include "zobrist.h"

enum { FEN_FIELDS_MAX = 6 };

static const char s_piece_chars[] = "pnbrqk";

/* Places one rank's text (between slashes) on rank r; 0 or -1. */
static int s_parse_rank(chess_pos_t *pos, const char *s, size_t len, int r, char *err, size_t errlen)
{
    int file = 0;
    bool last_digit = false;
    for (size_t i = 0; i < len; i++) {
        char ch = s[i];
        if (ch >= '1' && ch <= '8') {
            if (last_digit)
                return err_printf(err, errlen, "placement: rank %d has two digits in a row", r + 1);
            file += ch - '0';
            last_digit = true;
        } else {
            const char *p = strchr(s_piece_chars, tolower((unsigned char)ch));
            if (!p || ch == '\0')
                return err_printf(err, errlen, "placement: unexpected character '%c' on rank %d", ch, r + 1);
            if (file >= 8)
                return err_printf(err, errlen, "placement: rank %d has more than 8 files", r + 1);
            int sq = 8 * r + file++;
            pos->pieces[p - s_piece_chars] |= bb64_sq(sq);
            pos->colors[isupper((unsigned char)ch) ? CHESS_WHITE : CHESS_BLACK] |= bb64_sq(sq);
            last_digit = false;
        }
        if (file > 8)
            return err_printf(err, errlen, "placement: rank %d has more than 8 files", r + 1);
    }
    if (file < 8)
        return err_printf(err, errlen, "placement: rank %d has %d files, expected 8", r + 1, file);
    return 0;
}

/* Field 1: ranks 8 to 1, exactly one king each, no pawn on a first or last rank. */
static int s_parse_placement(chess_pos_t *pos, const char *s, char *err, size_t errlen)
{
    int r = 7;
    for (;;) {
        const char *slash = strchr(s, '/');
        size_t len = slash ? (size_t)(slash - s) : strlen(s);
        if (s_parse_rank(pos, s, len, r, err, errlen) < 0)
            return -1;
        if (!slash)
            break;
        if (r == 0)
            return err_printf(err, errlen, "placement: more than 8 ranks");
        r--;
        s = slash + 1;
    }
    if (r != 0)
        return err_printf(err, errlen, "placement: %d ranks, expected 8", 8 - r);
    for (int c = 0; c < CHESS_COLOR_NB; c++) {
        int kings = bb64_count(pos->pieces[CHESS_KING] & pos->colors[c]);
        if (kings != 1)
            return err_printf(err, errlen, "placement: %s has %d kings, expected 1", c ? "black" : "white", kings);
    }
    if (pos->pieces[CHESS_PAWN] & (BB_RANK_1_MASK | BB_RANK_8_MASK))
        return err_printf(err, errlen, "placement: a pawn on the first or last rank");
    return 0;
}

/* Field 4: "-" or a square just behind a pawn of the side not to move that may have just moved two. */
static int s_parse_ep(chess_pos_t *pos, const char *s, char *err, size_t errlen)
{
    pos->ep = CHESS_SQ_NONE;
    if (strcmp(s, "-") == 0)
        return 0;
    if (strlen(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8')
        return err_printf(err, errlen, "en passant: '%.8s' is not '-' or a square", s);
    int sq = (s[0] - 'a') + 8 * (s[1] - '1');
    int us = pos->side, rank = us == CHESS_WHITE ? 5 : 2;
    if ((sq >> 3) != rank)
        return err_printf(err, errlen, "en passant: %s is not on rank %d", s, rank + 1);
    int pawn_sq = us == CHESS_WHITE ? sq - 8 : sq + 8, from_sq = us == CHESS_WHITE ? sq + 8 : sq - 8;
    uint64_t occ = pos->colors[0] | pos->colors[1];
    if (!(pos->pieces[CHESS_PAWN] & pos->colors[us ^ 1] & bb64_sq(pawn_sq)))
        return err_printf(err, errlen, "en passant: %s has no %s pawn in front of it", s,
                         us == CHESS_WHITE ? "black" : "white");
    if (occ & (bb64_sq(sq) | bb64_sq(from_sq)))
        return err_printf(err, errlen, "en passant: %s or the square behind it is occupied", s);
    pos->ep = (uint8_t)sq;
    return 0;
}

/* Fields 5 and 6: a decimal number in [lo, hi] without sign or spaces. */
static int s_parse_number(const char *s, const char *what, long lo, long hi, long *out, char *err, size_t errlen)
{
    long v = 0;
    if (!*s)
        return err_printf(err, errlen, "%s: empty", what);
    for (const char *p = s; *p; p++) {
        if (!isdigit((unsigned char)*p))
            return err_printf(err, errlen, "%s: '%.12s' is not a number", what, s);
        if (v > hi)
            break;
        v = v * 10 + (*p - '0');
    }
    if (v < lo || v > hi)
        return err_printf(err, errlen, "%s: '%.12s' is out of range %ld-%ld", what, s, lo, hi);
    *out = v;
    return 0;
}

/* Splits text into at most FEN_FIELDS_MAX space-separated fields copied into buf; returns count or -1. */
static int s_split(const char *text, char *buf, size_t buflen, char **fields, char *err, size_t errlen)
{
    size_t len = strlen(text);
    if (len >= buflen)
        return err_printf(err, errlen, "FEN: longer than %zu characters", buflen - 1);
    memcpy(buf, text, len + 1);
    int n = 0;
    char *s = buf;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
            *s++ = '\0';
        if (!*s)
            break;
        if (n == FEN_FIELDS_MAX)
            return err_printf(err, errlen, "FEN: unexpected text after the full-move number: '%.16s'", s);
        fields[n++] = s;
        while (*s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
            s++;
    }
    if (n < 4)
        return err_printf(err, errlen, "FEN: truncated, %d of at least 4 fields (placement, side, castling, en passant)", n);
    if (n == 5)
        return err_printf(err, errlen, "FEN: half-move clock without a full-move number");
    return n;
}

/* Fields 2, 5 and 6, and the rule that the side not to move is not in check. */
static int s_parse_rest(chess_pos_t *pos, char **f, int n, char *err, size_t errlen)
{
    long half = 0, full = 1;
    if (n == 6 && (s_parse_number(f[4], "half-move clock", 0, 255, &half, err, errlen) < 0
                   || s_parse_number(f[5], "full-move number", 1, 65535, &full, err, errlen) < 0))
        return -1;
    pos->halfmove = (uint8_t)half;
    pos->fullmove = (uint16_t)full;
    chess_pos_t flip = *pos;
    flip.side ^= 1;
    if (movegen_checkers(&flip))
        return err_printf(err, errlen, "side: %s is to move but %s is in check", pos->side ? "black" : "white",
                         pos->side ? "white" : "black");
    return 0;
}

int chess_parse(variant_t variant, const char *text, chess_pos_t *out, char *err, size_t errlen)
{
    char buf[256], *f[FEN_FIELDS_MAX];
    chess_pos_t pos;
    memset(&pos, 0, sizeof(pos));
    if (variant != VARIANT_CHESS && variant != VARIANT_CHESS960)
        return err_printf(err, errlen, "variant: not chess or chess960");
    if (!text)
        return err_printf(err, errlen, "FEN: missing");
    pos.variant = (uint8_t)variant;
    int n = s_split(text, buf, sizeof(buf), f, err, errlen);
    if (n < 0 || s_parse_placement(&pos, f[0], err, errlen) < 0)
        return -1;
    if (strcmp(f[1], "w") != 0 && strcmp(f[1], "b") != 0)
        return err_printf(err, errlen, "side: '%.8s' is not 'w' or 'b'", f[1]);
    pos.side = f[1][0] == 'w' ? CHESS_WHITE : CHESS_BLACK;
    if (fen_parse_castling(&pos, f[2], err, errlen) < 0 || s_parse_ep(&pos, f[3], err, errlen) < 0
        || s_parse_rest(&pos, f, n, err, errlen) < 0)
        return -1;
    zob_compute(&pos);
    *out = pos;
    return 0;
}

/* Writes fields 1-4 into buf (at least GAME_TEXT_MAX bytes); returns the length. */
static size_t s_format_fields(const chess_pos_t *pos, bool key_only, char *buf)
{
    char *o = buf;
    for (int r = 7; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 8; f++) {
            uint64_t b = bb64_sq(8 * r + f);
            if (!((pos->colors[0] | pos->colors[1]) & b)) {
                empty++;
                continue;
            }
            if (empty)
                *o++ = (char)('0' + empty);
            empty = 0;
            int t = 0;
            while (!(pos->pieces[t] & b))
                t++;
            *o++ = pos->colors[CHESS_WHITE] & b ? (char)toupper(s_piece_chars[t]) : s_piece_chars[t];
        }
        if (empty)
            *o++ = (char)('0' + empty);
        if (r)
            *o++ = '/';
    }
    *o++ = ' ';
    *o++ = pos->side == CHESS_WHITE ? 'w' : 'b';
    *o++ = ' ';
    fen_format_castling(pos, o);
    o += strlen(o);
    *o++ = ' ';
    bool show_ep = key_only ? zob_ep_hashed(pos) : pos->ep != CHESS_SQ_NONE;
    if (show_ep) {
        *o++ = (char)('a' + (pos->ep & 7));
        *o++ = (char)('1' + (pos->ep >> 3));
    } else {
        *o++ = '-';
    }
    *o = '\0';
    return (size_t)(o - buf);
}

void chess_format(const chess_pos_t *pos, char *buf, size_t len)
{
    char tmp[GAME_TEXT_MAX];
    size_t n = s_format_fields(pos, false, tmp);
    snprintf(tmp + n, sizeof(tmp) - n, " %u %u", pos->halfmove, pos->fullmove);
    if (len)
        snprintf(buf, len, "%s", tmp);
}

void chess_format_key(const chess_pos_t *pos, char *buf, size_t len)
{
    char tmp[GAME_TEXT_MAX];
    s_format_fields(pos, true, tmp);
    if (len)
        snprintf(buf, len, "%s", tmp);
}
