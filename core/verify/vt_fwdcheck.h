/* vt_fwdcheck.h: the tables compared with the forward solver (vt_forward.h)
 * on every position reachable from some tables' positions. */
#pragma once

#include <stdint.h>

#include "vt_check.h"

/* What the comparison found. */
typedef struct {
    uint64_t roots;     /* legal positions of the named tables, both colours and mirrors */
    uint64_t positions; /* positions in the graph, each compared with the tables */
    uint64_t clocks;    /* (position, clock) pairs compared at every clock 0-49 */
    uint64_t failures;
    uint64_t decisive;  /* won or lost without the rule */
    uint64_t cursed;    /* cursed wins and blessed losses (the rule draws them at clock 0) */
    uint64_t long_dtz;  /* wins and losses with dtz >= 40 compared at every clock */
    double seconds;
    int nkept;
    char kept[VT_FAIL_KEEP][320];
    char fatal[640];
} vt_fwd_report_t;

/* Builds the graph from every legal position of tables ids[0..n-1] (as
 * stored, colour-flipped and mirrored), solves it forward, and compares
 * every position with its value in the tables (vt_value_of); every
 * clock_every-th position (0: none) also at every clock 0-49 with the rule
 * "won (lost) at clock h iff win (loss) and h + dtz <= 50". Returns 0 all
 * agree, 1 a disagreement, 2 a table missing or out of memory (rep->fatal). */
int vt_fwd_check(vt_store_t *st, const int *ids, int n, uint32_t clock_every, vt_fwd_report_t *rep);
