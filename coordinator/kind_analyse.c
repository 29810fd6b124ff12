/* kind_analyse.c: the analyse job kind (kind.h; PROTOCOL.md section 12): one ANALYSE
 * task per legal root move, answered by ANALYSED, scheduled by tasks.c as perft tasks
 * are (leases, requeues, verify votes); the analysis itself is ajob.h's. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ajob.h"
#include "server_priv.h"
#include "tasks.h"
#include "log_line.h"

/* The job: tasks_t first (tasks.h). */
typedef struct {
    tasks_t t;
    ajob_t *a;
} s_analyse_t;

static ajob_t *s_ajob(const tasks_t *t)
{
    return ((const s_analyse_t *)t)->a;
}

static int s_task_msg(server_t *s, tasks_t *t, size_t i, const peer_t *p, msg_t *m)
{
    (void)p;
    ajob_task_msg(s_ajob(t), i, (uint64_t)i + 1, s->opts->lease_ms, m);
    return 0;
}

static void s_task_text(const tasks_t *t, size_t i, char *buf, size_t len)
{
    snprintf(buf, len, "move %s, depth %d", s_ajob(t)->root[i], s_ajob(t)->depth);
}

static void s_answer_text(const tasks_t *t, size_t i, sched_answer_t v, char *buf, size_t len)
{
    char text[400];
    const ajob_result_t *r = ajob_seen(s_ajob(t), i, v);
    if (r == NULL)
        snprintf(text, sizeof text, "result %llu, not kept", (unsigned long long)v);
    else
        ajob_result_text(s_ajob(t), i, r, text, sizeof text);
    snprintf(buf, len, "[%s]", text);
}

static bool s_commit(server_t *s, tasks_t *t, size_t i, sched_answer_t v)
{
    char key[AJOB_KEY_MAX + 64];
    const ajob_result_t *r = ajob_seen(s_ajob(t), i, v);
    if (r == NULL) { /* never: an accepted result is one of the first AJOB_SEEN_MAX */
        server_fail(s, "task %zu: the accepted result was not kept", i + 1);
        return false;
    }
    key[0] = '\0';
    if (t->journal != NULL)
        ajob_record(s_ajob(t), i, r, key, sizeof key);
    return tasks_record(s, t, i, key, r->nodes, NULL, r->nodes);
}

static const tasks_ops_t s_tasks_ops = {.answer_noun = "analysis", .amount_noun = "nodes", .task_msg = s_task_msg,
                                        .commit = s_commit, .task_text = s_task_text, .answer_text = s_answer_text};

static void s_on_analysed(server_t *s, s_analyse_t *aj, peer_t *p, const msg_analysed_t *a)
{
    ajob_result_t r;
    char why[300];
    if (a->job_id != aj->t.job_id) {
        server_drop(s, DROP_OTHER_JOB, "ANALYSED of another job");
        return;
    }
    if (a->task_id < 1 || a->task_id > aj->t.task_nb) {
        server_drop(s, DROP_BAD_RESULT, "ANALYSED for an unknown task id");
        return;
    }
    size_t i = (size_t)(a->task_id - 1);
    if (!ajob_check(aj->a, i, a, &r, why, sizeof why)) {
        tasks_bad_answer(s, &aj->t, p, i, why);
        return;
    }
    s->sum.worker_seconds += (double)a->elapsed_ms / 1000.0;
    p->wall_s += (double)a->elapsed_ms / 1000.0;
    tasks_answer(s, &aj->t, p, i, ajob_answer(aj->a, i, &r), NULL, a->elapsed_ms);
}

static bool s_message(server_t *s, void *job, peer_t *p, const msg_t *m)
{
    if (m->type == MSG_ANALYSED) {
        s_on_analysed(s, job, p, &m->u.analysed);
        return true;
    }
    if (m->type == MSG_RESULT) {
        server_drop(s, DROP_UNEXPECTED, "RESULT in an analyse job (it sends ANALYSE tasks only)");
        return true;
    }
    return tasks_message(s, job, p, m);
}

static void s_close(void **job)
{
    s_analyse_t *aj = *job;
    if (aj == NULL)
        return;
    tasks_close(&aj->t);
    ajob_destroy(&aj->a);
    free(aj);
    *job = NULL;
}

static int s_open(const opts_t *o, void **job)
{
    char err[600], buf[GAME_TEXT_MAX];
    const char *text = o->text ? o->text : game_start_text(o->variant);
    if (o->start >= 0) {
        chess960_start_fen((int)o->start, buf, sizeof buf);
        text = buf;
    }
    s_analyse_t *aj = calloc(1, sizeof *aj);
    if (aj == NULL) {
        log_say(LOG_ERROR, NULL, "out of memory");
        return EXIT_FAIL;
    }
    *job = aj;
    aj->a = ajob_new(o->variant, text, o->moves, o->analyse, (uint32_t)o->hash_mb, o->verify, err, sizeof err);
    if (aj->a == NULL) {
        log_say(LOG_ERROR, NULL, "%s", err);
        return EXIT_USAGE;
    }
    aj->t = (tasks_t){.ops = &s_tasks_ops, .task_nb = aj->a->task_nb, .job_id = aj->a->job_id,
                      .variant = o->variant, .sched = sched_new(aj->a->task_nb, o->verify, false)};
    if (aj->t.sched == NULL) {
        log_say(LOG_ERROR, NULL, "out of memory");
        return EXIT_FAIL;
    }
    sched_set_copies(aj->t.sched, !o->no_copies);
    if (o->journal == NULL)
        return 0;
    int jr = ajob_load_journal(aj->a, o->journal, aj->t.sched, &aj->t.journal, &aj->t.loaded, err, sizeof err);
    if (jr != 0) {
        log_say(LOG_ERROR, NULL, "%s", err);
        return jr == -2 ? EXIT_FAIL : EXIT_USAGE;
    }
    if (!o->quiet)
        log_say(LOG_INFO, NULL, "journal %s: %zu of %zu moves loaded", o->journal, aj->t.loaded,
                aj->a->task_nb);
    return 0;
}

static void s_spawn_opts(const void *job, const opts_t *o, spawn_opts_t *so)
{
    (void)job;
    /* As perft's, but an analysis brings its own table and takes one task at a time. */
    so->processes = o->verify ? o->local_workers : 1;
    so->threads = o->verify ? 1 : o->local_workers;
    so->hash_mb = 0;
    so->prefetch = 0;
}

/* The accepted result of every task (malloc'd, the caller frees), or NULL after a message. */
static const ajob_result_t **s_results(const s_analyse_t *aj)
{
    const ajob_t *a = aj->a;
    const ajob_result_t **results = calloc(a->task_nb, sizeof *results);
    if (results == NULL) {
        log_say(LOG_ERROR, NULL, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < a->task_nb; i++)
        if ((results[i] = ajob_seen(a, i, sched_answers(aj->t.sched)[i])) == NULL) {
            log_say(LOG_ERROR, NULL, "task %zu has no result", i + 1);
            free(results);
            return NULL;
        }
    return results;
}

/* The analysis's result: every move best first (or the best), then bestmove; a summary on stderr. */
static int s_report(void *job, const opts_t *o, const server_summary_t *sum)
{
    s_analyse_t *aj = job;
    const ajob_t *a = aj->a;
    const ajob_result_t **results = s_results(aj);
    if (results == NULL)
        return EXIT_FAIL;
    ajob_print(a, results, o->multipv_all, o->json, sum->seconds, stdout);
    free(results);
    if (!o->quiet)
        log_say(LOG_INFO, NULL, "analysed %zu root moves to depth %d in %.2f s (%zu from the journal, %llu tasks "
                "sent, %zu worker sessions%s)", a->task_nb, a->depth, sum->seconds, aj->t.loaded,
                (unsigned long long)sum->dispatched, sum->workers, o->verify ? ", every move computed by two workers" : "");
    /* stdout stays what `octad search --split` prints: the contributors go with the summary. */
    credit_t *who = tasks_credit(&aj->t);
    if (!o->quiet && who != NULL)
        credit_log(who, "nodes");
    return EXIT_OK;
}

/* --report: the job (position, moves, depth) and the analysis as --json --multipv all prints
 * it (every root move best first), read back from that text so the two never differ. */
static int s_publish(void *job, const opts_t *o, const server_summary_t *sum, job_publish_t *out)
{
    s_analyse_t *aj = job;
    const ajob_t *a = aj->a;
    char *text = NULL, pos[GAME_TEXT_MAX];
    size_t len = 0;
    (void)o;
    const ajob_result_t **results = s_results(aj);
    FILE *mem = results != NULL ? open_memstream(&text, &len) : NULL;
    if (mem == NULL) {
        free(results);
        return -1;
    }
    ajob_print(a, results, true, true, sum->seconds, mem);
    free(results);
    json_t *analysis = fclose(mem) == 0 ? json_loads(text, 0, NULL) : NULL;
    free(text);
    json_t *moves = json_array();
    for (int k = 0; moves != NULL && k < a->n_moves; k++)
        json_array_append_new(moves, json_string(a->moves[k]));
    game_format(&a->game.pos, pos, sizeof pos);
    int bad = json_object_update_new(out->job, json_pack("{s:s, s:s, s:o?, s:s, s:i, s:I, s:i}", "variant",
                                     game_variant_name(a->variant), "start", a->start, "moves", moves, "position", pos,
                                     "depth", a->depth, "root_moves", (json_int_t)a->task_nb, "hash_mb",
                                     (int)a->hash_mb));
    if (analysis != NULL) { /* the job says where: the result keeps what was found */
        json_object_del(analysis, "variant");
        json_object_del(analysis, "position");
    }
    bad |= json_object_update_new(out->result, analysis);
    out->contributors = tasks_credit(&aj->t);
    out->amount_noun = "nodes";
    return bad ? -1 : 0;
}

static void s_progress(const void *job, job_progress_t *out)
{
    const s_analyse_t *aj = job;
    tasks_progress(&aj->t, out);
    snprintf(out->what, sizeof out->what, "analyse %d", aj->a->depth);
    game_format(&aj->a->game.pos, out->position, sizeof out->position);
    out->depth = aj->a->depth;
}

static bool s_wanted(const opts_t *o)
{
    return o->analyse > 0;
}

const job_ops_t kind_analyse = {
    .name = "analyse", .min_version = 3,
    .wanted = s_wanted, .open = s_open, .close = s_close, .spawn_opts = s_spawn_opts, .report = s_report, .publish = s_publish, .dump_tasks = tasks_dump,
    .job_id = tasks_job_id, .variant = tasks_variant, .finished = tasks_finished, .has_work = tasks_has_work,
    .status = tasks_status, .progress = s_progress, .dispatch = tasks_dispatch, .forget = tasks_forget, .renew = tasks_renew,
    .expire = tasks_expire, .timers = tasks_timers, .message = s_message,
};
