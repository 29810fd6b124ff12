/* wanalyse.c: the worker's ANALYSE tasks, a row of the pool kinds (see wanalyse.h). */
#include "wanalyse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "split_move.h"

/* A search's answer. */
typedef struct {
    bool failed;            /* its table could not be allocated */
    int score, seldepth;
    uint8_t bound;          /* MSG_BOUND_* */
    uint64_t nodes;
    uint32_t n_pv;
    msg_move_t pv[MSG_PV_MAX]; /* as sent: the ANALYSED answer points here */
} s_answer_t;

/* The text of move m in pos, as the wire carries it (move texts are at most 5 bytes). */
static void s_move_text(const game_pos_t *pos, engine_move_t m, msg_move_t out)
{
    char text[MOVE_TEXT_MAX];
    engine_move_text(pos, m, text);
    snprintf(out, sizeof(msg_move_t), "%.7s", text);
}

/* A thread's engine, kept while the table size stays, and its result (30 KB of lines: off the stack). */
typedef struct {
    engine_t *eng;
    uint32_t mb;
    engine_result_t r;
} s_thread_t;

static int s_prepare(void *state, const msg_t *m, unsigned delay_ms, compute_job_t *job, char *reason, size_t len)
{
    (void)state;
    const msg_analyse_t *a = &m->u.analyse;
    variant_t v;
    char err[300];
    job->task_id = a->task_id;
    job->job_id = a->job_id;
    if (game_variant_parse(a->variant, &v) != 0) {
        snprintf(reason, len, "unknown variant \"%s\"", a->variant);
        return MSG_CODE_VARIANT;
    }
    wanalyse_task_t *t = calloc(1, sizeof *t);
    if (t == NULL) {
        snprintf(reason, len, "out of memory");
        return MSG_CODE_INTERNAL;
    }
    t->depth = a->depth;
    t->hash_mb = a->hash_mb;
    t->delay_ms = delay_ms;
    if (engine_split_game(&t->game, v, a->position, (const char *)a->moves, MSG_MOVE_MAX, (int)a->n_moves, err,
                          sizeof err) != 0) {
        snprintf(reason, len, "bad position: %s", err);
    } else if ((t->move = engine_move_parse(&t->game.pos, a->move)) == ENGINE_MOVE_NONE) {
        snprintf(reason, len, "bad position: move '%s' is not legal in the analysed position", a->move);
    } else {
        job->arg = t;
        return 0;
    }
    free(t);
    return MSG_CODE_POSITION;
}

/* This thread's engine with a table of mb MiB (made, or re-made when the size differs); NULL if it cannot be had. */
static s_thread_t *s_engine(const wkind_env_t *env, uint32_t mb)
{
    s_thread_t *th = *env->thread;
    if (th == NULL && (th = *env->thread = calloc(1, sizeof *th)) == NULL)
        return NULL;
    if (th->eng == NULL || th->mb != mb) {
        engine_destroy(&th->eng);
        th->eng = engine_new((size_t)mb << 20);
        th->mb = mb;
    }
    return th->eng ? th : NULL;
}

static void *s_run(const compute_job_t *job, const wkind_env_t *env)
{
    const wanalyse_task_t *t = job->arg;
    if (t->delay_ms > 0) {
        struct timespec d = {t->delay_ms / 1000, (long)(t->delay_ms % 1000) * 1000000L};
        nanosleep(&d, NULL);
    }
    s_answer_t *out = calloc(1, sizeof *out);
    if (out == NULL)
        return NULL;
    s_thread_t *th = s_engine(env, t->hash_mb);
    if (th == NULL) {
        out->failed = true;
        return out;
    }
    engine_history_t h = engine_game_history(&t->game);
    engine_split_move(th->eng, &t->game.pos, &h, t->move, t->depth, &th->r);
    const engine_line_t *l = &th->r.lines[0];
    game_pos_t pos = t->game.pos;
    out->score = l->score;
    out->bound = (uint8_t)(l->bound == ENGINE_BOUND_EXACT ? MSG_BOUND_EXACT
                           : l->bound == ENGINE_BOUND_LOWER ? MSG_BOUND_LOWER : MSG_BOUND_UPPER);
    out->seldepth = th->r.seldepth;
    out->nodes = th->r.nodes;
    for (int k = 0; k < l->pvlen && k < MSG_PV_MAX; k++) {
        s_move_text(&pos, l->pv[k], out->pv[k]);
        engine_make(&pos, l->pv[k], &pos);
        out->n_pv++;
    }
    if (out->n_pv == 0) /* never from the engine (pv[0] is the searched move): kept well-formed */
        s_move_text(&t->game.pos, t->move, out->pv[out->n_pv++]);
    return out;
}

static void s_thread_free(void **state)
{
    s_thread_t *th = *state;
    if (th != NULL)
        engine_destroy(&th->eng);
    free(th);
    *state = NULL;
}

static int s_answer(void *state, const compute_done_t *d, bool perturb, msg_t *m, char *reason, size_t len)
{
    (void)state;
    const s_answer_t *r = d->result;
    if (r == NULL || r->failed) {
        snprintf(reason, len, r ? "out of memory for the search's table" : "out of memory");
        return MSG_CODE_INTERNAL;
    }
    msg_init(m, MSG_ANALYSED);
    msg_analysed_t *a = &m->u.analysed;
    a->task_id = d->task_id;
    a->job_id = d->job_id;
    a->score = r->score + (perturb && r->score < MSG_SCORE_MAX ? 1 : 0); /* perturb: a wrong worker, for --verify tests */
    a->bound = r->bound;
    a->seldepth = (uint8_t)(r->seldepth > UINT8_MAX ? UINT8_MAX : r->seldepth);
    a->nodes = r->nodes;
    a->elapsed_ms = d->elapsed_ms;
    a->n_pv = r->n_pv;
    a->pv = r->pv; /* d->result outlives the send (wkind_t.answer) */
    memcpy(a->move, r->pv[0], sizeof a->move);
    return 0;
}

const wkind_t WANALYSE_KIND = {
    .name = "analyse", .tasks = {MSG_ANALYSE}, .version = 3, .prepare = s_prepare, .run = s_run,
    .thread_free = s_thread_free, .answer = s_answer,
};
