/* record.h: one 16-byte record of a certificate's body (docs/certificate.md, "Body"): a
 * position, a clock bound, a designated move and a rank; its key and its validity. */
#pragma once

#include <stdint.h>

#include "board.h"

enum { CC_REC_BYTES = 16, CC_NO_MOVE = 0xFFFF };

typedef struct {
    uint64_t board;
    uint16_t state;
    int clock, rank, has_move;
    cc_move_t move;
} cc_rec_t;

/* Reads the record at bytes (no checks beyond the layout). */
cc_rec_t cc_rec_read(const uint8_t *bytes);
/* The key of a record (board, state, clock) compared as the format orders them: <0, 0, >0. */
int cc_rec_cmp(const cc_rec_t *a, const cc_rec_t *b);
/* The (board, state) of a canonical position p. */
void cc_rec_key(const cc_pos_t *p, uint64_t *board, uint16_t *state);
/* The position of a record into p (clock = the record's clock, move number 1); 0, or -1 with
 * why the record is not a canonical legal position (docs/certificate.md's list) in why. */
int cc_rec_position(const cc_rec_t *r, cc_pos_t *p, const char **why);
