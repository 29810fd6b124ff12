/* main.c: the `coordinator` command: sets up the job, journal, socket and local workers, then runs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ajob.h"
#include "count.h"
#include "journal.h"
#include "opts.h"
#include "reference.h"
#include "report.h"
#include "server.h"
#include "ssolve.h"
#include "stop_signal.h"
#if OCTAD_HAVE_CURVE
#include "curve.h"
#endif

static int s_keygen(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("usage: coordinator keygen [PREFIX]\n"
               "Writes a CURVE key pair: PREFIX.key (secret, mode 0600) and PREFIX.pub (default PREFIX: coordinator).\n"
               "Give workers' .pub files to the coordinator's --allow, the coordinator's .pub to --server-key.\n");
        return EXIT_OK;
    }
#if OCTAD_HAVE_CURVE
    char err[256];
    const char *prefix = argc > 1 ? argv[1] : "coordinator";
    curve_keys_t keys;
    if (curve_keys_generate(&keys, err, sizeof err) != 0 || curve_keys_write(prefix, &keys, err, sizeof err) != 0) {
        fprintf(stderr, "coordinator keygen: %s\n", err);
        return EXIT_FAIL;
    }
    printf("wrote %s.key and %s.pub\n", prefix, prefix);
    return EXIT_OK;
#else
    fprintf(stderr, "coordinator keygen: built without CURVE support\n");
    return EXIT_FAIL;
#endif
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
        fprintf(stderr, "coordinator: bad position: %s\n", err);
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
            fprintf(stderr, "coordinator: journal %s: the record of task %llu %s (of %zu tasks): the file was "
                    "written by another split or altered; use another journal file\n", o->journal,
                    (unsigned long long)id, why, job->task_nb);
            return EXIT_USAGE;
        }
    }
    return 0;
}

/* Opens the journal and marks its finished tasks done; 0, EXIT_USAGE or EXIT_FAIL (a write error). */
static int s_load_journal(const opts_t *o, const job_t *job, sched_t *sched, journal_t **out, size_t *loaded)
{
    char err[512];
    *loaded = 0;
    if (o->journal == NULL)
        return 0;
    *out = journal_open(o->journal, job->job_key, err, sizeof err);
    if (*out == NULL) {
        /* A disk that cannot take the journal is a failure, as when it fills up mid-run (exit 1);
         * a file that is not this job's journal, or a path that cannot be opened, is bad input. */
        bool io = errno == ENOSPC || errno == EDQUOT || errno == EIO || errno == EFBIG;
        fprintf(stderr, "coordinator: %s\n", err);
        return io ? EXIT_FAIL : EXIT_USAGE;
    }
    if (s_check_journal(o, job, *out) != 0)
        return EXIT_USAGE;
    for (size_t i = 0; i < job->task_nb; i++) {
        count_t nodes;
        perft_stats_t st;
        if (journal_lookup(*out, (uint64_t)i + 1, &nodes, &st)) {
            sched_preload(sched, i, nodes, job->stats ? &st : NULL);
            (*loaded)++;
        }
    }
    if (!o->quiet)
        fprintf(stderr, "coordinator: journal %s: %zu of %zu tasks loaded\n", o->journal, *loaded, job->task_nb);
    return 0;
}

static int s_report(const opts_t *o, const job_t *job, sched_t *sched, const server_summary_t *sum)
{
    job_total_t *total = malloc(sizeof *total);
    if (total == NULL)
        return EXIT_FAIL;
    job_total(job, sched_counts(sched), sched_stats(sched), total);
    report_final_t r = {.job = job, .total = total, .sum = sum, .divide = o->divide, .stats = o->stats,
                        .json = o->json, .verify = o->verify,
                        .verify_by = o->curve_secret != NULL ? "keys" : "names"};
    if (o->have_expect) {
        r.expected = o->expect;
        r.expected_from = "--expect";
    } else if (!job->bench && reference_lookup(&job->root, job->depth, &r.expected)) {
        r.expected_from = "reference";
    }
    if (r.expected_from != NULL)
        r.check = r.expected == total->nodes ? REPORT_MATCH : REPORT_MISMATCH;
    report_final(&r);
    free(total);
    return r.check == REPORT_MISMATCH ? EXIT_MISMATCH : EXIT_OK;
}

/* Writes the endpoint to path atomically (a reader never sees half of it). */
static int s_write_endpoint(const char *path, const char *endpoint)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (f == NULL || fprintf(f, "%s\n", endpoint) < 0 || fclose(f) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "coordinator: --endpoint-file %s: cannot write it\n", path);
        return -1;
    }
    return 0;
}

static int s_analyse_report(const opts_t *o, ajob_t *a, sched_t *sched, const server_summary_t *sum);

/* Runs the job (a perft, or with analyse an analysis) once everything is set up; returns the exit status. */
static int s_serve(const opts_t *o, const job_t *job, sched_t *sched, journal_t *journal, size_t loaded, int stop_fd,
                   ajob_t *analyse)
{
    char err[512];
    bool usage;
    server_t *server = server_new(o, job, sched, journal, err, sizeof err, &usage);
    spawn_t *spawn = NULL;
    spawn_opts_t so = {0};
    if (server == NULL) {
        fprintf(stderr, "coordinator: %s\n", err);
        return usage ? EXIT_USAGE : EXIT_FAIL;
    }
    if (analyse != NULL)
        server_set_analyse(server, analyse);
    if (o->bind != NULL && !o->quiet)
        fprintf(stderr, "coordinator: listening on %s (workers here: %s)\n", o->bind, server_endpoint(server));
    if (o->verify && o->bind != NULL && o->curve_secret == NULL)
        fprintf(stderr, "coordinator: warning: --verify without CURVE tells workers apart by the names they "
                "declare: it protects against faulty workers, not against a malicious peer (one peer can "
                "claim two names); use --curve-secret and --allow for results you publish\n");
    if (o->endpoint_file != NULL && s_write_endpoint(o->endpoint_file, server_endpoint(server)) != 0) {
        server_destroy(&server);
        return EXIT_FAIL;
    }
    if (o->local_workers > 0 && sched_done_nb(sched) < job->task_nb) {
        /* One process whose threads share one table (octad: nothing is computed
         * twice), except under --verify, whose two results per task must come
         * from two workers that share nothing. */
        so = (spawn_opts_t){.processes = o->verify ? o->local_workers : 1,
                            .threads = o->verify ? 1 : o->local_workers,
                            .hash_mb = analyse ? 0 : o->hash_mb, /* an analysis brings its own table */
                            .prefetch = analyse ? 0 : o->worker_prefetch, .quiet = o->quiet};
        spawn = spawn_new(server_endpoint(server), &so, err, sizeof err);
        if (spawn == NULL) {
            fprintf(stderr, "coordinator: %s\n", err);
            server_destroy(&server);
            return EXIT_FAIL;
        }
    }
    server_summary_t sum;
    int rc = server_run(server, spawn, stop_fd);
    server_summary(server, &sum);
    sum.loaded = loaded;
    sum.local_processes = so.processes;
    sum.local_threads = so.threads;
    server_destroy(&server);
    spawn_destroy(&spawn, 1000);
    if (rc == SERVER_DISPUTED)
        return EXIT_MISMATCH;
    if (rc != 0)
        return EXIT_FAIL;
    return analyse ? s_analyse_report(o, analyse, sched, &sum) : s_report(o, job, sched, &sum);
}

/* The analysis's result: every move best first (or the best), then bestmove; a summary on stderr. */
static int s_analyse_report(const opts_t *o, ajob_t *a, sched_t *sched, const server_summary_t *sum)
{
    static const ajob_result_t *results[GAME_MOVES_MAX];
    for (size_t i = 0; i < a->task_nb; i++)
        if ((results[i] = ajob_seen(a, i, sched_counts(sched)[i])) == NULL) {
            fprintf(stderr, "coordinator: task %zu has no result\n", i + 1);
            return EXIT_FAIL;
        }
    ajob_print(a, results, o->multipv_all, o->json, sum->seconds, stdout);
    if (!o->quiet)
        fprintf(stderr, "coordinator: analysed %zu root moves to depth %d in %.2f s (%zu from the journal, %llu tasks "
                "sent, %zu worker sessions%s)\n", a->task_nb, a->depth, sum->seconds, sum->loaded,
                (unsigned long long)sum->dispatched, sum->workers, o->verify ? ", every move computed by two workers" : "");
    return EXIT_OK;
}

/* `coordinator --analyse D`: one task per legal root move, on the perft server and scheduler. */
static int s_analyse(const opts_t *o, int stop_fd)
{
    char err[600], buf[GAME_TEXT_MAX];
    const char *text = o->text ? o->text : game_start_text(o->variant);
    if (o->start >= 0) {
        chess960_start_fen((int)o->start, buf, sizeof buf);
        text = buf;
    }
    ajob_t *a = ajob_new(o->variant, text, o->moves, o->analyse, (uint32_t)o->hash_mb, o->verify, err, sizeof err);
    if (a == NULL) {
        fprintf(stderr, "coordinator: %s\n", err);
        return EXIT_USAGE;
    }
    job_t job;
    memset(&job, 0, sizeof job);
    job.root = a->game.pos;
    job.job_id = a->job_id;
    job.task_nb = a->task_nb;
    job.verify = o->verify;
    sched_t *sched = sched_new(a->task_nb, o->verify, false);
    journal_t *journal = NULL;
    size_t loaded = 0;
    int rc = sched == NULL ? EXIT_FAIL : 0;
    if (rc == 0 && o->journal != NULL) {
        int jr = ajob_load_journal(a, o->journal, sched, &journal, &loaded, err, sizeof err);
        if (jr != 0) {
            fprintf(stderr, "coordinator: %s\n", err);
            rc = jr == -2 ? EXIT_FAIL : EXIT_USAGE;
        } else if (!o->quiet) {
            fprintf(stderr, "coordinator: journal %s: %zu of %zu moves loaded\n", o->journal, loaded, a->task_nb);
        }
    }
    if (rc == 0)
        rc = s_serve(o, &job, sched, journal, loaded, stop_fd, a);
    journal_destroy(&journal);
    sched_destroy(&sched);
    ajob_destroy(&a);
    return rc;
}

/* `coordinator --solve`: the pair graph over the server, local workers sharing DIR. */
static int s_solve(const opts_t *o, int stop_fd)
{
    char err[600];
    bool usage;
    ssolve_t *solve = ssolve_new(o, err, sizeof err, &usage);
    if (solve == NULL) {
        fprintf(stderr, "coordinator: %s\n", err);
        return usage ? EXIT_USAGE : EXIT_FAIL;
    }
    char what[64];
    if (o->max_pieces)
        snprintf(what, sizeof what, "up to %d pieces", o->max_pieces);
    else
        snprintf(what, sizeof what, "what the %s", o->starts ? "deployed starts need" : "position needs");
    if (!o->quiet)
        fprintf(stderr, "coordinator: solve %s in %s: %d pairs, %d already done there%s\n", what, solve->dir,
                solve->g.n, solve->g.preloaded, o->verify ? " (and verified)" : "");
    job_t job;
    memset(&job, 0, sizeof job);
    job.root.variant = VARIANT_OCTAD;
    job.job_id = solve->job_id;
    sched_t *sched = sched_new(0, false, false);
    server_t *server = sched ? server_new(o, &job, sched, NULL, err, sizeof err, &usage) : NULL;
    int rc = EXIT_FAIL;
    if (server == NULL) {
        fprintf(stderr, "coordinator: %s\n", sched ? err : "out of memory");
        rc = sched && usage ? EXIT_USAGE : EXIT_FAIL;
        goto done;
    }
    server_set_solve(server, solve);
    if (o->verify && o->bind != NULL && o->curve_secret == NULL)
        fprintf(stderr, "coordinator: warning: --verify without CURVE tells workers apart by the names they "
                "declare: it protects against faulty workers, not against a malicious peer\n");
    if (o->bind != NULL && !o->quiet)
        fprintf(stderr, "coordinator: listening on %s (workers here: %s)\n", o->bind, server_endpoint(server));
    if (o->endpoint_file != NULL && s_write_endpoint(o->endpoint_file, server_endpoint(server)) != 0)
        goto done;
    spawn_t *spawn = NULL;
    if (o->local_workers > 0 && !ssolve_finished(solve)) {
        /* One process solving with every thread; --verify needs a second principal to check it. */
        spawn_opts_t so = {.processes = o->verify ? 2 : 1,
                           .threads = o->verify && o->local_workers > 1 ? o->local_workers / 2 : o->local_workers,
                           .hash_mb = 0, .prefetch = 0, .tables = solve->dir, .quiet = o->quiet};
        spawn = spawn_new(server_endpoint(server), &so, err, sizeof err);
        if (spawn == NULL) {
            fprintf(stderr, "coordinator: %s\n", err);
            goto done;
        }
    }
    int run = server_run(server, spawn, stop_fd);
    server_summary_t sum;
    server_summary(server, &sum);
    server_destroy(&server);
    spawn_destroy(&spawn, 1000);
    rc = run != 0 ? EXIT_FAIL : ssolve_report(solve, sum.seconds, sum.cpu_seconds, sum.workers) == 0 ? EXIT_OK
                                                                                                   : EXIT_FAIL;
done:
    server_destroy(&server);
    sched_destroy(&sched);
    ssolve_destroy(&solve);
    return rc;
}

/* The automatic split's task count: fewer, bigger tasks when only the local
 * worker computes and its threads share one octad table (no --bind, a table,
 * no --stats or --verify); from the command line only, so a journal resumes. */
static size_t s_auto_tasks(const opts_t *o)
{
    bool shared = o->bind == NULL && o->hash_mb > 0 && !o->stats && !o->verify && o->variant == VARIANT_OCTAD;
    return job_auto_tasks(o->local_workers, shared);
}

int main(int argc, char **argv)
{
    opts_t o;
    game_pos_t root;
    job_t job;
    char err[256];
    int rc;
    if (argc > 1 && strcmp(argv[1], "keygen") == 0)
        return s_keygen(argc - 1, argv + 1);
    if ((rc = opts_parse(argc - 1, argv + 1, &o)) != 0)
        return rc < 0 ? EXIT_OK : rc;
    if (o.solve || o.analyse) {
        int stop_fd = stop_signal_open();
        if (stop_fd < 0) {
            perror("coordinator: pipe");
            return EXIT_FAIL;
        }
        return o.solve ? s_solve(&o, stop_fd) : s_analyse(&o, stop_fd);
    }
    if ((rc = s_root(&o, &root)) != 0)
        return rc;
    if (o.bench_dispatch > 0 ? job_new_bench(&job, &root, o.bench_dispatch)
                             : job_new(&job, &root, o.depth, o.stats, o.split_depth, s_auto_tasks(&o), err,
                                       sizeof err)) {
        fprintf(stderr, "coordinator: %s\n", err);
        return EXIT_FAIL;
    }
    if (o.verify)
        job_set_verify(&job);
    sched_t *sched = sched_new(job.task_nb, o.verify, o.stats);
    journal_t *journal = NULL;
    size_t loaded = 0;
    if (sched == NULL) {
        fprintf(stderr, "coordinator: out of memory\n");
        rc = EXIT_FAIL;
    } else if ((rc = s_load_journal(&o, &job, sched, &journal, &loaded)) == 0) {
        int stop_fd = stop_signal_open();
        if (stop_fd < 0) {
            perror("coordinator: pipe");
            rc = EXIT_FAIL;
        } else {
            rc = s_serve(&o, &job, sched, journal, loaded, stop_fd, NULL);
        }
    }
    journal_destroy(&journal);
    sched_destroy(&sched);
    job_free(&job);
    return rc;
}
