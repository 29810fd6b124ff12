/* publish.h: --report FILE: the finished job written as FILE.json and FILE.md (docs/status.md,
 * "Reports"): the program and its bench signature, the job and its result through its kind's
 * row (kind.h `publish`), how it was verified, the run's counters and times, the contributors.
 * Each file is written to FILE.json.tmp (FILE.md.tmp), synced, then renamed over the name, so
 * a reader never sees half of one. */
#pragma once

#include <stddef.h>
#include <stdio.h>

#include "kind.h"
#include "server.h"

/* Whether path can be written: creates and removes path.tmp. 0, or -1 with err naming the
 * option, the file and the problem. */
int publish_check_path(const char *option, const char *path, char *err, size_t errlen);

/* Writes path through path.tmp: write(ctx, f) fills it (0, or -1 on failure), then it is
 * flushed, synced and renamed over path. 0, or -1 with err naming the file and the problem. */
int publish_file(const char *path, int (*write)(void *ctx, FILE *f), void *ctx, char *err, size_t errlen);

/* Whether the report can be written: creates and removes FILE.json.tmp and FILE.md.tmp, so a
 * bad path is found before the job runs. 0, or -1 with err naming the file and the problem. */
int publish_check(const char *file, char *err, size_t errlen);

/* Writes the report of the finished job (its row's `publish` and sum) to FILE.json and
 * FILE.md. 0, or -1 with err naming the file and the problem. */
int publish_write(const char *file, const job_ops_t *kind, void *job, const opts_t *o, const server_summary_t *sum,
                  char *err, size_t errlen);
