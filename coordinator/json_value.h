/* json_value.h: the coordinator's values as jansson values, the same way in /status, the
 * final --json contributors and --report: counts exact, peer text always valid JSON. */
#pragma once

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "types.h"

/* A count as a JSON integer, or as its decimal text past 2^63 - 1 (JSON readers lose such
 * numbers); NULL when out of memory. */
json_t *json_value_count(count_t n);

/* A text as a JSON string: as it is when it is UTF-8, else (a peer's name of other bytes)
 * made printable ASCII as log lines show it (log_line.h: \xNN); NULL when out of memory. */
json_t *json_value_text(const char *text);

/* Unix seconds as "2026-12-04T15:52:53Z" (UTC), or "" for 0; returns out. */
char *json_value_iso(int64_t unix_s, char out[32]);

/* When the job started, as /status and --report say it (docs/status.md): an object with
 * "started_at" (the job's first start: its journal's start record, else this run's start
 * `run_started_at` when the run resumed nothing; null when unknown), "started_at_source"
 * ("run", "journal" or "unknown": resumed from a journal older than start records) and
 * "resumed_at" (this run's start when it resumed an earlier run, else null). job_started_at
 * and resumed are job_progress_t's (kind.h). NULL when out of memory. */
json_t *json_value_start(int64_t job_started_at, bool resumed, int64_t run_started_at);
