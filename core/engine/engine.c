/* engine.c: the engine object's life cycle and the move helpers of engine.h. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>

#include "search.h"

engine_t *engine_new(size_t hash_bytes)
{
    game_init();
    search_init();
    engine_t *self = calloc(1, sizeof *self);
    if (self == NULL)
        return NULL;
    self->tt = ttable_new(hash_bytes);
    self->evc = evcache_new();
    if (self->tt == NULL || self->evc == NULL) {
        ttable_destroy(&self->tt);
        evcache_destroy(&self->evc);
        free(self);
        return NULL;
    }
    self->threads = 1;
    pthread_mutex_init(&self->probe_lock, NULL);
    return self;
}

void engine_destroy(engine_t **self_p)
{
    if (self_p == NULL || *self_p == NULL)
        return;
    ttable_destroy(&(*self_p)->tt);
    evcache_destroy(&(*self_p)->evc);
    pthread_mutex_destroy(&(*self_p)->probe_lock);
    free(*self_p);
    *self_p = NULL;
}

int engine_set_hash(engine_t *self, size_t hash_bytes)
{
    ttable_t *tt = ttable_new(hash_bytes);
    if (tt == NULL)
        return -1;
    ttable_destroy(&self->tt);
    self->tt = tt;
    return 0;
}

void engine_clear(engine_t *self)
{
    ttable_clear(self->tt);
    memset(&self->order, 0, sizeof self->order);
}

void engine_set_threads(engine_t *self, int threads)
{
    self->threads = threads < 1 ? 1 : threads > ENGINE_THREADS_MAX ? ENGINE_THREADS_MAX : threads;
}

void engine_set_probe(engine_t *self, engine_probe_fn probe, void *ctx)
{
    self->probe = probe;
    self->probe_ctx = ctx;
}

engine_key_t engine_key(const game_pos_t *pos)
{
    return board_ops(pos)->key(pos);
}

void engine_make(const game_pos_t *pos, engine_move_t m, game_pos_t *out)
{
    game_pos_t tmp;
    board_ops(pos)->make(pos, m, &tmp);
    *out = tmp;
}

void engine_move_text(const game_pos_t *pos, engine_move_t m, char *buf)
{
    if (pos->variant == VARIANT_OCTAD)
        octad_move_uoi(&pos->u.octad, m, buf);
    else
        chess_move_uci(&pos->u.chess, m, buf);
}

/* Standard chess also takes a castle written king-takes-rook (e1h1). */
static bool s_chess_castle_alias(const game_pos_t *pos, engine_move_t m, const char *text)
{
    if (pos->variant != VARIANT_CHESS || move_type(m) != CHESS_MOVE_CASTLING)
        return false;
    char alt[MOVE_TEXT_MAX];
    int from = move_from(m), to = move_to(m);
    snprintf(alt, sizeof alt, "%c%c%c%c", 'a' + (from & 7), '1' + (from >> 3), 'a' + (to & 7), '1' + (to >> 3));
    return strcmp(alt, text) == 0;
}

engine_move_t engine_move_parse(const game_pos_t *pos, const char *text)
{
    engine_move_t moves[GAME_MOVES_MAX];
    char buf[MOVE_TEXT_MAX];
    int n = board_ops(pos)->gen(pos, moves);
    for (int i = 0; i < n; i++) {
        engine_move_text(pos, moves[i], buf);
        if (strcmp(buf, text) == 0 || s_chess_castle_alias(pos, moves[i], text))
            return moves[i];
    }
    return ENGINE_MOVE_NONE;
}

int64_t engine_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
