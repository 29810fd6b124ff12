/* vt_check.h: verifying one table file record by record: legality of every
 * slot, the index round trip, and one-ply consistency of every value with
 * its children's (docs/solver.md), over several threads. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "vt_store.h"

enum { VT_FAIL_KEEP = 20 };

/* What checking one table found. */
typedef struct {
    uint64_t records;     /* slots checked */
    uint64_t legal;       /* slots holding a legal position */
    uint64_t failures;    /* inconsistencies found */
    uint64_t ranged;      /* cursed/blessed dtz checked against a range, not one value */
    uint64_t counts[8];   /* records by code, as read */
    int max_dtz, max_dtm; /* as read, over legal slots */
    double seconds;
    int nkept;
    char kept[VT_FAIL_KEEP][320]; /* the first failures, one line each */
    char fatal[640];              /* set when the table could not be checked */
} vt_report_t;

/* Options of a run. */
typedef struct {
    int threads;
    FILE *progress; /* progress lines every few seconds, or NULL */
} vt_check_opts_t;

/* Checks table t (opened from st) completely into *rep. Returns 0 all
 * consistent, 1 inconsistencies found, 2 a needed table is missing or
 * refused (rep->fatal says which). */
int vt_check_table(vt_store_t *st, const vt_table_t *t, const vt_check_opts_t *opts, vt_report_t *rep);

/* Checks slot `slot` of t alone: 0 consistent, 1 inconsistent (why in msg),
 * 2 a needed table is missing (msg). Counts nothing. */
int vt_check_slot(vt_store_t *st, const vt_table_t *t, uint64_t slot, bool *ranged, char *msg, size_t len);
