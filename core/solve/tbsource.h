/* tbsource.h: a table file read one block of records at a time, for a
 * store whose memory is bounded (store_new_bounded): the header, the slice
 * directory and the block offsets stay in memory, the records stay on disk
 * until a block is asked for (docs/solver.md "Table files"). */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "layout.h"
#include "tb_record.h"
#include "tbblocks.h"

enum { TBSOURCE_BLOCK = 1 << TBBLOCK_SHIFT }; /* records in a block (the last one of a table is shorter) */

typedef struct tbsource tbsource_t;

/* How much of a file tbsource_open checks before it returns. */
typedef enum {
    /* Everything tbfile_read checks (magic, version, table, size, directory,
     * block header, every frame and the checksum of all the records), one
     * block at a time, so memory stays small whatever the table's size, but
     * the whole file is read and decompressed: seconds for a large table. */
    TBSOURCE_CHECK_FULL,
    /* Version 2 only (a version-1 file is checked in full): the header, the
     * file's size, the slice directory entry by entry against the layout the
     * solver gives this table (layout_table_expected), the block header and
     * offsets (their own checksum); each frame is then checked (its size and
     * its content checksum) when tbsource_read reads it, so a damaged block
     * fails that read, never gives a wrong record. Reads the header, the
     * directory and the offsets only (docs/solver.md "Table files"). */
    TBSOURCE_CHECK_QUICK
} tbsource_check_t;

/* Opens dir/NAME.otb of `table` (format version 1 or 2) and checks it as
 * `check` says. NULL with a message naming the file and the problem. */
tbsource_t *tbsource_open(const char *dir, int table, tbsource_check_t check, char *err, size_t errlen);

/* Closes the file and frees *self_p; sets it to NULL; safe on NULL. */
void tbsource_close(tbsource_t **self_p);

/* The table's layout (borrowed: lives as long as the source). */
const layout_table_t *tbsource_layout(const tbsource_t *self);

/* Heap bytes the open source holds (its layout, block offsets, itself). */
size_t tbsource_bytes(const tbsource_t *self);

/* Number of blocks of the table. */
uint64_t tbsource_blocks(const tbsource_t *self);

/* Records in block b (TBSOURCE_BLOCK but for the table's last block). */
uint64_t tbsource_block_records(const tbsource_t *self, uint64_t b);

/* Reads block b (< tbsource_blocks) into out (room for its
 * tbsource_block_records), checking its frame (size, checksum): the number of records, or
 * -1 with a message naming the file and the block. Thread-safe. */
int64_t tbsource_read(tbsource_t *self, uint64_t b, rec_t *out, char *err, size_t errlen);
