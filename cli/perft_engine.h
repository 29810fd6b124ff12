/* perft_engine.h: another program's perft divide, asked as that program understands it.
 *
 * Protocols (rows of the table in perft_engine.c):
 *   uci       one long-lived process: `uci`, `setoption` for the variant (UCI_Chess960
 *             for Chess960, UCI_Variant octad for octad), then for each question
 *             `position fen ROOT [moves M...]`, `isready`, `go perft N`; the answer is
 *             Stockfish's divide: `move: count` lines, then `Nodes searched: N`.
 *   perftree  one process per question, the perftree script convention:
 *             `COMMAND DEPTH FEN [MOVES]` (MOVES one argument, space-separated);
 *             it prints `move count` lines, a blank line and the total, then exits.
 *             Its environment has OCTAD_VARIANT=chess|chess960|octad.
 * Either protocol accepts `move: count` and `move count`, and skips blank lines and
 * `info ...` lines; any other line is an error that quotes it. */
#pragma once

#include <stdbool.h>

#include "game.h"

enum { PERFT_DIVIDE_MAX = 512 }; /* more moves than any legal position has, room for a bug's extras */

/* An engine's answer to one question. */
typedef struct {
    int nb;
    char move[PERFT_DIVIDE_MAX][MOVE_TEXT_MAX]; /* as the engine wrote them */
    count_t nodes[PERFT_DIVIDE_MAX];
    count_t total; /* the total the engine printed */
} perft_divide_t;

typedef struct perft_engine perft_engine_t;

/* Starts (uci) or remembers (perftree) COMMAND speaking `protocol` ("uci" or
 * "perftree") for variant v; every answer must come within timeout_ms. NULL with
 * a message in err (unknown protocol, the engine did not start or did not answer uci). */
perft_engine_t *perft_engine_new(const char *command, const char *protocol, variant_t v, int timeout_ms,
                                 char *err, size_t errlen);

/* True if `protocol` names a protocol. */
bool perft_engine_protocol_known(const char *protocol);

/* Asks the engine for the divide of `root` (a FEN/OFEN) after moves[0..nmoves-1]
 * (in the engine's own texts) to `depth` (>= 1) into *out. 0, or -1 with a message
 * in err: no answer in time, the engine stopped (and how), a line it cannot read (quoted). */
int perft_engine_divide(perft_engine_t *self, const char *root, const char *const *moves, int nmoves, int depth,
                        perft_divide_t *out, char *err, size_t errlen);

/* Stops the engine and frees *self_p, sets it to NULL; safe on NULL. */
void perft_engine_destroy(perft_engine_t **self_p);
