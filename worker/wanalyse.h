/* wanalyse.h: the worker's OCTP/3 ANALYSE tasks (proto/PROTOCOL.md section 12), a pool kind
 * (wkind.h): checked and parsed on the I/O thread, searched on a compute thread
 * (engine_split_move, the computation of `octad search --split`), answered with ANALYSED. */
#pragma once

#include <stdint.h>

#include "engine.h"
#include "wkind.h"

/* A decoded ANALYSE (the job's arg). */
typedef struct {
    engine_game_t game;     /* the game up to the analysed position */
    engine_move_t move;     /* the one root move searched */
    int depth;
    uint32_t hash_mb;       /* the search's table size */
    unsigned delay_ms;      /* testing only: the thread waits this long first */
} wanalyse_task_t;

/* The analyse row. prepare refuses VARIANT, POSITION (a start position, a game move or a
 * root move that is not legal), INTERNAL (out of memory). A thread keeps one engine while
 * the tasks' table size stays. answer: ANALYSED; a search whose table could not be had is
 * refused INTERNAL; perturb adds 1 to the score. */
extern const wkind_t WANALYSE_KIND;
