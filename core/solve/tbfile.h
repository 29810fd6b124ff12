/* tbfile.h: the table file format (docs/solver.md "Table files"): a header,
 * the slice directory and one 32-bit record per slot, little-endian, with
 * CRC-32C checksums; written atomically (temporary file, fsync, rename).
 * Version 1 stores the records as they are; version 2 (what is written now)
 * stores them in zstd blocks (tbblocks.h). Both are read. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layout.h"
#include "tb_record.h"

enum {
    TBFILE_VERSION = 2,    /* written; version 1 is still read */
    TBFILE_SCHEME = 1,     /* the index scheme of docs/solver.md */
    TBFILE_HEADER = 128,   /* header bytes */
    TBFILE_SLICE = 16      /* directory entry bytes */
};

/* What a table file's header says. */
typedef struct {
    uint32_t version, scheme, table, nslices;
    uint64_t nrecords;
    uint64_t counts[8];    /* records by wdl code (0-4, 7 = invalid) */
    uint32_t max_dtz, max_dtm;
    uint32_t crc;          /* CRC-32C of directory + records */
} tbfile_info_t;

/* File name of a table: "KNPvKP.otb" into buf. */
void tbfile_name(int table, char *buf, size_t len);

/* Counts and maxima of records (fills everything but version/scheme/crc). */
void tbfile_summarise(const layout_table_t *t, const rec_t *recs, tbfile_info_t *info);

/* Writes table t with its records to dir/NAME.otb atomically; fills *info.
 * 0, or -1 with a message naming the file and the problem. */
int tbfile_write(const char *dir, const layout_table_t *t, const rec_t *recs, tbfile_info_t *info,
                 char *err, size_t errlen);

/* tbfile_write in format `version` (1 or 2): version 1 only for tests of
 * the readers and of `octad solve --repack`. */
int tbfile_write_as(const char *dir, const layout_table_t *t, const rec_t *recs, int version,
                    tbfile_info_t *info, char *err, size_t errlen);

/* A table read from a file: its layout and its records (version 1: mapped
 * read-only; version 2: decompressed into memory). */
typedef struct {
    layout_table_t layout;
    const rec_t *recs;
    void *map;
    size_t map_len;
    rec_t *owned;
    tbfile_info_t info;
} tbfile_t;

/* Reads dir/NAME.otb of table `table`, checks magic, version, table,
 * directory and both checksums; 0, or -1 with a message naming the file and
 * what is wrong ("checksum mismatch", "truncated", ...). */
int tbfile_read(const char *dir, int table, tbfile_t *out, char *err, size_t errlen);

/* The checks of tbfile_read without keeping the records: a version-2 file
 * is decompressed one block at a time, so memory stays small whatever the
 * table's size (for a coordinator accepting a file a worker made). 0, or -1
 * with the same messages. */
int tbfile_check(const char *dir, int table, char *err, size_t errlen);

/* Reads only the header of a file at `path` (for `octad tables`). */
int tbfile_read_info(const char *path, tbfile_info_t *out, char *err, size_t errlen);

/* Whether the file at `path` is a complete table file of `table`: a sound
 * header and exactly the size it declares (without reading the records). */
bool tbfile_complete(const char *path, int table);

/* Parses and checks a header's TBFILE_HEADER bytes (magic, checksum,
 * version, scheme, table id) into *info. 0, or -1 with a message naming path. */
int tbfile_parse_header(const unsigned char *h, tbfile_info_t *info, const char *path, char *err, size_t errlen);

/* Rebuilds a table's layout from its slice directory (info->nslices entries
 * at d), checking every entry and the record count against the header. 0,
 * or -1 with a message naming path (nothing to free). */
int tbfile_layout(const unsigned char *d, const tbfile_info_t *info, layout_table_t *out, const char *path, char *err,
                  size_t errlen);

/* The TBFILE_SLICE bytes of slice s's directory entry into e (what
 * tbfile_write writes for it; padding zero). */
void tbfile_slice_entry(const layout_slice_t *s, unsigned char *e);

/* Unmaps and frees. */
void tbfile_close(tbfile_t *f);
