/* kind_solve.c: the solve job kind (kind.h; PROTOCOL.md section 11): pairs of tables in
 * a dependency graph (sdag.h), solved by workers and fetched into the table directory
 * (ssolve.h: the job; ssolve_server.c: its task life cycle). */
#include <stdio.h>

#include "server_priv.h"
#include "ssolve.h"

static int s_open(const opts_t *o, void **job)
{
    char err[600], what[64];
    bool usage;
    ssolve_t *solve = ssolve_new(o, err, sizeof err, &usage);
    if (solve == NULL) {
        fprintf(stderr, "coordinator: %s\n", err);
        return usage ? EXIT_USAGE : EXIT_FAIL;
    }
    *job = solve;
    if (o->max_pieces)
        snprintf(what, sizeof what, "up to %d pieces", o->max_pieces);
    else
        snprintf(what, sizeof what, "what the %s", o->starts ? "deployed starts need" : "position needs");
    if (!o->quiet)
        fprintf(stderr, "coordinator: solve %s in %s: %d pairs, %d already done there%s\n", what, solve->dir,
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
    return ssolve_report(job, sum->seconds, sum->cpu_seconds, sum->workers) == 0 ? EXIT_OK : EXIT_FAIL;
}

static uint64_t s_job_id(const void *job)
{
    return ((const ssolve_t *)job)->job_id;
}

static variant_t s_variant(const void *job)
{
    (void)job;
    return VARIANT_OCTAD;
}

static bool s_finished(const void *job)
{
    return ssolve_finished(job);
}

/* A pair may become ready at any answer: every peer with credit is offered one. */
static bool s_has_work(const void *job)
{
    (void)job;
    return true;
}

static void s_status(const void *job, char *buf, size_t len)
{
    const ssolve_t *s = job;
    snprintf(buf, len, "%d of %d pairs done (kept in %s)", s->g.done, s->g.n, s->dir);
}

/* Pairs: queued are those ready to solve or to check, running those leased or being fetched. */
static void s_progress(const void *job, job_progress_t *out)
{
    const ssolve_t *s = job;
    for (int i = 0; i < s->g.n; i++) {
        sdag_state_t st = s->g.pairs[i].state;
        out->queued += st == SDAG_READY || st == SDAG_CHECK_READY;
        out->running += st == SDAG_SOLVING || st == SDAG_PULLING || st == SDAG_CHECKING;
    }
    if (s->opts->max_pieces)
        snprintf(out->what, sizeof out->what, "solve up to %d pieces", s->opts->max_pieces);
    else
        snprintf(out->what, sizeof out->what, "solve what the %s", s->opts->starts ? "deployed starts need"
                                                                                    : "position needs");
    snprintf(out->position, sizeof out->position, "%s", s->opts->text != NULL ? s->opts->text : "");
    out->depth = s->opts->max_pieces;
    out->unit = "pairs";
    out->done = (uint64_t)s->g.done;
    out->total = (uint64_t)s->g.n;
    out->loaded = (uint64_t)s->g.preloaded;
    out->amount_noun = "positions";
    out->amount = s->positions;
}

static bool s_wanted(const opts_t *o)
{
    return o->solve;
}

const job_ops_t kind_solve = {
    .name = "solve", .min_version = 2,
    .wanted = s_wanted, .open = s_open, .close = s_close, .spawn_opts = s_spawn_opts, .report = s_report,
    .job_id = s_job_id, .variant = s_variant, .finished = s_finished, .has_work = s_has_work, .status = s_status,
    .progress = s_progress,
    .dispatch = ssolve_dispatch, .forget = ssolve_forget, .renew = ssolve_renew, .expire = ssolve_expire,
    .timers = ssolve_timers, .message = ssolve_message,
};
