/* player.h: who chooses the moves in `octad play` and `octad selfplay`.
 *
 * A player is a small service object with one job: given a game record, choose
 * a legal move for the side to move. Kinds, by the text that names them:
 *   random       a uniformly random legal move (deterministic for a seed)
 *   uci:COMMAND  any UCI engine, run as a child process (`sh -c COMMAND`)
 *   engine[:N|:Nms]  our search engine, to depth N (default 6) or N ms a move
 * To add a kind, write its constructor and add one line to the table in player.c. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "record.h"

typedef struct player player_t;

struct player {
    char name[64]; /* for the PGN's White/Black tags */
    /* Chooses a legal move of record_pos(rec) into *out: 0, or -1 with a message in err. */
    int (*choose_move)(player_t *self, const record_t *rec, gmove_t *out, char *err, size_t errlen);
    /* Frees what the kind owns (may be NULL). */
    void (*release)(player_t *self);
    void *state;
};

/* What a player kind may use. */
typedef struct {
    uint64_t seed;  /* random */
    const char *go; /* uci: the arguments of "go", e.g. "movetime 100" or "depth 1" */
    int timeout_ms; /* uci: longest wait for any answer */
} player_opts_t;

/* A new player from its text ("random", "uci:stockfish", ...); NULL with a
 * message in err if the text names no kind or the player cannot start. The caller owns it. */
player_t *player_new(const char *spec, const player_opts_t *opts, char *err, size_t errlen);

/* Stops and frees *self_p and sets it to NULL; safe on NULL. */
void player_destroy(player_t **self_p);

/* Kinds (player.c's table dispatches to these). */
player_t *player_random_new(const char *arg, const player_opts_t *opts, char *err, size_t errlen);
player_t *player_uci_new(const char *arg, const player_opts_t *opts, char *err, size_t errlen);
player_t *player_engine_new(const char *arg, const player_opts_t *opts, char *err, size_t errlen);
