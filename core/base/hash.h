/* hash.h: the one FNV-1a 64-bit hash of the tree (job ids, journal keys, key fingerprints) and the
 * one CRC-32 (the journal's line checksum, docs/journal.md). */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* FNV-1a 64 as published (Fowler, Noll, Vo): start at the offset basis, then for every byte
 * h = (h ^ byte) * prime. hash_fnv1a("") is the basis, hash_fnv1a("a") is 0xaf63dc4c8601ec8c. */
#define HASH_FNV1A_BASIS 0xcbf29ce484222325ull
#define HASH_FNV1A_PRIME 0x100000001b3ull

/* The start value of every job id and of the analysis job's move hash. It is one digit short of
 * the published basis (1469598103934665603 instead of 14695981039346656037), a slip of the first
 * version that the ids of existing journals carry; it stays so that they resume. The step is
 * FNV-1a's; only the start differs. */
#define HASH_JOB_BASIS 1469598103934665603ull

/* Continues an FNV-1a hash h over n bytes of data; returns the new state. */
static inline uint64_t hash_fnv1a_add(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * HASH_FNV1A_PRIME;
    return h;
}

/* Continues an FNV-1a hash h over the NUL-terminated text (the NUL not included). */
uint64_t hash_fnv1a_text(uint64_t h, const char *text);

/* FNV-1a 64 of the text from the published basis. */
uint64_t hash_fnv1a(const char *text);

/* The job id of a job key: FNV-1a from HASH_JOB_BASIS, never 0 (0 means "no job" on the wire). */
uint64_t hash_job_id(const char *key);

/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32) of len bytes: hash_crc32("123456789", 9) is
 * 0xcbf43926. The checksum of every journal line (core/base/jfile.h); table files use CRC-32C
 * (core/solve/crc32c.h), another polynomial. */
uint32_t hash_crc32(const void *data, size_t len);
