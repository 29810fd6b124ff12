/* chess.h: the chess and Chess960 variants' public functions, dispatched to
 * by game.h. The position type and square numbering live in position.h, the
 * move encoding in move.h. Whether a position is chess or Chess960 is data in
 * the position (chess_pos_t), set by the parser from its `variant` argument. */
#pragma once

#include "../base/api.h"
#include "../base/types.h"
#include "move.h"
#include "position.h"

typedef struct chess_tt chess_tt_t;

/* Builds attack tables (magics or PEXT, chosen at run time). Idempotent; not
 * thread-safe (game_init serialises it). */
OCTAD_API void chess_init(void);

/* The standard start position's FEN. */
extern const char CHESS_START_FEN[];

/* Strict FEN parse (KQkq, X-FEN and Shredder-FEN castling); variant is
 * VARIANT_CHESS or VARIANT_CHESS960. 0, or -1 with a message naming the field. */
OCTAD_API int chess_parse(variant_t variant, const char *text, chess_pos_t *out, char *err, size_t errlen);

/* Canonical FEN: KQkq in chess; in Chess960 Shredder-FEN letters. */
OCTAD_API void chess_format(const chess_pos_t *pos, char *buf, size_t len);

/* FEN fields 1-4 only. */
OCTAD_API void chess_format_key(const chess_pos_t *pos, char *buf, size_t len);

/* Chess960 start position number n (0-959, standard numbering, 518 = classical) as FEN; 0 or -1. */
OCTAD_API int chess960_start_fen(int n, char *buf, size_t len);

/* Writes every legal move into moves (GAME_MOVES_MAX entries); returns how many. */
OCTAD_API int chess_gen_legal(const chess_pos_t *pos, chess_move_t *moves);

/* Writes into *out the position after the legal move m (hash kept up to date). */
OCTAD_API void chess_make(const chess_pos_t *pos, chess_move_t m, chess_pos_t *out);

/* UCI text of the legal move m: e1g1 in chess, king-takes-rook e1h1 in Chess960 (MOVE_TEXT_MAX bytes). */
OCTAD_API void chess_move_uci(const chess_pos_t *pos, chess_move_t m, char *buf);

/* SAN of the legal move m (O-O / O-O-O, +/# suffix) into buf (MOVE_TEXT_MAX bytes). */
OCTAD_API void chess_move_san(const chess_pos_t *pos, chess_move_t m, char *buf);

/* Flags of the side to move: 1 in check, 2 checkmate (with 1), 4 stalemate (game.h's values). */
OCTAD_API int chess_status(const chess_pos_t *pos);

/* Whether no sequence of legal moves can give checkmate by the material alone:
 * no queen, rook or pawn, and at most one minor piece or only bishops all on one
 * square colour (FIDE 5.2.2's dead positions of that shape). */
OCTAD_API bool chess_insufficient_material(const chess_pos_t *pos);

/* The board as text, rank 8 first, files labelled, into buf (len bytes; 256 suffice). */
OCTAD_API void chess_draw(const chess_pos_t *pos, char *buf, size_t len);

/* Perft with bulk counting (depth 1 is the legal move count); tt may be NULL.
 * With a table the count is exactly the same. One thread per table. */
OCTAD_API count_t chess_perft(const chess_pos_t *pos, int depth, chess_tt_t *tt);

/* Adds counts by kind at the last ply into *out (caller zeroes it); no table. */
OCTAD_API void chess_perft_stats(const chess_pos_t *pos, int depth, perft_stats_t *out);

/* New perft table using at most `bytes` bytes in all; NULL if too small or out of memory. */
OCTAD_API chess_tt_t *chess_tt_new(size_t bytes);

/* Frees *self_p and sets it to NULL; safe on NULL. */
OCTAD_API void chess_tt_destroy(chess_tt_t **self_p);
