/* vt_store.h: the verifier's tables of one directory, opened (and fully
 * checked) on first use, shared by threads. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "vt_file.h"

typedef struct vt_store vt_store_t;

/* A store over directory dir (copied). NULL if out of memory. */
vt_store_t *vt_store_new(const char *dir);

/* Closes every table; NULLs *self_p; safe on NULL. */
void vt_store_destroy(vt_store_t **self_p);

/* Table id, opened on first use (thread-safe). NULL if its file is missing
 * or refused; then err says why (the file and the problem). */
const vt_table_t *vt_store_get(vt_store_t *self, int id, char *err, size_t errlen);

/* Bytes of decoded records (version-2 files) the open tables hold. */
uint64_t vt_store_bytes(vt_store_t *self);

/* Closes every open table if they hold more than `budget` bytes of decoded
 * records; they reopen on their next use. Not thread-safe: call it between
 * table checks, when no lookup runs. */
void vt_store_trim(vt_store_t *self, uint64_t budget);

/* The path of table id's file into buf. */
void vt_store_path(const vt_store_t *self, int id, char *buf, size_t len);
