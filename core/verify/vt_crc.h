/* vt_crc.h: CRC-32C (Castagnoli), the checksum of the table files, written for
 * the verifier on its own (docs/solver.md "Table files"). */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* Continues a CRC-32C over len bytes; start with crc = 0. Thread-safe after
 * the first call (the software table is built once, guarded). */
uint32_t vt_crc32c(uint32_t crc, const void *data, size_t len);
