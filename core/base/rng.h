/* rng.h: the one random number generator of the project (SplitMix64): the same
 * seed gives the same numbers on every machine, so self-play and tests repeat. */
#pragma once

#include <stdint.h>

/* The next number of the sequence whose state is *state (any value is a valid seed). */
static inline uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
