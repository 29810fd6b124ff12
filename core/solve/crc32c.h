/* crc32c.h: CRC-32C (Castagnoli), the checksum of table files. */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* Continues a CRC-32C over len bytes (start with crc = 0). */
uint32_t crc32c(uint32_t crc, const void *data, size_t len);
