/* octad.h: the octad variant's public functions, dispatched to by game.h.
 * Rules: docs/rules.md. The position type and the square numbering
 * live in position.h, the move encoding in move.h. */
#pragma once

#include "../base/api.h"
#include "../base/types.h"
#include "move.h"
#include "position.h"

typedef struct octad_tt octad_tt_t;

/* Builds attack tables. Idempotent; not thread-safe (game_init serialises it).
 * Must run before any other function here. */
OCTAD_API void octad_init(void);

/* The start position's OFEN. */
extern const char OCTAD_START_OFEN[];

/* Strict OFEN parse (RULES.md "OFEN"); 0 or -1 with a message naming the field. */
OCTAD_API int octad_parse(const char *text, octad_pos_t *out, char *err, size_t errlen);

/* Canonical OFEN (castling letters by role, order NCFncf). */
OCTAD_API void octad_format(const octad_pos_t *pos, char *buf, size_t len);

/* OFEN fields 1-4 only. */
OCTAD_API void octad_format_key(const octad_pos_t *pos, char *buf, size_t len);

/* Legal moves into moves[] (GAME_MOVES_MAX); returns the count. */
OCTAD_API int octad_gen_legal(const octad_pos_t *pos, octad_move_t *moves);

/* Copy-make: *out = pos after the legal move m. */
OCTAD_API void octad_make(const octad_pos_t *pos, octad_move_t m, octad_pos_t *out);

/* UOI text of a legal move (castles as king square + partner square). */
OCTAD_API void octad_move_uoi(const octad_pos_t *pos, octad_move_t m, char *buf);

/* SAN text of a legal move, with + or #. */
OCTAD_API void octad_move_san(const octad_pos_t *pos, octad_move_t m, char *buf);

/* Status flags; the same values as GAME_IN_CHECK / GAME_CHECKMATE / GAME_STALEMATE in game.h. */
enum { OCTAD_IN_CHECK = 1, OCTAD_CHECKMATE = 2, OCTAD_STALEMATE = 4 };

/* OCTAD_IN_CHECK / OCTAD_CHECKMATE / OCTAD_STALEMATE flags of the side to move. */
OCTAD_API int octad_status(const octad_pos_t *pos);

/* Whether the game is drawn at once by insufficient material (RULES.md "End of
 * the game": no queen, rook or pawn, and at most one minor piece or only bishops
 * all on one square colour; a1 is dark). */
OCTAD_API bool octad_insufficient_material(const octad_pos_t *pos);

/* Board drawing for `octad show`. */
OCTAD_API void octad_draw(const octad_pos_t *pos, char *buf, size_t len);

/* Bulk-counting perft (depth 0 gives 1); tt may be NULL, and with a table the
 * count is exactly the same. */
OCTAD_API count_t octad_perft(const octad_pos_t *pos, int depth, octad_tt_t *tt);

/* Perft with stats at the last ply; adds into *out. */
OCTAD_API void octad_perft_stats(const octad_pos_t *pos, int depth, perft_stats_t *out);

/* Table of at most `bytes` bytes (header included); NULL if not even one
 * 64-byte bucket fits or out of memory. The caller owns it. Threads may share
 * it only when octad_tt_shareable() is true; otherwise one thread at a time. */
OCTAD_API octad_tt_t *octad_tt_new(size_t bytes);

/* True when this CPU reads and writes a table entry atomically (x86-64 with
 * AVX), so threads may share one table and stay exact (tt.h). */
OCTAD_API bool octad_tt_shareable(void);

/* Frees *self_p and sets it to NULL; safe on NULL and on a NULL *self_p. */
OCTAD_API void octad_tt_destroy(octad_tt_t **self_p);
