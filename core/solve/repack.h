/* repack.h: rewriting the table files of an older format version in the
 * current one (version 1, records as they are, to version 2, compressed). */
#pragma once

#include <stddef.h>
#include <stdint.h>

typedef struct {
    int files, repacked;          /* table files seen; rewritten */
    uint64_t bytes_before, bytes_after; /* sizes of the rewritten files */
} repack_stats_t;

/* Called after each rewritten file (name like "KRvK.otb"). */
typedef void (*repack_progress_fn)(void *ctx, const char *name, uint64_t before, uint64_t after);

/* Rewrites every version-1 table file in dir as version 2, atomically: the
 * old file is read with its checksums checked, written anew, and the new
 * file read back and its records' CRC-32C compared with the old one before
 * it replaces it. Files of the current version are left alone. 0, or -1
 * with a message naming the file (files already rewritten stay rewritten). */
int repack_dir(const char *dir, repack_progress_fn progress, void *ctx, repack_stats_t *st, char *err,
               size_t errlen);
