/* wperft.c: the worker's perft TASKs, a row of the pool kinds (see wperft.h). */
#include "wperft.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

/* A decoded TASK. */
typedef struct {
    game_pos_t pos;
    int depth;
    bool want_stats;
} s_task_t;

/* A count. */
typedef struct {
    count_t nodes;
    bool has_stats;
    perft_stats_t stats;
} s_count_t;

/* A thread's own table (variants that cannot share one), re-made when the variant changes. */
typedef struct {
    game_tt_t *tt;
    variant_t variant;
} s_thread_t;

static int s_prepare(void *state, const msg_t *m, unsigned delay_ms, compute_job_t *job, char *reason, size_t len)
{
    (void)state;
    const msg_task_t *t = &m->u.task;
    char err[200];
    variant_t v;
    (void)delay_ms;
    job->task_id = t->task_id;
    job->job_id = t->job_id;
    if (game_variant_parse(t->variant, &v) != 0) {
        snprintf(reason, len, "unknown variant \"%s\"", t->variant);
        return MSG_CODE_VARIANT;
    }
    if (t->depth > WPERFT_DEPTH_MAX) {
        snprintf(reason, len, "depth %d not supported (at most %d)", t->depth, WPERFT_DEPTH_MAX);
        return MSG_CODE_DEPTH;
    }
    s_task_t *task = malloc(sizeof *task);
    if (task == NULL) {
        snprintf(reason, len, "out of memory");
        return MSG_CODE_INTERNAL;
    }
    *task = (s_task_t){.depth = t->depth, .want_stats = t->want_stats};
    if (game_parse(v, t->position, &task->pos, err, sizeof err) != 0) {
        snprintf(reason, len, "bad position \"%.60s\": %.150s", t->position, err);
        free(task);
        return MSG_CODE_POSITION;
    }
    job->arg = task;
    return 0;
}

/* One table for every thread where that stays exact: no thread recomputes what another
 * has stored. Its pages are taken only as the search reaches them. */
static int s_shared_new(size_t hash_bytes, void **shared, char *err, size_t errlen)
{
    *shared = NULL;
    if (hash_bytes == 0 || !game_tt_shareable(VARIANT_OCTAD))
        return 0;
    if ((*shared = game_tt_new(VARIANT_OCTAD, hash_bytes)) == NULL) {
        snprintf(err, errlen, "hash: cannot allocate %zu MiB", hash_bytes >> 20);
        return -1;
    }
    return 0;
}

static void s_shared_free(void **shared)
{
    game_tt_t *tt = *shared;
    game_tt_destroy(&tt);
    *shared = NULL;
}

/* This thread's table for `variant` (NULL: none, or it cannot be had: the count goes without). */
static game_tt_t *s_thread_tt(const wkind_env_t *env, variant_t variant)
{
    s_thread_t *th = *env->thread;
    if (env->hash_each == 0)
        return NULL;
    if (th == NULL && (th = *env->thread = calloc(1, sizeof *th)) == NULL)
        return NULL;
    if (th->tt == NULL || th->variant != variant) {
        game_tt_destroy(&th->tt);
        th->tt = game_tt_new(variant, env->hash_each);
        th->variant = variant;
    }
    return th->tt;
}

static void *s_run(const compute_job_t *job, const wkind_env_t *env)
{
    const s_task_t *t = job->arg;
    s_count_t *out = calloc(1, sizeof *out);
    if (out == NULL)
        return NULL;
    if (t->depth == 0) {
        out->nodes = 1;
        out->stats.nodes = 1;
    } else if (t->want_stats) {
        game_perft_stats(&t->pos, t->depth, &out->stats);
        out->nodes = out->stats.nodes;
    } else if (env->shared != NULL && game_tt_shareable(t->pos.variant)) {
        out->nodes = game_perft(&t->pos, t->depth, env->shared);
    } else {
        out->nodes = game_perft(&t->pos, t->depth, s_thread_tt(env, t->pos.variant));
    }
    out->has_stats = t->want_stats;
    return out;
}

static void s_thread_free(void **state)
{
    s_thread_t *th = *state;
    if (th != NULL)
        game_tt_destroy(&th->tt);
    free(th);
    *state = NULL;
}

static int s_answer(void *state, const compute_done_t *d, bool perturb, msg_t *m, char *reason, size_t len)
{
    (void)state;
    const s_count_t *c = d->result;
    if (c == NULL) {
        snprintf(reason, len, "out of memory");
        return MSG_CODE_INTERNAL;
    }
    msg_init(m, MSG_RESULT);
    m->u.result.task_id = d->task_id;
    m->u.result.job_id = d->job_id;
    m->u.result.nodes = c->nodes;
    m->u.result.has_stats = c->has_stats;
    if (c->has_stats)
        m->u.result.stats = c->stats;
    m->u.result.elapsed_ms = d->elapsed_ms;
    if (perturb) {
        m->u.result.nodes += 1; /* a deliberately wrong worker, for verify-mode tests */
        m->u.result.stats.nodes = c->has_stats ? m->u.result.nodes : 0;
    }
    return 0;
}

const wkind_t WPERFT_KIND = {
    .name = "perft", .tasks = {MSG_TASK}, .version = 1, .prepare = s_prepare, .shared_new = s_shared_new,
    .shared_free = s_shared_free, .run = s_run, .thread_free = s_thread_free, .answer = s_answer,
};
