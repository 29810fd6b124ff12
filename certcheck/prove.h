/* prove.h: checks every condition of docs/certificate.md ("What is proved") on a read
 * certificate, with the checker's own moves. */
#pragma once

#include "certfile.h"

/* Proves c's claim: prints `proved: CLAIM for START` and returns 0, or prints the first record
 * (section, index, OFEN) where the proof fails and why, and returns 1. */
int cc_prove(const cc_cert_t *c);
