/* ofen.c: reads OFEN for the certificate checker (docs/rules.md, "OFEN"): six fields, the
 * castling letters as roles worked out from the position, and every refusal the rules list. */
#include "board.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int s_fail(char *err, int len, const char *msg)
{
    snprintf(err, (size_t)len, "%s", msg);
    return -1;
}

static int s_man(char c)
{
    const char *w = strchr("PNBRQK", c), *b = strchr("pnbrqk", c);
    if (c && w)
        return (int)(w - "PNBRQK") + CC_P;
    if (c && b)
        return ((int)(b - "pnbrqk") + CC_P) | CC_BLACK;
    return -1;
}

static int s_board(const char *f, cc_pos_t *p, char *err, int len)
{
    int r = 3, file = 0;
    for (; *f; f++) {
        if (*f == '/') {
            if (file != 4 || r == 0)
                return s_fail(err, len, "field 1 (men): a rank without 4 squares, or more than 4 ranks");
            r--, file = 0;
        } else if (*f >= '1' && *f <= '4') {
            file += *f - '0';
        } else {
            int man = s_man(*f);
            if (man < 0)
                return s_fail(err, len, "field 1 (men): unknown piece letter");
            if (file < 4)
                p->sq[r * 4 + file] = (uint8_t)man;
            file++;
        }
        if (file > 4)
            return s_fail(err, len, "field 1 (men): a rank with more than 4 squares");
    }
    if (r != 0 || file != 4)
        return s_fail(err, len, "field 1 (men): not 4 ranks of 4 squares");
    return 0;
}

/* The home-rank square of a castling letter's role for side, or -1 if the role is empty. */
static int s_role(const cc_pos_t *p, int side, char role)
{
    int home = side ? 3 : 0, ksq = -1, own = side ? CC_BLACK : 0;
    for (int f = 0; f < 4; f++)
        if (p->sq[home * 4 + f] == (CC_K | own))
            ksq = f;
    if (ksq < 0)
        return -1;
    int lo = ksq - 1, hi = ksq + 1;
    int lo_p = lo >= 0 && p->sq[home * 4 + lo] == (CC_P | own);
    int hi_p = hi < 4 && p->sq[home * 4 + hi] == (CC_P | own);
    if (role == 'N') {
        if (lo >= 0 && p->sq[home * 4 + lo] == (CC_N | own))
            return home * 4 + lo;
        if (hi < 4 && p->sq[home * 4 + hi] == (CC_N | own))
            return home * 4 + hi;
    } else if (role == 'C') {
        if (lo_p)
            return home * 4 + lo;
        if (hi_p)
            return home * 4 + hi;
    } else if (lo_p && hi_p) { /* F with two neighbouring pawns: the higher-file one */
        return home * 4 + hi;
    } else {
        for (int f = ksq - 2; f <= ksq + 2; f += 4)
            if (f >= 0 && f < 4 && p->sq[home * 4 + f] == (CC_P | own))
                return home * 4 + f;
    }
    return -1;
}

static int s_rights(const char *f, cc_pos_t *p, char *err, int len)
{
    if (!strcmp(f, "-"))
        return 0;
    for (const char *c = f; *c; c++) {
        const char *at = strchr("NCFncf", *c);
        if (!*c || !at || strchr(c + 1, *c))
            return s_fail(err, len, "field 3 (castling): a letter other than NCFncf, or repeated");
        int side = *c >= 'a', sq = s_role(p, side, (char)(side ? *c - 32 : *c));
        if (sq >= 0)
            p->rights |= (uint8_t)(1u << (side * 4 + sq % 4));
    }
    return 0;
}

static int s_number(const char *f, long min, long *out)
{
    char *end;
    if (!*f || *f == '-' || *f == '+')
        return -1;
    *out = strtol(f, &end, 10);
    return *end || *out < min || *out > 1000000 ? -1 : 0;
}

static int s_ep(const char *f, cc_pos_t *p, char *err, int len)
{
    if (!strcmp(f, "-"))
        return 0;
    if (strlen(f) != 2 || f[0] < 'a' || f[0] > 'd' || f[1] < '1' || f[1] > '4')
        return s_fail(err, len, "field 4 (en passant): not a square");
    int sq = (f[1] - '1') * 4 + (f[0] - 'a');
    int rank = p->side ? 1 : 2;                    /* where the jumped square lies */
    int pawn = sq + (p->side ? 4 : -4);            /* where the double-stepper stands */
    int want = CC_P | (p->side ? 0 : CC_BLACK);
    if (sq / 4 != rank || p->sq[pawn] != want || p->sq[sq])
        return s_fail(err, len, "field 4 (en passant): wrong rank, or no double-stepped pawn in front of it");
    p->ep = sq;
    return 0;
}

static int s_check_men(const cc_pos_t *p, char *err, int len)
{
    int kings[2] = {0, 0};
    for (int sq = 0; sq < 16; sq++) {
        int man = p->sq[sq];
        if ((man & 7) == CC_K)
            kings[man & CC_BLACK ? 1 : 0]++;
        if ((man & 7) == CC_P && sq / 4 == (man & CC_BLACK ? 0 : 3))
            return s_fail(err, len, "field 1 (men): a pawn on the rank where it would have promoted");
    }
    if (kings[0] != 1 || kings[1] != 1)
        return s_fail(err, len, "field 1 (men): a side without exactly one king");
    if (cc_in_check(p, !p->side))
        return s_fail(err, len, "field 2 (side): the side not to move stands in check");
    return 0;
}

int cc_parse_ofen(const char *text, cc_pos_t *p, char *err, int errlen)
{
    char buf[128], *field[7];
    int n = 0;
    memset(p, 0, sizeof *p);
    p->ep = -1;
    if (strlen(text) >= sizeof buf)
        return s_fail(err, errlen, "OFEN: too long");
    strcpy(buf, text);
    for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
        field[n < 7 ? n++ : 6] = tok;
    if (n != 6)
        return s_fail(err, errlen, "OFEN: not 6 fields");
    if (s_board(field[0], p, err, errlen))
        return -1;
    if (strcmp(field[1], "w") && strcmp(field[1], "b"))
        return s_fail(err, errlen, "field 2 (side): not w or b");
    p->side = field[1][0] == 'b';
    if (s_check_men(p, err, errlen) || s_rights(field[2], p, err, errlen) || s_ep(field[3], p, err, errlen))
        return -1;
    long clock, move;
    if (s_number(field[4], 0, &clock))
        return s_fail(err, errlen, "field 5 (halfmove clock): not a whole number from 0");
    if (s_number(field[5], 1, &move))
        return s_fail(err, errlen, "field 6 (move number): not a whole number from 1");
    p->clock = (int)clock;
    p->fullmove = (int)move;
    return 0;
}

void cc_format_ofen(const cc_pos_t *p, char *buf)
{
    static const char MEN[] = ".PNBRQK..pnbrqk.";
    char *o = buf;
    for (int r = 3; r >= 0; r--) {
        int run = 0;
        for (int f = 0; f < 4; f++) {
            int man = p->sq[r * 4 + f];
            if (!man) {
                run++;
                continue;
            }
            if (run)
                *o++ = (char)('0' + run), run = 0;
            *o++ = MEN[man & 15];
        }
        if (run)
            *o++ = (char)('0' + run);
        *o++ = r ? '/' : ' ';
    }
    *o++ = p->side ? 'b' : 'w';
    *o++ = ' ';
    char *rights = o;
    for (int side = 0; side < 2; side++)
        for (const char *role = "NCF"; *role; role++) {
            int sq = s_role(p, side, *role);
            if (sq >= 0 && (p->rights >> (side * 4 + sq % 4) & 1))
                *o++ = (char)(side ? *role + 32 : *role);
        }
    if (o == rights)
        *o++ = '-';
    if (p->ep >= 0)
        o += sprintf(o, " %c%c", 'a' + p->ep % 4, '1' + p->ep / 4);
    else
        o += sprintf(o, " -");
    sprintf(o, " %d %d", p->clock, p->fullmove);
}
