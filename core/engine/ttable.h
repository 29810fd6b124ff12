/* ttable.h: the search's transposition table. Entries carry the whole position
 * key (engine_key_t: exact for octad, 128-bit Zobrist for chess), so a hit is
 * the same position. Several search threads may probe and store at once (lazy
 * SMP): each slot is three relaxed atomic words, the key words stored xor the
 * data word, so a slot torn by two writers reads as a miss, never as another
 * position's data. Clear, resize and new_search only between searches. Internal. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"

/* One entry as the search reads it (a copy of a slot); four slots make a bucket. depth 0: empty. */
typedef struct {
    engine_key_t key;
    engine_move_t move;
    int16_t score; /* mate scores relative to this node (see ttable_score_to/from) */
    int16_t eval;  /* static evaluation */
    uint8_t depth; /* draft + 1 (0: empty) */
    uint8_t genbound; /* generation << 2 | engine_bound_t */
} ttable_entry_t;

typedef struct ttable ttable_t;

/* New table of at most `bytes` (at least one bucket); NULL if out of memory. */
ttable_t *ttable_new(size_t bytes);

/* Frees *self_p and NULLs it; safe on NULL. */
void ttable_destroy(ttable_t **self_p);

/* Empties the table. */
void ttable_clear(ttable_t *self);

/* Starts a new search (ages older entries for replacement). */
void ttable_new_search(ttable_t *self);

/* Asks the processor to start loading key's bucket (no effect on results):
 * called as soon as a child's key is known, before its probe. */
void ttable_prefetch(const ttable_t *self, engine_key_t key);

/* Copies the entry of key into *out and returns true, or returns false. */
bool ttable_probe(const ttable_t *self, engine_key_t key, ttable_entry_t *out);

/* Stores a result for key (draft >= 0). move ENGINE_MOVE_NONE keeps a stored move. */
void ttable_store(ttable_t *self, engine_key_t key, int draft, int score, engine_bound_t bound, int eval,
              engine_move_t move);

/* Per mille of a sample of entries written in the current search. */
int ttable_hashfull(const ttable_t *self);

/* Mate scores are stored relative to the node, read back relative to the root. */
static inline int ttable_score_to(int score, int ply)
{
    return score > ENGINE_MATE_BOUND ? score + ply : score < -ENGINE_MATE_BOUND ? score - ply : score;
}

static inline int ttable_score_from(int score, int ply)
{
    return score > ENGINE_MATE_BOUND ? score - ply : score < -ENGINE_MATE_BOUND ? score + ply : score;
}
