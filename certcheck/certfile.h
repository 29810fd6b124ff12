/* certfile.h: reads a certificate file (docs/certificate.md, "The file"): the header, the
 * zstd body, its size, its order and its checksum. Positions are checked by prove.h. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "board.h"

enum { CC_CLAIM_DRAW, CC_CLAIM_WHITE_WINS, CC_CLAIM_BLACK_WINS };
enum { CC_SECTIONS_MAX = 2 };

typedef struct {
    char start_text[256];
    cc_pos_t start;
    int claim;
    int nsections;
    char name[CC_SECTIONS_MAX][8];        /* "white", "black" or "nodes" */
    size_t count[CC_SECTIONS_MAX];
    const uint8_t *section[CC_SECTIONS_MAX]; /* records, into body */
    uint8_t *body;                        /* owned: the decompressed body */
} cc_cert_t;

/* Reads and checks the file at path into c (free with cc_cert_free). 0, or -1 with what is
 * wrong (the header line, the body, the checksum or the order, by record) in err. */
int cc_cert_read(const char *path, cc_cert_t *c, char *err, int errlen);
/* Frees what cc_cert_read allocated; safe twice. */
void cc_cert_free(cc_cert_t *c);
