/* answer.h: a position's value from the tables, printed for people (text) or
 * machines (JSON): what `octad probe`, `octad solve POSITION` and
 * `coordinator --solve --ofen/--starts` print. */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "octad/octad.h"
#include "probe.h"
#include "store.h"

/* One start's answer: its value and best moves. */
typedef struct {
    octad_pos_t pos;
    char text[GAME_TEXT_MAX];            /* the position as given, canonical OFEN */
    probe_value_t v;
    int nbest;
    octad_move_t best[GAME_MOVES_MAX];
} answer_t;

/* Prints p's value (v), every move's value, best first, and (pv) the optimal
 * line; json: one object with wdl, wdl_clock0, dtz, dtm, halfmove, best and
 * moves, without a final newline. */
void answer_print(FILE *out, store_t *store, const octad_pos_t *p, const probe_value_t *v, bool json, bool pv);

/* Reads the value and best moves of the position in OFEN text. 0, or -1
 * with a message (bad text, or a table missing). */
int answer_get(store_t *store, const char *text, answer_t *out, char *err, size_t errlen);

/* Prints n answers as starts numbered 0..n-1: one line each and a tally line
 * (text), or one JSON array of {start, position, wdl, dtz, dtm, best} without
 * a final newline. */
void answer_print_starts(FILE *out, const answer_t *a, int n, bool json);
