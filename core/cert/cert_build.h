/* cert_build.h: a certificate of an octad position's value, made from the tables
 * (docs/certificate.md): two strategy closures for a draw, a proof graph for a win. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "cert_file.h"
#include "store.h"

/* Builds the certificate of start into d (free with cert_doc_free). With plain, each
 * designated move is the first the rules list that keeps the value (for measuring what the
 * preferences of docs/certificate.md save). 0, or -1 with the reason (a table missing, a value
 * that needs the 25-move rule to hold, an inconsistency of the tables) in err. */
int cert_build(store_t *store, const octad_pos_t *start, bool plain, cert_doc_t *d, char *err, size_t errlen);
/* Frees the records of d; safe twice. */
void cert_doc_free(cert_doc_t *d);
