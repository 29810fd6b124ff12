/* solve_tbcount.h: `octad solve --count`: how many game positions the tables
 * stand for, by number of pieces (solve/count.h says how they are counted). */
#pragma once
#include <stdbool.h>

/* Counts the tables in dir with at most max_pieces pieces (2-8) and prints a
 * table (or one JSON object); progress on stderr unless quiet. Exit status. */
int solve_count_run(const char *dir, int max_pieces, bool json, bool quiet);
