/* cert_rec.h: the records of a certificate as docs/certificate.md ("Body") lays them out:
 * 16 bytes, a canonical position key, a clock bound, a designated move, a rank. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "octad/octad.h"

enum { CERT_REC_BYTES = 16, CERT_NO_MOVE = 0xFFFF };

/* One record before it is written. */
typedef struct {
    uint64_t board;  /* a nibble per square */
    uint16_t state;  /* side, rights, e.p. file */
    uint8_t clock;
    uint16_t move;   /* CERT_NO_MOVE or from | to << 4 | promo << 8 */
    uint16_t rank;
} cert_rec_t;

/* p with its e.p. square dropped unless a legal e.p. capture uses it (the rules' identity). */
void cert_canonical(octad_pos_t *p);
/* The (board, state) key of a canonical position. */
void cert_key(const octad_pos_t *p, uint64_t *board, uint16_t *state);
/* A legal move of the rules as the certificate writes it. */
uint16_t cert_move_code(octad_move_t m);
/* The 16 bytes of r into out. */
void cert_rec_bytes(const cert_rec_t *r, uint8_t *out);
/* Sorts records by key (board, state, clock), as the format orders them. */
void cert_rec_sort(cert_rec_t *recs, size_t n);
/* Whether the game is over at p (mate, stalemate, insufficient material). */
bool cert_terminal(const octad_pos_t *p);
/* Men on the board, kings included. */
int cert_men(const octad_pos_t *p);
/* The canonical position after the legal move m, clock 0; *zeroing: whether m resets the clock. */
octad_pos_t cert_child(const octad_pos_t *p, octad_move_t m, bool *zeroing);
/* Writes "what at OFEN(p)" (p may be NULL) into err and returns -1. */
int cert_fail(char *err, size_t len, const char *what, const octad_pos_t *p);
