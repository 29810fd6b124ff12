/* perft_compare.h: our perft divide against another engine's, descending to the first difference.
 *
 * At each position both divides are asked for the same depth. If the move lists
 * differ, that position is the answer (the moves we have and the engine lacks,
 * and the reverse). If they list the same moves but a count differs, the descent
 * goes into the differing move with the smallest count (the cheapest to follow:
 * any differing move leads to a difference) one ply deeper, until depth 1, where a
 * count other than 1 is itself the answer. An engine whose divide after a move
 * sums to something other than the count it gave that move is named as inconsistent. */
#pragma once

#include <stdbool.h>

#include "perft_engine.h"

enum { PERFT_CMP_PATH_MAX = 64, PERFT_CMP_LIST_MAX = 64 };

typedef struct {
    bool equal;
    count_t ours, theirs;                  /* the totals at the root */
    int path_nb;                           /* moves from the root to `position` (ours, UCI/UOI) */
    char path[PERFT_CMP_PATH_MAX][MOVE_TEXT_MAX];
    char position[GAME_TEXT_MAX];          /* where the difference is (FEN/OFEN) */
    int depth;                             /* the depth asked at `position` */
    int missing_nb;                        /* legal moves there the engine does not list */
    char missing[PERFT_CMP_LIST_MAX][MOVE_TEXT_MAX];
    int extra_nb;                          /* moves the engine lists that are not legal there */
    char extra[PERFT_CMP_LIST_MAX][MOVE_TEXT_MAX];
    char move[MOVE_TEXT_MAX];              /* when the lists agree: the move whose count differs */
    count_t move_ours, move_theirs;        /* its counts (depth 1: ours is 1) */
    char note[256];                        /* one sentence saying what differs */
} perft_cmp_t;

/* Compares perft(depth) of root (depth >= 1) between us and the engine, filling
 * *out (out->equal, or where and how they differ). 0, or -1 with the engine's
 * failure in err. */
int perft_compare(perft_engine_t *eng, const game_pos_t *root, int depth, perft_cmp_t *out, char *err,
                  size_t errlen);
