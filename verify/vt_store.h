/* vt_store.h: the verifier's tables of one directory, opened (and fully
 * checked) on first use, shared by threads. */
#pragma once

#include <stddef.h>

#include "vt_file.h"

typedef struct vt_store vt_store_t;

/* A store over directory dir (copied). NULL if out of memory. */
vt_store_t *vt_store_new(const char *dir);

/* Closes every table; NULLs *self_p; safe on NULL. */
void vt_store_destroy(vt_store_t **self_p);

/* Table id, opened on first use (thread-safe). NULL if its file is missing
 * or refused; then err says why (the file and the problem). */
const vt_table_t *vt_store_get(vt_store_t *self, int id, char *err, size_t errlen);

/* The path of table id's file into buf. */
void vt_store_path(const vt_store_t *self, int id, char *buf, size_t len);
