/* hash.c: the one FNV-1a 64-bit hash and the one CRC-32 (see hash.h). */
#include "hash.h"

#include <string.h>

uint64_t hash_fnv1a_text(uint64_t h, const char *text)
{
    return hash_fnv1a_add(h, text, strlen(text));
}

uint64_t hash_fnv1a(const char *text)
{
    return hash_fnv1a_text(HASH_FNV1A_BASIS, text);
}

uint64_t hash_job_id(const char *key)
{
    uint64_t h = hash_fnv1a_text(HASH_JOB_BASIS, key);
    return h ? h : 1;
}

/* CRC-32 one nibble at a time: a 16-entry table keeps it const and small. */
static const uint32_t s_crc_nibble[16] = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u,
    0x4DB26158u, 0x5005713Cu, 0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
    0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu,
};

uint32_t hash_crc32(const void *data, size_t len)
{
    const uint8_t *p = data;
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < len; i++) {
        crc ^= p[i];
        crc = (crc >> 4) ^ s_crc_nibble[crc & 15];
        crc = (crc >> 4) ^ s_crc_nibble[crc & 15];
    }
    return crc ^ 0xFFFFFFFFu;
}
