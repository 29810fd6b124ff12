/* sig.c: the 36 sides, table names and the solving order of pairs. */
#include "sig.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static sig_side_t s_sides[SIG_SIDE_NB];
static int s_pairs[SIG_SIDE_NB * (SIG_SIDE_NB + 1) / 2];
static int s_pair_of[SIG_TABLE_NB];
static int s_pair_nb;
static bool s_ready;

static const char LETTERS[5] = {'P', 'N', 'B', 'R', 'Q'};

static int s_pieces(const sig_side_t *s)
{
    return s->count[0] + s->count[1] + s->count[2] + s->count[3] + s->count[4];
}

/* Whether a side can hold this material: promoted pieces (a knight beyond the
 * first, every bishop, rook and queen) come from pawns that are gone. */
static bool s_possible(const sig_side_t *s)
{
    int promoted = s->count[2] + s->count[3] + s->count[4] + (s->count[1] > 1 ? s->count[1] - 1 : 0);
    return s->count[0] <= 2 && promoted <= 2 - s->count[0];
}

static int s_side_cmp(const void *a, const void *b)
{
    const sig_side_t *x = a, *y = b;
    int d = s_pieces(x) - s_pieces(y);
    if (d)
        return d;
    d = x->count[0] - y->count[0];
    if (d)
        return d;
    return memcmp(x->count, y->count, sizeof x->count);
}

static int s_pair_cmp(const void *a, const void *b)
{
    int ta = *(const int *)a, tb = *(const int *)b;
    int d = sig_table_pieces(ta) - sig_table_pieces(tb);
    if (d)
        return d;
    d = sig_side_pawns(sig_table_stm(ta)) + sig_side_pawns(sig_table_opp(ta))
        - sig_side_pawns(sig_table_stm(tb)) - sig_side_pawns(sig_table_opp(tb));
    return d ? d : ta - tb;
}

void sig_init(void)
{
    if (s_ready)
        return;
    int n = 0;
    for (int p = 0; p <= 2; p++)
        for (int k = 0; k <= 3; k++)
            for (int b = 0; b <= 2; b++)
                for (int r = 0; r <= 2; r++)
                    for (int q = 0; q <= 2; q++) {
                        sig_side_t s = {{(unsigned char)p, (unsigned char)k, (unsigned char)b,
                                         (unsigned char)r, (unsigned char)q}};
                        if (s_possible(&s) && n < SIG_SIDE_NB)
                            s_sides[n++] = s;
                    }
    qsort(s_sides, (size_t)n, sizeof s_sides[0], s_side_cmp);
    s_pair_nb = 0;
    for (int x = 0; x < SIG_SIDE_NB; x++)
        for (int y = x; y < SIG_SIDE_NB; y++)
            s_pairs[s_pair_nb++] = sig_table(x, y);
    s_ready = true; /* sig_table_pieces below needs the sides */
    qsort(s_pairs, (size_t)s_pair_nb, sizeof s_pairs[0], s_pair_cmp);
    for (int i = 0; i < s_pair_nb; i++) {
        s_pair_of[s_pairs[i]] = i;
        s_pair_of[sig_table_flip(s_pairs[i])] = i;
    }
}

sig_side_t sig_side(int id) { return s_sides[id]; }

int sig_side_id(const sig_side_t *s)
{
    for (int i = 0; i < SIG_SIDE_NB; i++)
        if (memcmp(s_sides[i].count, s->count, sizeof s->count) == 0)
            return i;
    return -1;
}

int sig_side_pieces(int id) { return s_pieces(&s_sides[id]); }
int sig_side_pawns(int id) { return s_sides[id].count[0]; }

int sig_table_pieces(int table)
{
    return 2 + sig_side_pieces(sig_table_stm(table)) + sig_side_pieces(sig_table_opp(table));
}

bool sig_table_dead(int table)
{
    sig_side_t a = s_sides[sig_table_stm(table)], b = s_sides[sig_table_opp(table)];
    int heavy = a.count[0] + a.count[3] + a.count[4] + b.count[0] + b.count[3] + b.count[4];
    int minors = a.count[1] + a.count[2] + b.count[1] + b.count[2];
    return heavy == 0 && minors <= 1;
}

static void s_side_name(const sig_side_t *s, char *out)
{
    int n = 0;
    out[n++] = 'K';
    for (int t = 4; t >= 0; t--)
        for (int i = 0; i < s->count[t]; i++)
            out[n++] = LETTERS[t];
    out[n] = '\0';
}

void sig_table_name(int table, char *buf, unsigned len)
{
    char a[8], b[8];
    s_side_name(&s_sides[sig_table_stm(table)], a);
    s_side_name(&s_sides[sig_table_opp(table)], b);
    snprintf(buf, len, "%sv%s", a, b);
}

/* Parses one side "KQN" into *s; returns the characters read or -1. */
static int s_parse_side(const char *t, sig_side_t *s)
{
    memset(s, 0, sizeof *s);
    if (toupper((unsigned char)t[0]) != 'K')
        return -1;
    int i = 1;
    for (; t[i] && t[i] != 'v' && t[i] != 'V'; i++) {
        const char *l = memchr(LETTERS, toupper((unsigned char)t[i]), sizeof LETTERS);
        if (!l || i > 6)
            return -1;
        s->count[l - LETTERS]++;
    }
    return i;
}

int sig_table_parse(const char *name, int *table, char *err, unsigned errlen)
{
    sig_side_t a, b;
    int n = s_parse_side(name, &a);
    if (n < 0 || (name[n] != 'v' && name[n] != 'V')) {
        snprintf(err, errlen, "table name '%.30s': expected pieces like KNPvKP (K first, then QRBNP, 'v' between sides)", name);
        return -1;
    }
    int m = s_parse_side(name + n + 1, &b);
    if (m < 0 || name[n + 1 + m] != '\0') {
        snprintf(err, errlen, "table name '%.30s': expected pieces like KNPvKP (K first, then QRBNP, 'v' between sides)", name);
        return -1;
    }
    int x = sig_side_id(&a), y = sig_side_id(&b);
    if (x < 0 || y < 0) {
        snprintf(err, errlen, "table name '%.30s': no octad side holds that material (a knight, two pawns and their promotions)", name);
        return -1;
    }
    *table = sig_table(x, y);
    return 0;
}

int sig_pair_nb(void) { return s_pair_nb; }
int sig_pair_table(int i) { return s_pairs[i]; }
int sig_pair_of(int table) { return s_pair_of[table]; }
