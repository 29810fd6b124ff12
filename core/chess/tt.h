/* tt.h: the perft transposition table, keyed by the 128-bit position key and the depth. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "chess.h"

/* Largest subtree count an entry can hold (56 bits); bigger counts are not stored. */
#define TT_COUNT_MAX ((1ULL << 56) - 1)

/* Looks up (key, depth); true and *count on a hit. */
bool tt_probe(const chess_tt_t *tt, const uint64_t key[2], int depth, uint64_t *count);

/* Stores (key, depth) -> count if count <= TT_COUNT_MAX, replacing the shallower entry of the bucket. */
void tt_store(chess_tt_t *tt, const uint64_t key[2], int depth, uint64_t count);
