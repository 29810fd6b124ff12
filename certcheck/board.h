/* board.h: octad's rules, written from docs/rules.md alone for the certificate checker
 * (certcheck shares no code with the rest of the project: the point of a second opinion).
 *
 * Squares: a1 = 0, b1 = 1, ..., d1 = 3, a2 = 4, ..., d4 = 15 (square = 4 * rank + file).
 * Men: 0 empty; White P N B R Q K = 1..6; Black the same + 8 (9..14).
 * Castling rights belong to pieces: a set bit says the man on that home-rank square holds
 * one (bits 0-3: White's, files a-d of rank 1; bits 4-7: Black's, files a-d of rank 4). */
#pragma once

#include <stdint.h>

enum { CC_EMPTY = 0, CC_P = 1, CC_N, CC_B, CC_R, CC_Q, CC_K, CC_BLACK = 8 };
enum { CC_WHITE_TO_MOVE = 0, CC_BLACK_TO_MOVE = 1 };
enum { CC_MAX_MOVES = 64 };

typedef struct {
    uint8_t sq[16];   /* men, as above */
    int side;         /* 0 White, 1 Black to move */
    uint8_t rights;   /* castling rights by partner square, as above */
    int ep;           /* the square a double step jumped over, or -1 */
    int clock;        /* halfmove clock */
    int fullmove;
} cc_pos_t;

/* A move: from, to (for a castle: the king's square and its partner's, as UOI writes it),
 * and the promotion piece (CC_N..CC_Q) or 0. */
typedef struct {
    uint8_t from, to, promo;
} cc_move_t;

/* How a position stands by the rules (docs/rules.md, "How a game ends"). */
enum { CC_ONGOING = 0, CC_MATE, CC_STALEMATE, CC_DEAD };

/* Writes p as OFEN into buf (>= 64 bytes), the castling letters by role as the rules say. */
void cc_format_ofen(const cc_pos_t *p, char *buf);
/* Parses an OFEN; 0, or -1 with a message naming the field and the problem in err. */
int cc_parse_ofen(const char *text, cc_pos_t *p, char *err, int errlen);
/* Every legal move of p into moves (room for CC_MAX_MOVES); returns how many. */
int cc_legal_moves(const cc_pos_t *p, cc_move_t *moves);
/* p after the legal move m (clock, rights, e.p. square and move number updated). */
cc_pos_t cc_play(const cc_pos_t *p, cc_move_t m);
/* Whether side's king stands attacked. */
int cc_in_check(const cc_pos_t *p, int side);
/* CC_MATE, CC_STALEMATE, CC_DEAD (insufficient material) or CC_ONGOING. */
int cc_status(const cc_pos_t *p);
/* Clears the e.p. square unless a legal e.p. capture uses it (the rules' identity of positions). */
void cc_canonical_ep(cc_pos_t *p);
/* The move as UOI text into buf (>= 6 bytes). */
void cc_move_text(cc_move_t m, char *buf);
/* Number of men on the board, kings included. */
int cc_men(const cc_pos_t *p);
