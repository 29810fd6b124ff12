/* split_move.c: one root move searched alone, and the order of a split's lines (see split_move.h). */
#include "split_move.h"

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
