/* start.c: standard, deployed and numbered starts (start.h). */
#include "start.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "rng.h"

/* The 12 orders of "KNPP" in alphabetical order; the k-th into out (5 bytes). */
static void s_order(int k, char *out)
{
    int found = 0;
    for (int a = 0; a < 256; a++) {
        char s[5] = {0};
        int counts[3] = {0};
        for (int i = 0; i < 4; i++) {
            int d = (a >> (2 * (3 - i))) & 3;
            if (d == 3)
                goto next;
            s[i] = "KNP"[d];
            counts[d]++;
        }
        if (counts[0] == 1 && counts[1] == 1 && counts[2] == 2 && found++ == k) {
            memcpy(out, s, 5);
            return;
        }
    next:;
    }
}

int start_deployed_ofen(int n, char *buf, size_t len)
{
    char w[5], b[5], black[5];
    if (n < 0 || n >= START_DEPLOYED_NB)
        return -1;
    s_order(n / 12, w);
    s_order(n % 12, b);
    for (int i = 0; i < 4; i++)
        black[i] = (char)(b[3 - i] - 'A' + 'a'); /* Black's left is file d */
    black[4] = '\0';
    snprintf(buf, len, "%s/4/4/%s w NCFncf - 0 1", black, w);
    return 0;
}

int start_position(variant_t v, const char *spec, uint64_t *rng, game_pos_t *out, char *err, size_t errlen)
{
    char text[GAME_TEXT_MAX];
    long n = -1;
    if (spec == NULL || strcmp(spec, "standard") == 0)
        return game_parse(v, game_start_text(v), out, err, errlen);
    if (strcmp(spec, "deployed") == 0) {
        if (v == VARIANT_CHESS)
            return err_printf(err, errlen, "--start deployed: chess has one start (use chess960)");
        n = (long)(rng_next(rng) % (v == VARIANT_OCTAD ? START_DEPLOYED_NB : 960));
    } else {
        char *end;
        n = strtol(spec, &end, 10);
        if (*spec == '\0' || *end != '\0' || n < 0 || v == VARIANT_CHESS
            || n >= (v == VARIANT_OCTAD ? START_DEPLOYED_NB : 960))
            return err_printf(err, errlen, "--start '%.20s': standard, deployed, or a number (octad 0-143, chess960 0-959)",
                              spec);
    }
    if (v == VARIANT_OCTAD)
        start_deployed_ofen((int)n, text, sizeof text);
    else
        chess960_start_fen((int)n, text, sizeof text);
    return game_parse(v, text, out, err, errlen);
}
