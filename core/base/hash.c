/* hash.c: the one FNV-1a 64-bit hash (see hash.h). */
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
