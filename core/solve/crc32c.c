/* crc32c.c: CRC-32C, with the SSE4.2 instruction where the build allows it. */
#include "crc32c.h"

#include <string.h>

#ifdef __SSE4_2__
#include <nmmintrin.h>

uint32_t crc32c(uint32_t crc, const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t c = ~crc;
    for (; len >= 8; p += 8, len -= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        c = _mm_crc32_u64(c, w);
    }
    uint32_t c32 = (uint32_t)c;
    for (; len; p++, len--)
        c32 = _mm_crc32_u8(c32, *p);
    return ~c32;
}
#else
#include <pthread.h>

static uint32_t s_table[256];

static void s_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        s_table[i] = c;
    }
}

uint32_t crc32c(uint32_t crc, const void *data, size_t len)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, s_init); /* threads may checksum at the same time */
    const unsigned char *p = data;
    uint32_t c = ~crc;
    while (len--)
        c = s_table[(c ^ *p++) & 0xFF] ^ (c >> 8);
    return ~c;
}
#endif
