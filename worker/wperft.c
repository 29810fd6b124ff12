/* wperft.c: the worker's perft TASKs (see wperft.h). */
#include "wperft.h"

#include <stdio.h>

#include "game.h"

int wperft_submit(compute_t *pool, const msg_task_t *t, uint32_t gen, char *reason, size_t len)
{
    char err[200];
    compute_job_t job = {.task_id = t->task_id, .job_id = t->job_id, .gen = gen,
                         .depth = t->depth, .want_stats = t->want_stats};
    variant_t v;
    if (game_variant_parse(t->variant, &v) != 0) {
        snprintf(reason, len, "unknown variant \"%s\"", t->variant);
        return MSG_CODE_VARIANT;
    }
    if (t->depth > WPERFT_DEPTH_MAX) {
        snprintf(reason, len, "depth %d not supported (at most %d)", t->depth, WPERFT_DEPTH_MAX);
        return MSG_CODE_DEPTH;
    }
    if (game_parse(v, t->position, &job.pos, err, sizeof err) != 0) {
        snprintf(reason, len, "bad position \"%.60s\": %.150s", t->position, err);
        return MSG_CODE_POSITION;
    }
    if (compute_submit(pool, &job) != 0) {
        snprintf(reason, len, "out of memory");
        return MSG_CODE_INTERNAL;
    }
    return 0;
}

void wperft_answer(const compute_done_t *d, bool perturb, msg_t *m)
{
    msg_init(m, MSG_RESULT);
    m->u.result.task_id = d->task_id;
    m->u.result.job_id = d->job_id;
    m->u.result.nodes = d->nodes;
    m->u.result.has_stats = d->has_stats;
    if (d->has_stats)
        m->u.result.stats = d->stats;
    m->u.result.elapsed_ms = d->elapsed_ms;
    if (perturb) {
        m->u.result.nodes += 1; /* a deliberately wrong worker, for verify-mode tests */
        m->u.result.stats.nodes = d->has_stats ? m->u.result.nodes : 0;
    }
}
