/* verify_fixup.h: test helper: change one record of a table file and rewrite
 * its header counts, largest distances and both CRC-32C, as a generator
 * would, so that only a value check can find the change. */
#pragma once

#include <stdint.h>

/* Sets record `slot` of the table file at path to rec and fixes the header.
 * A version-2 file is rewritten as version 1 (records uncompressed), which
 * the verifier reads too. 0, or -1 if the file cannot be read or written. */
int verify_fixup_record(const char *path, uint64_t slot, uint32_t rec);

/* A record from its fields. */
uint32_t verify_fixup_rec(int code, int dtz, int dtm);
