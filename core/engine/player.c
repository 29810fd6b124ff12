/* player.c: players by name (player.h) and the random player. */
#include "player.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "rng.h"

/* The player kinds (a new kind is one more line here, and in the message below). */
static const struct {
    const char *prefix; /* the text, or its start up to ':' */
    player_t *(*create)(const char *arg, const player_opts_t *opts, char *err, size_t errlen);
} s_kinds[] = {
    {"random", player_random_new},
    {"uci", player_uci_new},
    {"engine", player_engine_new},
};

player_t *player_new(const char *spec, const player_opts_t *opts, char *err, size_t errlen)
{
    size_t n = strcspn(spec, ":");
    for (size_t i = 0; i < sizeof s_kinds / sizeof s_kinds[0]; i++)
        if (strlen(s_kinds[i].prefix) == n && strncmp(spec, s_kinds[i].prefix, n) == 0)
            return s_kinds[i].create(spec[n] == ':' ? spec + n + 1 : NULL, opts, err, errlen);
    err_printf(err, errlen, "player '%.40s': unknown (random, engine[:DEPTH|:MSms] or uci:COMMAND)", spec);
    return NULL;
}

void player_destroy(player_t **self_p)
{
    if (self_p == NULL || *self_p == NULL)
        return;
    if ((*self_p)->release)
        (*self_p)->release(*self_p);
    free(*self_p);
    *self_p = NULL;
}

static int s_random_choose(player_t *self, const record_t *rec, gmove_t *out, char *err, size_t errlen)
{
    gmove_t moves[GAME_MOVES_MAX];
    int n = gmove_legal(record_pos(rec), moves);
    if (n == 0)
        return err_printf(err, errlen, "random player: no legal move");
    *out = moves[rng_next((uint64_t *)self->state) % (uint64_t)n];
    return 0;
}

static void s_random_release(player_t *self)
{
    free(self->state);
}

player_t *player_random_new(const char *arg, const player_opts_t *opts, char *err, size_t errlen)
{
    if (arg != NULL) {
        err_printf(err, errlen, "player 'random:%.20s': random takes no argument", arg);
        return NULL;
    }
    player_t *p = calloc(1, sizeof *p);
    uint64_t *state = malloc(sizeof *state);
    if (p == NULL || state == NULL) {
        free(p);
        free(state);
        err_printf(err, errlen, "player: out of memory");
        return NULL;
    }
    *state = opts->seed;
    strcpy(p->name, "random");
    p->choose_move = s_random_choose;
    p->release = s_random_release;
    p->state = state;
    return p;
}
