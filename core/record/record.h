/* record.h: a game record: a start position and the moves played from it, with
 * the outcome and how the game ended (checkmate, stalemate, repetition, the
 * move rules, insufficient material, resignation, agreement, a claim).
 *
 * The draw rules (RULES.md "End of the game", FIDE 9.2, 9.3, 9.6):
 * - octad: threefold repetition, the 25-move rule (halfmove clock 50) and
 *   insufficient material all end the game automatically;
 * - chess and Chess960: fivefold repetition, the 75-move rule (clock 150) and
 *   insufficient material are automatic; threefold repetition and the 50-move
 *   rule (clock 100) only let a player claim (record_claimable, record_claim_draw).
 * Checkmate on the move that reaches a move-rule count wins. Positions repeat
 * when placement, side to move, castling rights and the en-passant square are
 * the same, the e.p. square counting only when an e.p. capture is legal.
 * Resignation, agreement, a time forfeit and claims end the game from outside
 * the moves (record_end and the calls built on it).
 *
 * A record is plain data with one heap array (the plies); record_init and
 * record_free bracket its life. */
#pragma once

#include "gmove.h"

typedef enum {
    RESULT_NONE, /* "*": still going */
    RESULT_WHITE, /* "1-0" */
    RESULT_BLACK, /* "0-1" */
    RESULT_DRAW   /* "1/2-1/2" */
} result_t;

typedef enum {
    TERM_NONE,
    TERM_CHECKMATE,
    TERM_STALEMATE,
    TERM_INSUFFICIENT_MATERIAL,
    TERM_REPETITION,     /* automatic: octad threefold, chess fivefold */
    TERM_MOVE_RULE,      /* automatic: octad 25-move (clock 50), chess 75-move (clock 150) */
    TERM_CLAIM_THREEFOLD, /* chess: claimed */
    TERM_CLAIM_FIFTY,     /* chess: claimed 50-move rule */
    TERM_RESIGNATION,
    TERM_AGREEMENT,
    TERM_TIME_FORFEIT,   /* a flag fell (a win, or a draw when the opponent cannot mate: FIDE 6.9) */
    TERM_DECLARED,       /* the result was given (by a PGN record) without a rule that ends the game */
    TERM_NB
} termination_t;

/* Draws a player may claim in the current position (chess only; octad's are automatic). */
enum { CLAIM_THREEFOLD = 1, CLAIM_FIFTY = 2 };

/* One ply: the move and the position it led to, with what the rules need. */
typedef struct {
    gmove_t move;        /* GMOVE_NONE for the start entry */
    uint8_t status;      /* game_status() flags of pos */
    uint8_t ep_live;     /* pos's e.p. square allows a legal e.p. capture */
    game_pos_t pos;
} record_ply_t;

typedef struct {
    record_ply_t *plies; /* plies[0] is the start; plies[k] the position after k moves */
    int ply_nb;          /* moves played */
    int cap;
    result_t result;
    termination_t termination;
    int8_t loser;        /* record_end: the side that lost (0 white, 1 black), -1 a draw */
    bool play_on;        /* record_play goes on after the game ended; the first outcome stays */
    int end_ply;         /* the ply at which the rules ended the game (when they did) */
    bool lazy;           /* record_play leaves mate and stalemate for record_settle (a PGN
                          * replay: the next move of the file proves a ply was not terminal) */
} record_t;

/* Starts a record at `start`; the outcome of the start position itself is
 * applied (a mate or a dead start ends the game at once). 0, or -1 out of memory. */
int record_init(record_t *rec, const game_pos_t *start);

/* Frees the plies; the record must be initialised again before use. Safe twice. */
void record_free(record_t *rec);

/* Replaces *dst by a copy of *src (dst initialised, or zeroed). 0 or -1. */
int record_copy(record_t *dst, const record_t *src);

/* The current position (after the last move). */
const game_pos_t *record_pos(const record_t *rec);

/* The position after `ply` moves (0 = start), ply in [0, ply_nb]. */
const game_pos_t *record_pos_at(const record_t *rec, int ply);

/* Whether the game is over (result != RESULT_NONE). */
bool record_over(const record_t *rec);

/* Plays the legal move m. Returns 0, or -1 if the game is over (unless play_on) or out of memory.
 * The caller guarantees m is legal (from gmove_legal or san_resolve). */
int record_play(record_t *rec, gmove_t m);

/* Plays move text (SAN, UOI, ...: san.h). 0, or -1 with a message (err) naming the move and why. */
int record_play_text(record_t *rec, const char *text, char *err, size_t errlen);

/* Ends lazy mode: finds whether the current position is mate or stalemate, unless
 * the game already ended. */
void record_settle(record_t *rec);

/* game_status() flags of the position after `ply` moves (computed on first use in lazy mode). */
int record_status(const record_t *rec, int ply);

/* Takes back the last move (if any) and recomputes the outcome; a resignation,
 * agreement or claim made after it is withdrawn too. Returns 0, or -1 at the start. */
int record_undo(record_t *rec);

/* Ends the game by a termination the moves do not reach by themselves, with result r:
 * TERM_RESIGNATION (r 1-0 or 0-1: the loser resigned), TERM_AGREEMENT (a draw),
 * TERM_CLAIM_THREEFOLD / TERM_CLAIM_FIFTY (a draw, when that claim is open now:
 * record_claimable), TERM_TIME_FORFEIT or TERM_DECLARED (any result). 0, or -1
 * if the game is over, r is RESULT_NONE, or t and r do not fit. */
int record_end(record_t *rec, termination_t t, result_t r);

/* Ends the game by resignation of the side to move (`side` = 0 white, 1 black). -1 if over. */
int record_resign(record_t *rec, int side);

/* Ends the game as drawn by agreement. -1 if over. */
int record_agree_draw(record_t *rec);

/* CLAIM_* flags of the draws claimable now (chess: position seen 3 times, or clock >= 100). */
int record_claimable(const record_t *rec);

/* Claims a draw (threefold first, then fifty). 0, or -1 if nothing is claimable or the game is over. */
int record_claim_draw(record_t *rec);

/* Sets a result with TERM_DECLARED (a PGN's result where the rules did not end the game). -1 if over. */
int record_declare(record_t *rec, result_t result);

/* How many times the current position has occurred (1 the first time). */
int record_repetitions(const record_t *rec);

/* PGN texts: "1-0", "0-1", "1/2-1/2", "*". */
const char *record_result_text(result_t r);

/* Parses a PGN result text; 0, or -1 if it is none of the four. */
int record_result_parse(const char *text, result_t *out);

/* Names: "checkmate", "stalemate", "insufficient material", "threefold repetition"
 * (octad) / "fivefold repetition" (chess), "25-move rule" / "75-move rule",
 * "threefold repetition (claimed)", "50-move rule (claimed)", "resignation",
 * "agreement", "time forfeit", "declared", "none". What [Termination] carries. */
const char *record_termination_name(const record_t *rec);

/* The name of termination t in a game of variant v (as record_termination_name). */
const char *record_termination_text(termination_t t, variant_t v);

/* Reads a name of record_termination_text (case aside) for variant v: every
 * termination but TERM_NONE and TERM_DECLARED. 0, or -1 for any other text. */
int record_termination_parse(const char *text, variant_t v, termination_t *out);
