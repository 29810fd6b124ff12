/* comb.c: the colex rank/unrank tables and binomials of comb.h. */
#include "comb.h"

#include <stdbool.h>

uint16_t comb_rank_table[1 << 16];
const uint16_t *comb_unrank_table[17];
uint32_t comb_binom_table[17][17];

static uint16_t s_unrank_store[1 << 16];
static bool s_ready;

void comb_init(void)
{
    if (s_ready)
        return;
    for (int n = 0; n <= 16; n++) {
        comb_binom_table[n][0] = 1;
        for (int k = 1; k <= 16; k++)
            comb_binom_table[n][k] = n == 0 ? 0 : comb_binom_table[n - 1][k - 1] + comb_binom_table[n - 1][k];
    }
    /* Masks of each popcount in numeric order = colex order. */
    unsigned start[17], next[17];
    for (int k = 0, at = 0; k <= 16; k++) {
        start[k] = next[k] = (unsigned)at;
        at += (int)comb_binom_table[16][k];
    }
    for (unsigned m = 0; m < (1u << 16); m++) {
        int k = __builtin_popcount(m);
        comb_rank_table[m] = (uint16_t)(next[k] - start[k]);
        s_unrank_store[next[k]++] = (uint16_t)m;
    }
    for (int k = 0; k <= 16; k++)
        comb_unrank_table[k] = &s_unrank_store[start[k]];
    s_ready = true;
}
