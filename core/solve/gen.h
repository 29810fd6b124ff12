/* gen.h: the generator: retrograde analysis of one pair of tables, unit by
 * unit (layout_pair.c), and of every pair up to a number of pieces.
 * The method is described in docs/solver.md ("Generation"). */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "layout.h"
#include "tb_record.h"
#include "store.h"

/* What one unit or pair cost and produced. */
typedef struct {
    uint64_t positions;  /* legal positions solved */
    uint64_t slots;      /* index slots (legal or not) */
    uint64_t counts[8];  /* by wdl code */
    uint64_t units;
    int max_dtz, max_dtm;
} gen_stats_t;

/* Solves one unit of a pair whose records are recs[tab] (indexed by the
 * pair's tables); every unit solved earlier in the pair's order, and every
 * table an exit leads to, must be available in `store`. A large unit uses up
 * to `threads` threads (the records are the same for any number). Adds into
 * *st. 0, or -1 with a message (a table missing, out of memory, an internal
 * inconsistency, which would be a bug). */
int gen_unit(store_t *store, const layout_pair_t *pair, const layout_unit_t *unit, rec_t *const *recs, int threads,
             gen_stats_t *st, char *err, size_t errlen);

/* gen_unit for one use beyond the tables: out[k] receives the records of
 * the unit's slice k (from the slice's first slot), with every won or lost
 * record's dtz taken without the 25-move rule (for `win`/`loss` too, whose
 * files store it under the rule). The e.p. look-ahead needs it
 * (ep_exact.h). 0, or -1 with a message. */
int gen_unit_ginf(store_t *store, const layout_pair_t *pair, const layout_unit_t *unit, rec_t *const out[2],
                  int threads, char *err, size_t errlen);

/* The tables an exit (capture or promotion) from either table of pair i can
 * lead to; writes up to 64 table ids into out and returns how many (dead
 * tables, which need no file, are left out). */
int gen_pair_children(int pair, int *out);

/* Adds b into a. */
void gen_stats_add(gen_stats_t *a, const gen_stats_t *b);
