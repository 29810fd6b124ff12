/* kind_solve.c: the solve job kind (kind.h; PROTOCOL.md section 11): pairs of tables in
 * a dependency graph (sdag.h), solved by workers and fetched into the table directory
 * (ssolve.h: the job; ssolve_server.c: its tasks and messages), over the task life cycle
 * every kind shares (tasks.h). */
#include <stdio.h>

#include "server_priv.h"
#include "ssolve.h"
#include "log_line.h"

static int s_open(const opts_t *o, void **job)
{
    char err[600], what[64];
    bool usage;
    ssolve_t *solve = ssolve_new(o, err, sizeof err, &usage);
    if (solve == NULL) {
        log_say(LOG_ERROR, NULL, "%s", err);
        return usage ? EXIT_USAGE : EXIT_FAIL;
    }
    *job = solve;
    if (ssolve_schedule(solve) != 0) {
        log_say(LOG_ERROR, NULL, "out of memory");
        return EXIT_FAIL;
    }
    if (o->max_pieces)
        snprintf(what, sizeof what, "up to %d pieces", o->max_pieces);
    else
        snprintf(what, sizeof what, "what the %s", o->starts ? "deployed starts need" : "position needs");
    if (!o->quiet)
        log_say(LOG_INFO, NULL, "solve %s in %s: %d pairs, %d already done there%s", what, solve->dir,
                solve->g.n, solve->g.preloaded, o->verify ? " (and verified)" : "");
    return 0;
}

static void s_close(void **job)
{
    ssolve_t *solve = *job;
    ssolve_destroy(&solve);
    *job = NULL;
}

static void s_spawn_opts(const void *job, const opts_t *o, spawn_opts_t *so)
{
    /* One process solving with every thread; --verify needs a second principal to check it. */
    so->processes = o->verify ? 2 : 1;
    so->threads = o->verify && o->local_workers > 1 ? o->local_workers / 2 : o->local_workers;
    so->hash_mb = 0;
    so->prefetch = 0;
    so->tables = ((const ssolve_t *)job)->dir;
}

static int s_report(void *job, const opts_t *o, const server_summary_t *sum)
{
    (void)o;
    return ssolve_report(job, sum) == 0 ? EXIT_OK : EXIT_FAIL;
}

static int s_publish(void *job, const opts_t *o, const server_summary_t *sum, job_publish_t *out)
{
    (void)o, (void)sum;
    return ssolve_publish(job, out);
}

static void s_status(const void *job, char *buf, size_t len)
{
    const ssolve_t *s = job;
    snprintf(buf, len, "%d of %d pairs done (kept in %s)", s->g.done, s->g.n, s->dir);
}

/* In pairs: queued are those whose task (make or check) waits, running those whose task is
 * leased (computed or its files fetched). */
static void s_progress(const void *job, job_progress_t *out)
{
    const ssolve_t *s = job;
    tasks_progress(&s->t, out);
    out->queued = out->running = 0;
    for (size_t i = 0; i < s->t.task_nb; i++) {
        out->queued += sched_queued(s->t.sched, i);
        out->running += sched_leased(s->t.sched, i);
    }
    out->unit = "pairs";
    out->done = (uint64_t)s->g.done;
    out->total = (uint64_t)s->g.n;
    out->loaded = (uint64_t)s->g.preloaded;
    /* DIR/solve.journal is the directory's, which several jobs share: it keeps no job's start */
    out->resumed = s->g.preloaded > 0;
    out->job_started_at = 0;
    if (s->opts->max_pieces)
        snprintf(out->what, sizeof out->what, "solve up to %d pieces", s->opts->max_pieces);
    else
        snprintf(out->what, sizeof out->what, "solve what the %s", s->opts->starts ? "deployed starts need"
                                                                                    : "position needs");
    snprintf(out->position, sizeof out->position, "%s", s->opts->text != NULL ? s->opts->text : "");
    out->depth = s->opts->max_pieces;
    out->amount_noun = "positions";
}

static bool s_wanted(const opts_t *o)
{
    return o->solve;
}

const job_ops_t kind_solve = {
    .name = "solve", .min_version = 2,
    .wanted = s_wanted, .open = s_open, .close = s_close, .spawn_opts = s_spawn_opts, .report = s_report, .publish = s_publish, .dump_tasks = tasks_dump,
    .job_id = tasks_job_id, .variant = tasks_variant, .finished = tasks_finished, .has_work = tasks_has_work,
    .status = s_status, .progress = s_progress, .dispatch = tasks_dispatch, .forget = tasks_forget,
    .renew = tasks_renew, .expire = tasks_expire, .timers = tasks_timers, .message = ssolve_message,
};
