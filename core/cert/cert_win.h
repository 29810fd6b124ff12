/* cert_win.h: the proof graph of a win (docs/certificate.md, "A win"), made from the tables. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "cert_rec.h"
#include "store.h"

/* Nodes (sorted records with clock bounds and ranks) proving that winner mates from start at
 * its clock. 0, or -1 with the reason in err. */
int cert_win(store_t *store, const octad_pos_t *start, int winner, bool plain, cert_rec_t **out, size_t *count,
             char *err, size_t len);
