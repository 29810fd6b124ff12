/* tbcount.h: how many octad positions the tables stand for.
 *
 * A table stores each position once, with the side to move playing up, and
 * where neither side has castling rights, once for itself and its left-right
 * mirror (docs/solver.md, "Which slice holds a position"). So a legal record
 * stands for
 *   - 4 positions if neither side has rights: itself, its mirror (never the
 *     same: a king never stands on its own mirror file), and the colour flips
 *     of both (the other side to move, so never the same either);
 *   - 2 if a side has rights: itself and its colour flip (its mirror has the
 *     mirrored rights and a record of its own).
 * Positions with a legal en-passant capture are not stored (their value is
 * looked ahead) and are not counted; positions of the materials that have no
 * file (always drawn) are counted from their layout. The halfmove clock is
 * not part of a position here. tests/core/solve/test_solve_count.c checks these
 * multiplicities against a plain enumeration of positions. */
#pragma once
#include <stddef.h>
#include <stdint.h>

#include "tbfile.h"

typedef struct {
    uint64_t tables;    /* tables counted (with or without a file) */
    uint64_t records;   /* slots */
    uint64_t legal;     /* legal records (code other than invalid) */
    uint64_t positions; /* game positions they stand for */
} tbcount_t;

/* Adds the counts of one table's layout and records (recs may be NULL: then
 * each slot's legality is decided from its placement, for tables without a
 * file). */
void count_table(const layout_table_t *t, const rec_t *recs, tbcount_t *out);

/* Called after each table (name like "KRvK"; has_file false for a material
 * that has no file) with that table's counts. */
typedef void (*count_progress_fn)(void *ctx, const char *name, int pieces, bool has_file, const tbcount_t *c);

/* Counts every table with at most max_pieces pieces (2-8) in dir; by_pieces
 * gets the sums by number of pieces (index 2..8; 0 and 1 unused). Every file
 * is read with its checksums checked. 0, or -1 with a message naming the
 * missing or unreadable table. */
int count_dir(const char *dir, int max_pieces, count_progress_fn progress, void *ctx, tbcount_t by_pieces[9],
              char *err, size_t errlen);
