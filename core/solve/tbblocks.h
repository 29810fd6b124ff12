/* tbblocks.h: the records of a version-2 table file, cut into blocks of
 * 2^16 records, each compressed as one zstd frame (docs/solver.md "Table
 * files"). After the slice directory come a 16-byte block header (block
 * shift, block count, codec, CRC-32C of the header's first 12 bytes and the
 * offsets), nblocks + 1 little-endian u64 offsets of the frames from the end
 * of the offsets, then the frames. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "tb_record.h"

enum {
    TBBLOCK_SHIFT = 16,     /* records per block: 1 << TBBLOCK_SHIFT */
    TBBLOCK_CODEC_ZSTD = 1, /* the only codec */
    TBBLOCK_HEADER = 16
};

/* Records compressed into blocks: the block header, the offsets and the
 * frames, in file order, in one buffer. */
typedef struct {
    unsigned char *bytes;
    size_t len;
} tbblocks_t;

/* Compresses n records; 0, or -1 with a message. */
int tbblocks_pack(const rec_t *recs, uint64_t n, tbblocks_t *out, char *err, size_t errlen);

/* Frees the buffer. */
void tbblocks_free(tbblocks_t *b);

/* Decompresses the blocks that `p` (len bytes: everything after the slice
 * directory) holds into n records at out. Checks the header, its checksum,
 * every offset, the frame checksums and each block's size. 0, or -1 with a
 * message ("block 12: ...") that does not name the file. */
int tbblocks_unpack(const unsigned char *p, size_t len, uint64_t n, rec_t *out, char *err, size_t errlen);

/* The same checks as tbblocks_unpack, one block at a time in a buffer of
 * its own (256 KB, whatever n), extending *crc (CRC-32C) over the records
 * instead of keeping them. 0, or -1 with a message. */
int tbblocks_crc(const unsigned char *p, size_t len, uint64_t n, uint32_t *crc, char *err, size_t errlen);

/* Bytes the block section of n records occupies, read from its header and
 * offsets (for a completeness check without decompressing); 0 if `p` (len
 * bytes available) is not a sound block header. */
uint64_t tbblocks_span(const unsigned char *p, size_t len, uint64_t n);

/* Checks a block header and its offsets for n records (`p`: len bytes
 * available): the bytes of the whole block section, or 0 with a message. */
uint64_t tbblocks_check(const unsigned char *p, size_t len, uint64_t n, char *err, size_t errlen);

/* Records in block b of a table of n records (the last block is shorter). */
uint64_t tbblocks_count(uint64_t n, uint64_t b);

/* Decompresses block b's frame (flen bytes) into its `count` records at out,
 * checking the frame's size and checksum, with a decompression context kept
 * per thread. 0, or -1 with a message ("block 12: ...") that does not name
 * the file. Thread-safe. */
int tbblocks_decode(const unsigned char *frame, size_t flen, uint64_t b, uint64_t count, rec_t *out, char *err,
                    size_t errlen);
