/* movegen.h: legal move generation and counting (checkers and pins computed once per position). */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "move.h"
#include "position.h"

/* Builds the castling path tables; after bb64_init. */
void movegen_init(void);

/* Pieces of colour `by` attacking sq when the board's occupancy is occ. */
uint64_t movegen_attackers(const chess_pos_t *pos, int sq, int by, uint64_t occ);

/* Enemy pieces giving check to the side to move. */
uint64_t movegen_checkers(const chess_pos_t *pos);

/* Number of legal moves, without building a list (popcounts where possible). */
int movegen_count(const chess_pos_t *pos);

/* Perft 2 of pos (sum of the children's legal move counts), without lists or full makes. */
uint64_t movegen_perft2(const chess_pos_t *pos);

/* King and castling-rook destinations of a castle: *kd and *rd. */
void movegen_castle_squares(int color, int king_sq, int rook_sq, int *kd, int *rd);
