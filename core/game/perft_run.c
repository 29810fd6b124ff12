/* perft_run.c: multi-threaded perft over the tasks of a split (see perft_run.h). */
#include "perft_run.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "split.h"

/* Tasks per thread wanted at the frontier, so uneven subtrees balance out. */
enum { TASKS_PER_THREAD = 32, SPLIT_MAX_PLY = 6 };

typedef struct {
    const split_t *split;
    const perft_opts_t *opts;
    count_t *counts;             /* per task */
    perft_stats_t *stats;        /* per task, when opts->stats */
    atomic_size_t next;          /* next task to take */
    atomic_size_t done;
    pthread_mutex_t lock;        /* guards `nodes` and the condition */
    pthread_cond_t cond;
    count_t nodes;
    size_t hash_each;            /* bytes of each thread's own table, or 0 */
    game_tt_t *shared_tt;        /* one table for every thread, or NULL */
    atomic_int failed;
} s_shared_t;

double perft_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void perft_stats_add(perft_stats_t *a, const perft_stats_t *b, count_t times)
{
    a->nodes += b->nodes * times;
    a->captures += b->captures * times;
    a->en_passant += b->en_passant * times;
    a->castles += b->castles * times;
    for (int k = 0; k < CASTLE_KIND_NB; k++)
        a->castle_kind[k] += b->castle_kind[k] * times;
    a->promotions += b->promotions * times;
    a->checks += b->checks * times;
    a->mates += b->mates * times;
    a->discovered_checks += b->discovered_checks * times;
    a->double_checks += b->double_checks * times;
    a->stalemates += b->stalemates * times;
}

static void *s_worker(void *arg)
{
    s_shared_t *sh = arg;
    game_tt_t *tt = NULL;
    if (sh->shared_tt == NULL && sh->hash_each > 0 && !sh->opts->stats) {
        tt = game_tt_new(sh->split->tasks[0].pos.variant, sh->hash_each);
        if (tt == NULL)
            atomic_store(&sh->failed, 1);
    }
    for (;;) {
        size_t i = atomic_fetch_add(&sh->next, 1);
        if (i >= sh->split->task_nb || atomic_load(&sh->failed))
            break;
        const split_task_t *task = &sh->split->tasks[i];
        if (sh->opts->stats) {
            game_perft_stats(&task->pos, task->depth, &sh->stats[i]);
            sh->counts[i] = sh->stats[i].nodes;
        } else {
            sh->counts[i] = game_perft(&task->pos, task->depth, sh->shared_tt ? sh->shared_tt : tt);
        }
        pthread_mutex_lock(&sh->lock);
        sh->nodes += sh->counts[i] * split_task_paths(task);
        atomic_fetch_add(&sh->done, 1);
        pthread_cond_signal(&sh->cond);
        pthread_mutex_unlock(&sh->lock);
    }
    game_tt_destroy(&tt);
    return NULL;
}

/* Waits for every task, calling the progress callback on schedule. */
static void s_wait(s_shared_t *sh, double start)
{
    const perft_opts_t *o = sh->opts;
    double next_report = start + o->progress_every;
    pthread_mutex_lock(&sh->lock);
    while (atomic_load(&sh->done) < sh->split->task_nb && !atomic_load(&sh->failed)) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 100 * 1000 * 1000;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&sh->cond, &sh->lock, &ts);
        double now = perft_now();
        if (o->progress && o->progress_every > 0 && now >= next_report) {
            perft_progress_t p = {atomic_load(&sh->done), sh->split->task_nb, sh->nodes, now - start};
            pthread_mutex_unlock(&sh->lock);
            o->progress(&p, o->ctx);
            pthread_mutex_lock(&sh->lock);
            next_report = now + o->progress_every;
        }
    }
    pthread_mutex_unlock(&sh->lock);
}

/* Adds up the task counts into *out, weighted by their multiplicities. */
static void s_collect(const s_shared_t *sh, perft_result_t *out)
{
    const split_t *split = sh->split;
    for (size_t i = 0; i < split->task_nb; i++) {
        const split_task_t *t = &split->tasks[i];
        count_t paths = split_task_paths(t);
        out->nodes += sh->counts[i] * paths;
        if (sh->opts->stats)
            perft_stats_add(&out->stats, &sh->stats[i], paths);
        for (int r = 0; r < t->ref_nb; r++)
            if (t->refs[r].root >= 0)
                out->root_nodes[t->refs[r].root] += sh->counts[i] * t->refs[r].paths;
    }
}

static int s_run_tasks(s_shared_t *sh, int threads, double start, char *err, size_t errlen)
{
    pthread_t *tids = calloc((size_t)threads, sizeof *tids);
    int started = 0;
    if (tids == NULL) {
        snprintf(err, errlen, "threads: out of memory");
        return -1;
    }
    for (; started < threads; started++)
        if (pthread_create(&tids[started], NULL, s_worker, sh) != 0)
            break;
    if (started == 0) {
        free(tids);
        snprintf(err, errlen, "threads: cannot start a thread");
        return -1;
    }
    s_wait(sh, start);
    for (int i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    free(tids);
    if (atomic_load(&sh->failed)) {
        snprintf(err, errlen, "hash: cannot allocate the table");
        return -1;
    }
    return 0;
}

/* Depth 0 (one node) and depth 1 with divide: no tasks needed. */
static void s_run_shallow(const game_pos_t *pos, const perft_opts_t *opts, perft_result_t *out)
{
    game_child_t *kids = malloc(sizeof *kids * GAME_MOVES_MAX);
    out->nodes = opts->depth == 0 ? 1 : (count_t)game_count_moves(pos);
    if (opts->stats && opts->depth == 1)
        game_perft_stats(pos, 1, &out->stats);
    if (kids != NULL && opts->divide && opts->depth == 1) {
        out->root_nb = game_children(pos, kids);
        for (int i = 0; i < out->root_nb; i++) {
            memcpy(out->root_uoi[i], kids[i].uoi, MOVE_TEXT_MAX);
            out->root_nodes[i] = 1;
        }
    }
    free(kids);
}

int perft_run(const game_pos_t *pos, const perft_opts_t *opts, perft_result_t *out,
              char *err, size_t errlen)
{
    double start = perft_now();
    int threads = opts->threads < 1 ? 1 : opts->threads;
    size_t want = threads > 1 ? (size_t)threads * TASKS_PER_THREAD : opts->divide ? 2 : 1;
    split_t split;
    memset(out, 0, sizeof *out);
    if (opts->depth <= 1) {
        s_run_shallow(pos, opts, out);
        out->seconds = perft_now() - start;
        return 0;
    }
    if (split_new(pos, opts->depth, want, SPLIT_MAX_PLY, &split) != 0) {
        snprintf(err, errlen, "split: out of memory");
        return -1;
    }
    out->root_nb = split.root_nb;
    memcpy(out->root_uoi, split.root_uoi, sizeof out->root_uoi);
    out->tasks = split.task_nb;
    s_shared_t sh = {.split = &split, .opts = opts};
    sh.counts = calloc(split.task_nb ? split.task_nb : 1, sizeof *sh.counts);
    sh.stats = calloc(split.task_nb ? split.task_nb : 1, sizeof *sh.stats);
    /* One table for all threads where that stays exact (game_tt_shareable),
     * so no thread recomputes what another has stored; else one table each. */
    if (opts->hash_bytes > 0 && !opts->stats && threads > 1 && game_tt_shareable(pos->variant)) {
        sh.shared_tt = game_tt_new(pos->variant, opts->hash_bytes);
        if (sh.shared_tt == NULL)
            sh.failed = 1;
    } else {
        sh.hash_each = opts->hash_bytes / (size_t)threads;
    }
    pthread_mutex_init(&sh.lock, NULL);
    pthread_cond_init(&sh.cond, NULL);
    int rc = -1;
    if (sh.counts == NULL || sh.stats == NULL)
        snprintf(err, errlen, "tasks: out of memory");
    else if (split.task_nb == 0 || s_run_tasks(&sh, threads, start, err, errlen) == 0)
        rc = 0;
    if (rc == 0)
        s_collect(&sh, out);
    pthread_cond_destroy(&sh.cond);
    pthread_mutex_destroy(&sh.lock);
    game_tt_destroy(&sh.shared_tt);
    free(sh.counts);
    free(sh.stats);
    split_free(&split);
    out->seconds = perft_now() - start;
    return rc;
}
