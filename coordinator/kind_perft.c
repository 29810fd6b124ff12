/* kind_perft.c: the perft job kind (kind.h): a split of perft(root, depth) into TASKs
 * answered by RESULT counts, scheduled by tasks.c, journaled per task (journal.h),
 * added up with each task's weight (job.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count.h"
#include "job.h"
#include "json_value.h"
#include "reference.h"
#include "report.h"
#include "server_priv.h"
#include "tasks.h"
#include "log_line.h"

/* The job: tasks_t first (tasks.h). */
typedef struct {
    tasks_t t;
    job_t job;
} s_perft_t;

static const job_t *s_job(const tasks_t *t)
{
    return &((const s_perft_t *)t)->job;
}

static int s_task_msg(server_t *s, tasks_t *t, size_t i, const peer_t *p, msg_t *m)
{
    const job_t *job = s_job(t);
    (void)p;
    msg_init(m, MSG_TASK);
    m->u.task.task_id = (uint64_t)i + 1;
    m->u.task.job_id = job->job_id;
    snprintf(m->u.task.variant, sizeof m->u.task.variant, "%s", game_variant_name(job->root.variant));
    job_task_text(job, i, m->u.task.position, sizeof m->u.task.position);
    m->u.task.depth = (uint8_t)job_task_depth(job, i);
    m->u.task.want_stats = job->stats;
    m->u.task.lease_ms = s->opts->lease_ms;
    return 0;
}

/* Journal first (with its credit), then the totals: the task adds its count times its weight. */
static bool s_commit(server_t *s, tasks_t *t, size_t i, count_t nodes)
{
    const job_t *job = s_job(t);
    char key[GAME_TEXT_MAX + 32] = "";
    if (t->journal != NULL)
        job_task_key(job, i, key, sizeof key);
    return tasks_record(s, t, i, key, nodes, job->stats ? &sched_stats(t->sched)[i] : NULL,
                        nodes * job_task_weight(job, i));
}

static void s_task_text(const tasks_t *t, size_t i, char *buf, size_t len)
{
    char pos[GAME_TEXT_MAX];
    job_task_text(s_job(t), i, pos, sizeof pos);
    snprintf(buf, len, "%s, depth %d", pos, job_task_depth(s_job(t), i));
}

static void s_answer_text(const tasks_t *t, size_t i, sched_answer_t v, char *buf, size_t len)
{
    char c[COUNT_TEXT_MAX];
    (void)t, (void)i;
    snprintf(buf, len, "%s", count_format(v, c));
}

static void s_frontier(const tasks_t *t, size_t i, char *pos, size_t len, int *depth, count_t *weight)
{
    job_task_text(s_job(t), i, pos, len);
    *depth = job_task_depth(s_job(t), i);
    *weight = job_task_weight(s_job(t), i);
}

static const tasks_ops_t s_tasks_ops = {.answer_noun = "count", .amount_noun = "nodes", .task_msg = s_task_msg,
                                        .commit = s_commit, .task_text = s_task_text, .answer_text = s_answer_text,
                                        .frontier = s_frontier};

static void s_on_result(server_t *s, s_perft_t *pj, peer_t *p, const msg_result_t *r)
{
    const job_t *job = &pj->job;
    char why[200];
    if (r->job_id != job->job_id) {
        server_drop(s, DROP_OTHER_JOB, "RESULT of another job");
        return;
    }
    if (r->task_id < 1 || r->task_id > job->task_nb) {
        server_drop(s, DROP_BAD_RESULT, "RESULT for an unknown task id");
        return;
    }
    size_t i = (size_t)(r->task_id - 1);
    if (job->stats && (!r->has_stats || r->stats.nodes != r->nodes)) {
        server_drop(s, DROP_BAD_RESULT, "RESULT without stats, or stats that do not match its nodes");
        tasks_retry(s, &pj->t, p, i); /* a bad answer for a real task: someone computes it again */
        return;
    }
    const perft_stats_t *st = job->stats ? &r->stats : NULL;
    if (!job_task_plausible(job, i, r->nodes, st, why, sizeof why)) {
        tasks_bad_answer(s, &pj->t, p, i, why);
        return;
    }
    s->sum.worker_seconds += (double)r->elapsed_ms / 1000.0;
    p->wall_s += (double)r->elapsed_ms / 1000.0;
    tasks_answer(s, &pj->t, p, i, r->nodes, st, r->elapsed_ms);
}

static bool s_message(server_t *s, void *job, peer_t *p, const msg_t *m)
{
    if (m->type == MSG_RESULT) {
        s_on_result(s, job, p, &m->u.result);
        return true;
    }
    return tasks_message(s, job, p, m);
}

/* The root position from the options; 0, or EXIT_USAGE after a message. */
static int s_root(const opts_t *o, game_pos_t *out)
{
    char err[256], buf[GAME_TEXT_MAX];
    const char *text = o->text;
    if (o->start >= 0) {
        chess960_start_fen((int)o->start, buf, sizeof buf);
        text = buf;
    } else if (text == NULL) {
        text = game_start_text(o->variant);
    }
    if (game_parse(o->variant, text, out, err, sizeof err) != 0) {
        log_say(LOG_ERROR, NULL, "bad position: %s", err);
        return EXIT_USAGE;
    }
    return 0;
}

/* Every record must be a task of this job's split, under that task's own key
 * (a build that splits differently, or a forged record, would otherwise put
 * one task's count in another's place). 0, or EXIT_USAGE after a message. */
static int s_check_journal(const opts_t *o, const job_t *job, const journal_t *journal)
{
    char key[GAME_TEXT_MAX + 32], count_why[200], text[240];
    for (size_t k = 0; k < journal_done_nb(journal); k++) {
        uint64_t id = journal_task_id_at(journal, k);
        const char *why = NULL;
        count_t nodes;
        perft_stats_t st;
        if (id < 1 || id > job->task_nb) {
            why = "is not a task of this job's split";
        } else {
            job_task_key(job, (size_t)id - 1, key, sizeof key);
            journal_lookup(journal, id, &nodes, &st);
            bool with_stats = job->stats && journal_has_stats(journal, id);
            if (!journal_key_matches(journal, id, key)) {
                why = "carries another position's key";
            } else if (!job_task_plausible(job, (size_t)id - 1, nodes, with_stats ? &st : NULL, count_why,
                                           sizeof count_why)) {
                snprintf(text, sizeof text, "has an impossible count (%s)", count_why);
                why = text;
            }
        }
        if (why != NULL) {
            log_say(LOG_ERROR, NULL, "journal %s: the record of task %llu %s (of %zu tasks): the file was "
                    "written by another split or altered; use another journal file", o->journal,
                    (unsigned long long)id, why, job->task_nb);
            return EXIT_USAGE;
        }
    }
    return 0;
}

/* Opens the journal and marks its finished tasks done; 0, EXIT_USAGE or EXIT_FAIL (a write error). */
static int s_load_journal(const opts_t *o, s_perft_t *pj)
{
    const job_t *job = &pj->job;
    tasks_t *t = &pj->t;
    char err[512];
    if (o->journal == NULL)
        return 0;
    t->journal = journal_open(o->journal, "perft", job->job_key, err, sizeof err);
    if (t->journal == NULL) {
        /* A disk that cannot take the journal is a failure, as when it fills up mid-run (exit 1);
         * a file that is not this job's journal, or a path that cannot be opened, is bad input. */
        bool io = errno == ENOSPC || errno == EDQUOT || errno == EIO || errno == EFBIG;
        log_say(LOG_ERROR, NULL, "%s", err);
        return io ? EXIT_FAIL : EXIT_USAGE;
    }
    if (s_check_journal(o, job, t->journal) != 0)
        return EXIT_USAGE;
    for (size_t i = 0; i < job->task_nb; i++) {
        count_t nodes;
        perft_stats_t st;
        if (journal_lookup(t->journal, (uint64_t)i + 1, &nodes, &st)) {
            sched_preload(t->sched, i, nodes, job->stats ? &st : NULL);
            t->loaded++;
        }
    }
    if (!o->quiet)
        log_say(LOG_INFO, NULL, "journal %s: %zu of %zu tasks loaded", o->journal, t->loaded, job->task_nb);
    return 0;
}

/* The automatic split's task count: fewer, bigger tasks when only the local
 * worker computes and its threads share one octad table (no --bind, a table,
 * no --stats or --verify); from the command line only, so a journal resumes. */
static size_t s_auto_tasks(const opts_t *o)
{
    bool shared = o->bind == NULL && o->hash_mb > 0 && !o->stats && !o->verify && o->variant == VARIANT_OCTAD;
    return job_auto_tasks(o->local_workers, shared);
}

static void s_close(void **job)
{
    s_perft_t *pj = *job;
    if (pj == NULL)
        return;
    tasks_close(&pj->t);
    job_free(&pj->job);
    free(pj);
    *job = NULL;
}

static int s_open(const opts_t *o, void **job)
{
    char err[256];
    game_pos_t root;
    int rc = s_root(o, &root);
    if (rc != 0)
        return rc;
    s_perft_t *pj = calloc(1, sizeof *pj);
    if (pj == NULL) {
        log_say(LOG_ERROR, NULL, "out of memory");
        return EXIT_FAIL;
    }
    *job = pj;
    if (o->bench_dispatch > 0 ? job_new_bench(&pj->job, &root, o->bench_dispatch)
                              : job_new(&pj->job, &root, o->depth, o->stats, o->split_depth, s_auto_tasks(o), err,
                                        sizeof err)) {
        log_say(LOG_ERROR, NULL, "%s", err);
        return EXIT_FAIL;
    }
    if (o->verify)
        job_set_verify(&pj->job);
    pj->t = (tasks_t){.ops = &s_tasks_ops, .task_nb = pj->job.task_nb, .job_id = pj->job.job_id,
                      .variant = root.variant, .sched = sched_new(pj->job.task_nb, o->verify, o->stats)};
    if (pj->t.sched == NULL) {
        log_say(LOG_ERROR, NULL, "out of memory");
        return EXIT_FAIL;
    }
    sched_set_copies(pj->t.sched, !o->no_copies);
    return s_load_journal(o, pj);
}

static void s_spawn_opts(const void *job, const opts_t *o, spawn_opts_t *so)
{
    (void)job;
    /* One process whose threads share one table (octad: nothing is computed
     * twice), except under --verify, whose two results per task must come
     * from two workers that share nothing. */
    so->processes = o->verify ? o->local_workers : 1;
    so->threads = o->verify ? 1 : o->local_workers;
    so->hash_mb = o->hash_mb;
    so->prefetch = o->worker_prefetch;
}

/* The total of the finished job and how it compares with --expect or the reference. */
static void s_result(s_perft_t *pj, const opts_t *o, job_total_t *total, report_final_t *r)
{
    job_total(&pj->job, sched_answers(pj->t.sched), sched_stats(pj->t.sched), total);
    if (o->have_expect) {
        r->expected = o->expect;
        r->expected_from = "--expect";
    } else if (!pj->job.bench && reference_lookup(&pj->job.root, pj->job.depth, &r->expected)) {
        r->expected_from = "reference";
    }
    if (r->expected_from != NULL)
        r->check = r->expected == total->nodes ? REPORT_MATCH : REPORT_MISMATCH;
}

static int s_report(void *job, const opts_t *o, const server_summary_t *sum)
{
    s_perft_t *pj = job;
    server_summary_t run = *sum;
    job_total_t *total = malloc(sizeof *total);
    if (total == NULL)
        return EXIT_FAIL;
    run.loaded = pj->t.loaded;
    report_final_t r = {.job = &pj->job, .total = total, .sum = &run, .divide = o->divide, .stats = o->stats,
                        .json = o->json, .verify = o->verify, .contributors = tasks_credit(&pj->t),
                        .verify_by = o->curve_secret != NULL ? "keys" : "names"};
    s_result(pj, o, total, &r);
    report_final(&r);
    free(total);
    return r.check == REPORT_MISMATCH ? EXIT_MISMATCH : EXIT_OK;
}

/* --report: the job (position, depth, split) and its total, divide, stats and check. */
static int s_publish(void *job, const opts_t *o, const server_summary_t *sum, job_publish_t *out)
{
    s_perft_t *pj = job;
    char pos[GAME_TEXT_MAX];
    report_final_t r = {0};
    job_total_t *total = malloc(sizeof *total);
    (void)sum;
    if (total == NULL)
        return -1;
    s_result(pj, o, total, &r);
    game_format(&pj->job.root, pos, sizeof pos);
    int bad = json_object_update_new(out->job, json_pack("{s:s, s:s, s:i, s:I, s:b, s:b, s:b}", "variant",
                                 game_variant_name(pj->job.root.variant), "position", pos, "depth", pj->job.depth,
                                 "tasks", (json_int_t)pj->job.task_nb, "divide", o->divide, "stats", o->stats,
                                 "bench_dispatch", pj->job.bench));
    bad |= json_object_set_new(out->result, "nodes", json_value_count(total->nodes));
    if (o->divide) {
        json_t *d = json_object();
        for (int i = 0; d != NULL && i < total->root_nb; i++)
            bad |= json_object_set_new(d, total->root_uoi[i], json_value_count(total->root_nodes[i]));
        bad |= json_object_set_new(out->result, "divide", d);
    }
    if (o->stats) {
        json_t *st = json_object();
        for (size_t k = 0; st != NULL && k < REPORT_STAT_NB; k++)
            bad |= json_object_set_new(st, REPORT_STATS[k].name, json_value_count(report_stat(&total->stats, k)));
        bad |= json_object_set_new(out->result, "stats", st);
    }
    if (r.expected_from != NULL)
        bad |= json_object_update_new(out->result, json_pack("{s:o?, s:s, s:b}", "expected", json_value_count(r.expected),
                                  "expected_from", r.expected_from, "match", r.check == REPORT_MATCH));
    out->contributors = tasks_credit(&pj->t);
    out->amount_noun = "nodes";
    free(total);
    return bad ? -1 : 0;
}

static void s_progress(const void *job, job_progress_t *out)
{
    const s_perft_t *pj = job;
    tasks_progress(&pj->t, out);
    snprintf(out->what, sizeof out->what, "%s %d", pj->job.bench ? "bench-dispatch" : "perft", pj->job.depth);
    game_format(&pj->job.root, out->position, sizeof out->position);
    out->depth = pj->job.depth;
}

static bool s_wanted(const opts_t *o)
{
    (void)o;
    return true;
}

const job_ops_t kind_perft = {
    .name = "perft", .min_version = 1,
    .wanted = s_wanted, .open = s_open, .close = s_close, .spawn_opts = s_spawn_opts, .report = s_report, .publish = s_publish, .dump_tasks = tasks_dump,
    .job_id = tasks_job_id, .variant = tasks_variant, .finished = tasks_finished, .has_work = tasks_has_work,
    .status = tasks_status, .progress = s_progress, .dispatch = tasks_dispatch, .forget = tasks_forget, .renew = tasks_renew,
    .expire = tasks_expire, .timers = tasks_timers, .message = s_message,
};
