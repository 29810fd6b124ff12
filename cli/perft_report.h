/* perft_report.h: a comparison's answer (perft_compare.h) as text for people and as JSON. */
#pragma once

#include <stdio.h>

#include "perft_compare.h"

/* Prints `ours`, `theirs` and, if they differ, where and how: path, position,
 * missing and extra moves or the differing count, and the note. */
void perft_report_text(FILE *out, const perft_cmp_t *r);

/* Writes the members of the JSON object (no braces): "equal", "ours", "theirs",
 * "path", "position", "depth", "missing", "extra", "move", "move_ours", "move_theirs", "note". */
void perft_report_json_members(FILE *out, const perft_cmp_t *r);
