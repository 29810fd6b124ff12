/* game.h: the one small interface over every variant, used by the CLI, the
 * worker, the coordinator and the generic perft drivers.
 *
 * Each variant keeps its rules in its own folder (core/octad/, core/chess/)
 * and exposes a handful of functions (octad.h, chess.h); this file dispatches
 * on the variant stored in the position. Game values are plain structs that
 * live on the stack; only the hash table is a heap object. */
#pragma once

#include "base/api.h"
#include "chess/chess.h"
#include "octad/octad.h"
#include "base/types.h"

/* A position of any variant; `variant` says which member of `u` is live. */
typedef struct {
    variant_t variant;
    union {
        octad_pos_t octad;
        chess_pos_t chess;
    } u;
} game_pos_t;

/* One legal move of a position, its texts and the position it leads to. */
typedef struct {
    char uoi[MOVE_TEXT_MAX]; /* long algebraic: octad UOI, chess UCI */
    char san[MOVE_TEXT_MAX]; /* standard algebraic, with +/# */
    game_pos_t child;
} game_child_t;

/* Position status flags for `show`. */
enum {
    GAME_IN_CHECK = 1,
    GAME_CHECKMATE = 2,
    GAME_STALEMATE = 4
};

/* A perft transposition table of one variant; one thread uses it at a time
 * unless game_tt_shareable() says otherwise. */
typedef struct game_tt game_tt_t;

/* Builds every variant's tables. Idempotent and thread-safe. Optional:
 * game_parse() builds the tables of the variant it parses on first use (every
 * position starts as a parse), so a program pays only for the variants it meets. */
OCTAD_API void game_init(void);

/* Name of a variant: "octad", "chess", "chess960". */
OCTAD_API const char *game_variant_name(variant_t v);

/* Parses a variant name; returns 0, or -1 if unknown. */
OCTAD_API int game_variant_parse(const char *name, variant_t *out);

/* The standard start position's text for a variant (Chess960: the classical array, start 518). */
OCTAD_API const char *game_start_text(variant_t v);

/* Parses `text` (OFEN for octad, FEN/X-FEN/Shredder-FEN for chess) strictly.
 * Returns 0 and fills *out, or -1 and writes a one-line message naming the
 * field and the problem into err (errlen bytes, may be 0). Never asserts on input. */
OCTAD_API int game_parse(variant_t v, const char *text, game_pos_t *out, char *err, size_t errlen);

/* Formats the position canonically into buf (GAME_TEXT_MAX bytes suffice). */
OCTAD_API void game_format(const game_pos_t *pos, char *buf, size_t len);

/* Formats only what perft depends on (placement, side, rights, e.p.): two
 * positions with the same key text have identical game trees. */
OCTAD_API void game_format_key(const game_pos_t *pos, char *buf, size_t len);

/* Fills out[] (GAME_MOVES_MAX entries) with every legal move; returns how many. */
OCTAD_API int game_children(const game_pos_t *pos, game_child_t *out);

/* Number of legal moves. */
OCTAD_API int game_count_moves(const game_pos_t *pos);

/* GAME_IN_CHECK / GAME_CHECKMATE / GAME_STALEMATE flags of the side to move. */
OCTAD_API int game_status(const game_pos_t *pos);

/* Whether the position is drawn by insufficient material (octad: RULES.md; chess:
 * the FIDE dead positions of that shape: K v K, one minor, same-coloured bishops). */
OCTAD_API bool game_insufficient_material(const game_pos_t *pos);

/* Draws the board as text (ranks top to bottom, files labelled) into buf. */
OCTAD_API void game_draw(const game_pos_t *pos, char *buf, size_t len);

/* Plays the legal move written `uoi` (UOI/UCI text) into *out. Returns 0, or
 * -1 with a message if the text is malformed or names no legal move. */
OCTAD_API int game_play(const game_pos_t *pos, const char *uoi, game_pos_t *out, char *err, size_t errlen);

/* Perft of one position, single-threaded, bulk counting at the last ply.
 * tt may be NULL (no table); with a table the count is exactly the same. */
OCTAD_API count_t game_perft(const game_pos_t *pos, int depth, game_tt_t *tt);

/* Perft with counts by kind at the last ply, single-threaded, no table.
 * Adds into *out (the caller zeroes it). */
OCTAD_API void game_perft_stats(const game_pos_t *pos, int depth, perft_stats_t *out);

/* New table of at most `bytes` bytes for variant v; NULL if bytes is too small
 * or allocation fails. The caller owns it. */
OCTAD_API game_tt_t *game_tt_new(variant_t v, size_t bytes);

/* True when threads may use one table of variant v at once and stay exact:
 * octad on x86-64 with AVX (core/octad/tt.h). Otherwise a table serves one
 * thread at a time. */
OCTAD_API bool game_tt_shareable(variant_t v);

/* Frees *self_p and sets it to NULL; safe on NULL. */
OCTAD_API void game_tt_destroy(game_tt_t **self_p);
