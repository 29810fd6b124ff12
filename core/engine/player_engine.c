/* player_engine.c: the search engine as a player: "engine" (depth 6),
 * "engine:N" (depth N) or "engine:Nms" (N milliseconds a move). A fixed depth
 * gives the same games for the same seed; a time limit does not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "err.h"
#include "player.h"

typedef struct {
    engine_t *eng;
    engine_limits_t lim;
} s_engine_t;

static int s_engine_choose(player_t *self, const record_t *rec, gmove_t *out, char *err, size_t errlen)
{
    s_engine_t *s = self->state;
    static _Thread_local engine_game_t g;
    static _Thread_local engine_result_t r;
    engine_game_reset(&g, record_pos_at(rec, 0));
    for (int k = 1; k <= rec->ply_nb; k++)
        engine_game_make(&g, (engine_move_t)rec->plies[k].move);
    engine_history_t h = engine_game_history(&g);
    engine_search(s->eng, &g.pos, &h, &s->lim, NULL, NULL, NULL, &r);
    if (r.best == ENGINE_MOVE_NONE) {
        err_printf(err, errlen, "engine: no legal move");
        return -1;
    }
    *out = (gmove_t)r.best;
    return 0;
}

static void s_engine_release(player_t *self)
{
    s_engine_t *s = self->state;
    engine_destroy(&s->eng);
    free(s);
}

player_t *player_engine_new(const char *arg, const player_opts_t *opts, char *err, size_t errlen)
{
    (void)opts;
    engine_limits_t lim = {.depth = 6};
    if (arg != NULL) {
        char *end;
        long n = strtol(arg, &end, 10);
        bool ms = strcmp(end, "ms") == 0;
        if (end == arg || (*end && !ms) || n < 1 || n > (ms ? 3600000L : ENGINE_DEPTH_MAX)) {
            err_printf(err, errlen, "player 'engine:%.20s': expected engine:DEPTH (1-%d) or engine:MILLISECONDSms",
                       arg, ENGINE_DEPTH_MAX);
            return NULL;
        }
        lim = ms ? (engine_limits_t){.movetime_ms = n} : (engine_limits_t){.depth = (int)n};
    }
    player_t *p = calloc(1, sizeof *p);
    s_engine_t *s = calloc(1, sizeof *s);
    if (p == NULL || s == NULL || (s->eng = engine_new((size_t)16 << 20)) == NULL) {
        free(p);
        free(s);
        err_printf(err, errlen, "player: out of memory");
        return NULL;
    }
    s->lim = lim;
    snprintf(p->name, sizeof p->name, "octad engine (%s)", arg ? arg : "depth 6");
    p->choose_move = s_engine_choose;
    p->release = s_engine_release;
    p->state = s;
    return p;
}
