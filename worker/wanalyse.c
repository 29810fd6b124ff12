/* wanalyse.c: the worker's ANALYSE tasks (see wanalyse.h). */
#include "wanalyse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "split_move.h"

int wanalyse_prepare(const msg_analyse_t *a, uint32_t gen, compute_job_t *job, char *reason, size_t len)
{
    variant_t v;
    char err[300];
    memset(job, 0, sizeof *job);
    job->task_id = a->task_id;
    job->job_id = a->job_id;
    job->gen = gen;
    job->analyse = true;
    job->depth = a->depth;
    job->hash_mb = a->hash_mb;
    if (game_variant_parse(a->variant, &v) != 0) {
        snprintf(reason, len, "unknown variant \"%s\"", a->variant);
        return MSG_CODE_VARIANT;
    }
    if ((job->game = malloc(sizeof *job->game)) == NULL) {
        snprintf(reason, len, "out of memory");
        return MSG_CODE_INTERNAL;
    }
    if (engine_split_game(job->game, v, a->position, a->moves[0], MSG_MOVE_MAX, (int)a->n_moves, err, sizeof err) != 0) {
        snprintf(reason, len, "bad position: %s", err);
    } else if ((job->move = engine_move_parse(&job->game->pos, a->move)) == ENGINE_MOVE_NONE) {
        snprintf(reason, len, "bad position: move '%s' is not legal in the analysed position", a->move);
    } else {
        job->pos = job->game->pos;
        return 0;
    }
    free(job->game);
    job->game = NULL;
    return MSG_CODE_POSITION;
}

int wanalyse_submit(compute_t *pool, const msg_analyse_t *a, uint32_t gen, unsigned delay_ms, char *reason,
                    size_t len)
{
    compute_job_t job;
    int code = wanalyse_prepare(a, gen, &job, reason, len);
    if (code != 0)
        return code;
    job.delay_ms = delay_ms;
    if (compute_submit(pool, &job) != 0) {
        free(job.game);
        snprintf(reason, len, "out of memory");
        return MSG_CODE_INTERNAL;
    }
    return 0;
}

void wanalyse_run(const compute_job_t *job, engine_t **eng, uint32_t *eng_mb, compute_done_t *out)
{
    static _Thread_local engine_result_t r; /* 30 KB of lines: off the stack */
    if (job->delay_ms > 0) {
        struct timespec d = {job->delay_ms / 1000, (long)(job->delay_ms % 1000) * 1000000L};
        nanosleep(&d, NULL);
    }
    if (*eng == NULL || *eng_mb != job->hash_mb) {
        engine_destroy(eng);
        *eng = engine_new((size_t)job->hash_mb << 20);
        *eng_mb = job->hash_mb;
    }
    out->analyse = true;
    if (*eng == NULL) {
        out->failed = true;
        return;
    }
    engine_history_t h = engine_game_history(job->game);
    engine_split_move(*eng, &job->game->pos, &h, job->move, job->depth, &r);
    const engine_line_t *l = &r.lines[0];
    game_pos_t pos = job->game->pos;
    out->score = l->score;
    out->bound = (uint8_t)(l->bound == ENGINE_BOUND_EXACT ? MSG_BOUND_EXACT
                           : l->bound == ENGINE_BOUND_LOWER ? MSG_BOUND_LOWER : MSG_BOUND_UPPER);
    out->seldepth = r.seldepth;
    out->search_nodes = r.nodes;
    out->n_pv = 0;
    for (int k = 0; k < l->pvlen && k < MSG_PV_MAX; k++) {
        engine_move_text(&pos, l->pv[k], out->pv[k]);
        engine_make(&pos, l->pv[k], &pos);
        out->n_pv++;
    }
    if (out->n_pv == 0) /* never from the engine (pv[0] is the searched move): kept well-formed */
        engine_move_text(&job->game->pos, job->move, out->pv[out->n_pv++]);
}

void wanalyse_answer(const compute_done_t *d, bool perturb, msg_t *m)
{
    msg_init(m, MSG_ANALYSED);
    msg_analysed_t *a = &m->u.analysed;
    a->task_id = d->task_id;
    a->job_id = d->job_id;
    a->score = d->score + (perturb && d->score < MSG_SCORE_MAX ? 1 : 0); /* perturb: a wrong worker, for --verify tests */
    a->bound = d->bound;
    a->seldepth = (uint8_t)(d->seldepth > UINT8_MAX ? UINT8_MAX : d->seldepth);
    a->nodes = d->search_nodes;
    a->elapsed_ms = d->elapsed_ms;
    a->n_pv = d->n_pv;
    for (uint32_t k = 0; k < d->n_pv; k++)
        snprintf(a->pv[k], sizeof a->pv[k], "%.7s", d->pv[k]); /* move texts are at most 5 bytes */
    memcpy(a->move, a->pv[0], sizeof a->move);
}
