/* tables.h: octad tablebases for other programs (installed as octad/tables.h):
 * generate them, and read a position's exact value, distances and best moves.
 * What the values mean: docs/solver.md. */
#pragma once

#include <stddef.h>

#include "base/api.h"
#include "octad/octad.h"

/* Values for the side to move; the same numbers as the table records. */
enum {
    OCTAD_TB_LOSS = 0,
    OCTAD_TB_BLESSED_LOSS = 1, /* lost only without the 25-move rule */
    OCTAD_TB_DRAW = 2,
    OCTAD_TB_CURSED_WIN = 3,   /* won only without the 25-move rule */
    OCTAD_TB_WIN = 4
};

typedef struct octad_tables octad_tables_t;

/* A position's value. */
typedef struct {
    int wdl;        /* OCTAD_TB_* at the position's halfmove clock */
    int wdl_clock0; /* OCTAD_TB_* with the clock at 0 (what the table stores) */
    int dtz;        /* plies to the next zeroing move or mate (0 for draws) */
    int dtm;        /* plies to mate without the 25-move rule (0 for draws) */
} octad_tb_value_t;

/* Opens the tables in dir (read lazily, as positions need them); NULL if out
 * of memory. */
OCTAD_API octad_tables_t *octad_tables_open(const char *dir);

/* Closes *self_p and sets it to NULL; safe on NULL. */
OCTAD_API void octad_tables_close(octad_tables_t **self_p);

/* Value of a legal position. 0, or -1 if a table it needs is missing or
 * corrupted (octad_tables_error says which and why). */
OCTAD_API int octad_tables_probe(octad_tables_t *self, const octad_pos_t *pos, octad_tb_value_t *out);

/* Writes the legal moves best first into moves (GAME_MOVES_MAX entries):
 * the value each keeps for the mover, then the fastest mate when winning and
 * the slowest when losing. Returns the number of moves and sets *nbest to how
 * many share the best rank, or -1 as octad_tables_probe. */
OCTAD_API int octad_tables_moves(octad_tables_t *self, const octad_pos_t *pos, octad_move_t *moves, int *nbest);

/* The last error, naming the table file and the problem. */
OCTAD_API const char *octad_tables_error(octad_tables_t *self);

/* "win", "cursed-win", "draw", "blessed-loss", "loss". */
OCTAD_API const char *octad_tables_wdl_name(int wdl);

/* Generates every table with at most max_pieces pieces (kings included)
 * into dir, reusing those already there. 0, or -1 with a message. */
OCTAD_API int octad_tables_generate(const char *dir, int max_pieces, int threads, char *err, size_t errlen);
