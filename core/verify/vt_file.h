/* vt_file.h: the verifier's own reader of table files (docs/solver.md "Table
 * files", format versions 1 and 2): header, both CRC-32C, size, slice
 * directory; version 2's compressed records are decoded into memory. */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vt_index.h"
#include "vt_material.h"

enum { VT_HEADER_SIZE = 128, VT_DIR_ENTRY = 16 };

/* Record codes (docs/solver.md "Values"). */
enum { VT_LOSS, VT_BLESSED, VT_DRAW, VT_CURSED, VT_WIN, VT_INVALID = 7 };

/* An open table: the file mapped read-only (version 2: records decoded), its
 * directory decoded. */
typedef struct {
    int id;
    char name[VT_NAME_MAX];
    const uint8_t *map;
    size_t size;
    uint32_t nslices;
    uint64_t nrecords;
    uint64_t counts[8];          /* header: records by code */
    uint32_t max_dtz, max_dtm;   /* header */
    uint32_t crc_body;           /* header: CRC-32C of directory and records */
    vt_slice_t *slices;
    const uint8_t *records;
    uint8_t *owned;  /* version 2: the decoded records */
    uint64_t *hkeys; /* slice lookup: open addressing on vt_slice_key */
    int32_t *hvals;
    uint32_t hmask;
} vt_table_t;

/* Opens and checks path as table `id` (the name's table; -1: take the
 * header's). Checks magic, version, scheme, header CRC, size, body CRC, the
 * table id and name, and every directory entry. 0, or -1 with a message
 * naming the problem (and *out NULL). */
int vt_table_open(const char *path, int id, vt_table_t **out, char *err, size_t errlen);

/* Unmaps and frees; NULLs *self_p; safe on NULL. */
void vt_table_close(vt_table_t **self_p);

/* Index of the slice with this key (vt_slice_key), or -1. */
int vt_table_find(const vt_table_t *t, uint64_t key);

/* The record at slot (< nrecords), little-endian. */
static inline uint32_t vt_table_record(const vt_table_t *t, uint64_t slot)
{
    const uint8_t *b = t->records + 4 * slot;
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* Fields of a record. */
static inline int vt_rec_code(uint32_t r) { return (int)(r & 7); }
static inline int vt_rec_dtz(uint32_t r) { return (int)((r >> 3) & 0x1FFF); }
static inline int vt_rec_dtm(uint32_t r) { return (int)(r >> 16); }

/* Name of a code: win, cursed-win, draw, blessed-loss, loss, invalid, or "code N". */
const char *vt_code_name(int code);
