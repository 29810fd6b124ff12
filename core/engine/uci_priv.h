/* uci_priv.h: the state of the UCI loop, shared by its files (uci.c: the
 * loop, options and position; uci_go.c: `go`, the search thread, perft).
 * Internal to core/engine/. */
#pragma once

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#include "engine.h"
#include "uci.h"

typedef struct {
    FILE *out;
    pthread_mutex_t out_lock;     /* one writer at a time: the loop or the search thread */
    engine_t *eng;
    /* options */
    variant_t variant_option;     /* UCI_Variant */
    bool chess960;                /* UCI_Chess960 */
    int multipv;
    long overhead_ms;
    const uci_tables_t *tables;   /* how to open OctadTables (NULL: no such option) */
    void *tables_ctx;             /* the open tables, or NULL */
    /* the game the next `go` searches */
    engine_game_t game;
    /* the running search */
    bool running;                 /* a search thread exists and has not been joined */
    pthread_t thread;
    engine_control_t ctl;
    engine_limits_t limits;
    engine_game_t searched;       /* the copy of the game the thread searches */
    bool wait_for_stop;           /* infinite: no bestmove before stop */
    bool stop_requested;          /* stop arrived (under wait_lock) */
    pthread_mutex_t wait_lock;
    pthread_cond_t wait_cond;
} uci_t;

/* Writes one line (printf-style, newline added) and flushes it. */
void uci_send(uci_t *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The variant positions are read in: UCI_Variant, with UCI_Chess960 turning chess into chess960. */
variant_t uci_variant(const uci_t *u);

/* `go ...` (tokens after "go"): starts a search thread, or runs `go perft N`. */
void uci_go(uci_t *u, char **tok, int ntok);

/* `stop`: ends the search and waits until its bestmove is out. */
void uci_stop(uci_t *u);

/* `ponderhit`: the pondered move was played; the clock starts now. */
void uci_ponderhit(uci_t *u);
