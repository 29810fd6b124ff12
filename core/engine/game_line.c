/* game_line.c: engine_game_t, a position with the keys of the game before it (engine.h). */
#include <string.h>

#include "engine.h"

void engine_game_reset(engine_game_t *g, const game_pos_t *pos)
{
    g->pos = *pos;
    g->n = 0;
}

void engine_game_make(engine_game_t *g, engine_move_t m)
{
    if (g->n == ENGINE_HISTORY_MAX) {
        memmove(g->keys, g->keys + 1, sizeof(engine_key_t) * (ENGINE_HISTORY_MAX - 1));
        g->n--;
    }
    g->keys[g->n++] = engine_key(&g->pos);
    engine_make(&g->pos, m, &g->pos);
}

int engine_game_play(engine_game_t *g, const char *text)
{
    engine_move_t m = engine_move_parse(&g->pos, text);
    if (m == ENGINE_MOVE_NONE)
        return -1;
    engine_game_make(g, m);
    return 0;
}

engine_history_t engine_game_history(const engine_game_t *g)
{
    return (engine_history_t){ .keys = g->keys, .n = g->n };
}
