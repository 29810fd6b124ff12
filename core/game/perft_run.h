/* perft_run.h: perft of one position on several threads, with divide, stats,
 * a hash table (shared by the threads where exact, else one each) and progress reports. Used by `octad perft`,
 * `octad bench` and the tests; the cluster splits the same way (split.h). */
#pragma once

#include "base/api.h"
#include "game.h"

/* What a progress callback sees; called from the calling thread. */
typedef struct {
    size_t tasks_done;
    size_t tasks_total;
    count_t nodes;     /* leaves counted so far (weighted) */
    double seconds;    /* since the start */
} perft_progress_t;

typedef struct {
    int depth;              /* >= 0 */
    int threads;            /* >= 1 */
    size_t hash_bytes;      /* total: one shared table, or split among threads; 0 = no table */
    bool stats;             /* counts by kind (no table is used then) */
    bool divide;            /* per root move counts */
    double progress_every;  /* seconds between progress calls; 0 = never */
    void (*progress)(const perft_progress_t *progress, void *ctx);
    void *ctx;
} perft_opts_t;

typedef struct {
    count_t nodes;
    perft_stats_t stats;                        /* when opts.stats */
    int root_nb;                                /* when opts.divide */
    char root_uoi[GAME_MOVES_MAX][MOVE_TEXT_MAX];
    count_t root_nodes[GAME_MOVES_MAX];
    size_t tasks;                               /* tasks the tree was cut into */
    double seconds;                             /* wall time */
} perft_result_t;

/* Runs the perft described by opts from pos into *out. Returns 0, or -1 if
 * memory (tables, tasks, threads) could not be had; err names the problem. */
OCTAD_API int perft_run(const game_pos_t *pos, const perft_opts_t *opts, perft_result_t *out,
                        char *err, size_t errlen);

/* Adds b into a, every field (stats weighted by `times`). */
OCTAD_API void perft_stats_add(perft_stats_t *a, const perft_stats_t *b, count_t times);

/* Monotonic seconds, for timing. */
OCTAD_API double perft_now(void);
