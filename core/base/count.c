/* count.c: printing and parsing of exact 128-bit perft counts. */
#include "count.h"

char *count_format(count_t n, char *buf)
{
    char tmp[COUNT_TEXT_MAX];
    int len = 0;
    do {
        tmp[len++] = (char)('0' + (int)(n % 10));
        n /= 10;
    } while (n != 0);
    for (int i = 0; i < len; i++)
        buf[i] = tmp[len - 1 - i];
    buf[len] = '\0';
    return buf;
}

int count_parse(const char *text, count_t *out)
{
    const count_t max = ~(count_t)0;
    count_t n = 0;
    if (text == NULL || *text == '\0')
        return -1;
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        unsigned d = (unsigned)(*p - '0');
        if (n > (max - d) / 10)
            return -1;
        n = n * 10 + d;
    }
    *out = n;
    return 0;
}

void count_print_stats(FILE *out, const perft_stats_t *s, variant_t v)
{
    char b[COUNT_TEXT_MAX];
    fprintf(out, "captures   %s\n", count_format(s->captures, b));
    fprintf(out, "ep         %s\n", count_format(s->en_passant, b));
    fprintf(out, "castles    %s\n", count_format(s->castles, b));
    if (v == VARIANT_OCTAD) {
        fprintf(out, "near       %s\n", count_format(s->castle_kind[CASTLE_NEAR], b));
        fprintf(out, "center     %s\n", count_format(s->castle_kind[CASTLE_CENTER], b));
        fprintf(out, "far        %s\n", count_format(s->castle_kind[CASTLE_FAR], b));
    }
    fprintf(out, "promotions %s\n", count_format(s->promotions, b));
    fprintf(out, "checks     %s\n", count_format(s->checks, b));
    fprintf(out, "checks-gct %s\n", count_format(s->checks - s->mates, b));
    fprintf(out, "disc-checks %s\n", count_format(s->discovered_checks, b));
    fprintf(out, "dbl-checks %s\n", count_format(s->double_checks, b));
    fprintf(out, "mates      %s\n", count_format(s->mates, b));
    fprintf(out, "stalemates %s\n", count_format(s->stalemates, b));
    fputs("convention checks include mates (chess programming wiki); checks-gct excludes them (Grand Chess Tree)\n",
          out);
}

void count_stats_child(perft_stats_t *s, int checkers, bool discovered, bool no_moves)
{
    if (checkers == 0) {
        s->stalemates += no_moves;
        return;
    }
    s->checks++;
    s->mates += no_moves;
    s->discovered_checks += discovered;
    s->double_checks += checkers > 1;
}
