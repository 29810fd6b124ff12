/* tables_manifest.h: a table directory's manifest, DIR/MANIFEST: the SHA-256
 * and size of every table file (*.otb) and of SUMMARY, one line each,
 * "SHA256 SIZE NAME", sorted by name (as syzygy-tables.info publishes its
 * checksums), so that tables got from anyone can be checked (`octad tables`).
 * `awk '{print $1 "  " $3}' MANIFEST | sha256sum -c` checks it with coreutils. */
#pragma once

#include <stddef.h>

enum { MANIFEST_SHA_HEX = 65 }; /* 64 hex digits and the NUL */

/* Writes DIR/MANIFEST (a temporary file, then renamed) and the SHA-256 of the
 * MANIFEST file itself into self_sha. Returns the number of files listed, or
 * -1 with a message naming the file and the problem. */
int manifest_write(const char *dir, char self_sha[MANIFEST_SHA_HEX], char *err, size_t errlen);

/* Checks DIR against DIR/MANIFEST: every file listed is there with its size
 * and SHA-256, and no table file is there unlisted. Calls report once per
 * problem (a line naming the file and what differs). Returns the number of
 * problems (0: all match) and the files listed in *files, or -1 with a message
 * when MANIFEST cannot be read or a line of it is malformed (its number). */
int manifest_check(const char *dir, void (*report)(void *ctx, const char *problem), void *ctx, int *files,
                   char *err, size_t errlen);
