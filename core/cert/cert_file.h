/* cert_file.h: writes a certificate file (docs/certificate.md, "The file"): the text header
 * with its FNV-1a checksum, then the sorted records in one zstd frame. */
#pragma once

#include <stddef.h>

#include "cert_rec.h"

enum { CERT_SECTIONS_MAX = 2 };

/* What one certificate holds: the start, the claim, and its sections of sorted records. */
typedef struct {
    char start[128];                     /* OFEN */
    const char *claim;                   /* "draw", "white-wins" or "black-wins" */
    int nsections;
    const char *name[CERT_SECTIONS_MAX]; /* "white" and "black", or "nodes" */
    cert_rec_t *recs[CERT_SECTIONS_MAX]; /* sorted (cert_rec_sort) */
    size_t count[CERT_SECTIONS_MAX];
} cert_doc_t;

/* Writes d to path (through a temporary file renamed at the end); *bytes gets the file's
 * size and hex its checksum. 0, or -1 with the reason in err. */
int cert_write(const char *path, const cert_doc_t *d, size_t *bytes, char hex[17], char *err, size_t errlen);
