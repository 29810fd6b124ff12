/* split_move.c: one root move searched alone, and the order of a split's lines (see split_move.h). */
#include "split_move.h"

#include <stdio.h>
#include <string.h>

int engine_split_move(engine_t *eng, const game_pos_t *root, const engine_history_t *history, engine_move_t m,
                      int depth, engine_result_t *out)
{
    static _Thread_local engine_limits_t lim; /* about 1 KB of searchmoves: off the stack */
    memset(&lim, 0, sizeof lim);
    lim.depth = depth;
    lim.multipv = 1;
    lim.nsearchmoves = 1;
    lim.searchmoves[0] = m;
    engine_set_threads(eng, 1);
    engine_clear(eng);
    return engine_search(eng, root, history, &lim, NULL, NULL, NULL, out);
}

void engine_split_order(const int *scores, int n, int *order)
{
    for (int i = 0; i < n; i++) { /* insertion sort: stable, and n <= GAME_MOVES_MAX */
        int j = i;
        while (j > 0 && scores[order[j - 1]] < scores[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
}

int engine_split_game(engine_game_t *g, variant_t v, const char *start, const char *moves, size_t stride, int n,
                      char *err, size_t errlen)
{
    game_pos_t root;
    char why[200];
    if (game_parse(v, start, &root, why, sizeof why) != 0) {
        snprintf(err, errlen, "position \"%.60s\": %s", start, why);
        return -1;
    }
    engine_game_reset(g, &root);
    for (int k = 0; k < n; k++)
        if (engine_game_play(g, moves + (size_t)k * stride) != 0) {
            snprintf(err, errlen, "moves: move %d '%.15s' is not legal there", k + 1, moves + (size_t)k * stride);
            return -1;
        }
    return 0;
}

void engine_split_collect(engine_result_t *r, const engine_line_t *lines, int n)
{
    int scores[GAME_MOVES_MAX] = {0}, order[GAME_MOVES_MAX] = {0};
    for (int i = 0; i < n; i++)
        scores[i] = lines[i].score;
    engine_split_order(scores, n, order);
    r->nlines = 0;
    for (int i = 0; i < n; i++)
        r->lines[r->nlines++] = lines[order[i]];
    r->best = n ? r->lines[0].pv[0] : ENGINE_MOVE_NONE;
    r->ponder = n && r->lines[0].pvlen > 1 ? r->lines[0].pv[1] : ENGINE_MOVE_NONE;
}
