/* vt_blocks.h: the verifier's own reader of the records of a version-2 table
 * file (docs/solver.md "Table files", "Version 2: compressed records"):
 * block header, its CRC-32C, the frame offsets, one zstd frame per block of
 * 65,536 records (the last one shorter). */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* Decodes the block section `p` (len bytes: the file after the slice
 * directory) holding n records into a new buffer of 4 * n bytes (*out,
 * caller frees). Every offset, frame and frame size is checked. 0, or -1 with
 * a message naming the block and the problem. */
int vt_blocks_decode(const uint8_t *p, size_t len, uint64_t n, uint8_t **out, char *err, size_t errlen);
