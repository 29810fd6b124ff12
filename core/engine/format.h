/* format.h: the texts of search output shared by UCI and `octad search`:
 * scores ("cp 23", "mate -3"), PVs in long algebraic, and whole UCI info lines. */
#pragma once

#include <stddef.h>
#include <stdio.h>

#include "engine.h"

/* "cp N" or "mate N" (N moves, negative when the side to move is mated). */
void format_score(int score, char *buf, size_t len);

/* Moves to mate for a mate score (negative: being mated), 0 if not a mate score. */
int format_mate_moves(int score);

/* The PV as space-separated long algebraic moves, played from root. */
void format_pv(const game_pos_t *root, const engine_move_t *pv, int n, char *buf, size_t len);

/* A UCI info line without the trailing newline:
 * "info depth D seldepth S multipv K score ... [lowerbound|upperbound] nodes N nps N hashfull H time T pv ...". */
void format_info(const game_pos_t *root, const engine_info_t *info, char *buf, size_t len);

/* A search's result as one JSON object and a newline (what `octad search
 * --json` prints): variant, position, depth, seldepth, nodes, time_ms,
 * bestmove, ponder (null when none) and every line's multipv, score ({"cp":
 * N} or {"mate": N}), bound and pv. */
void format_print_json(FILE *out, const game_pos_t *pos, const engine_result_t *r);

/* "bestmove M [ponder P]" and a newline, or "bestmove (none)". */
void format_print_bestmove(FILE *out, const game_pos_t *pos, const engine_result_t *r);

/* Bytes enough for any info line. */
enum { FORMAT_INFO_MAX = 256 + ENGINE_MAX_PLY * MOVE_TEXT_MAX };
