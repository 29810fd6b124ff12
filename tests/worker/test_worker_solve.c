/* test_worker_solve.c: the worker's solve row (worker/wsolve.c) on its own, no sockets: prepare
 * refuses what cannot be solved here (naming the pair or the table), the phase before a task
 * runs asks the coordinator for the tables it lacks (FETCH) and ignores stale chunks, a pair
 * with every table here runs on the pool's threads and is answered SOLVED with the files it
 * made, which the coordinator may then FETCH (and no other file). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "sig.h"
#include "wsolve.h"
#include "xfer.h"

/* The row's table directory, options and state, and what it sent and logged (its io.ctx). */
typedef struct {
    char dir[64];
    worker_opts_t opts;
    void *state;
    msg_t sent[8];  /* a CHUNK's data points into the row's state */
    int sent_nb;
    char log[4096];
} s_fixture_t;

static void s_send(void *ctx, const msg_t *m)
{
    s_fixture_t *f = ctx;
    if (f->sent_nb < 8)
        f->sent[f->sent_nb++] = *m;
}

static void s_logged(void *ctx, bool always, const char *text)
{
    s_fixture_t *f = ctx;
    (void)always;
    strncat(f->log, text, sizeof f->log - strlen(f->log) - 2);
    strcat(f->log, "\n");
}

/* The row closed and opened again (or opened: what it reads at open is --memory and the directory's id). */
static void s_reopen(s_fixture_t *f)
{
    char err[200];
    wkind_io_t io = {.opts = &f->opts, .send = s_send, .log = s_logged, .ctx = f};
    WSOLVE_KIND.close(&f->state, false);
    assert_int_equal(WSOLVE_KIND.open(&io, &f->state, err, sizeof err), 0);
}

static int s_setup(void **state)
{
    s_fixture_t *f = calloc(1, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "/tmp/test-wsolve-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    f->opts = (worker_opts_t){.tables = f->dir, .threads = 1};
    s_reopen(f);
    *state = f;
    return 0;
}

static int s_teardown(void **state)
{
    s_fixture_t *f = *state;
    char cmd[128];
    WSOLVE_KIND.close(&f->state, false);
    snprintf(cmd, sizeof cmd, "rm -rf %s", f->dir);
    assert_int_equal(system(cmd), 0);
    free(f);
    return 0;
}

/* A SOLVE of pair `pair` (its primary table's name), task 7 of job 9. */
static void s_solve_msg(msg_t *m, const char *pair)
{
    msg_init(m, MSG_SOLVE);
    m->u.solve.task_id = 7;
    m->u.solve.job_id = 9;
    snprintf(m->u.solve.pair, sizeof m->u.solve.pair, "%s", pair);
}

/* The name of pair i's primary table. */
static void s_pair(int i, char *name)
{
    sig_table_name(sig_pair_table(i), name, SIG_NAME_MAX);
}

static int s_prepare(s_fixture_t *f, const msg_t *m, compute_job_t *job, char *reason)
{
    *job = (compute_job_t){.kind = &WSOLVE_KIND, .gen = 1};
    int code = WSOLVE_KIND.prepare(f->state, m, 0, job, reason, MSG_TEXT_MAX);
    assert_int_equal(job->task_id, 7); /* the ids, also to refuse */
    assert_int_equal(job->job_id, 9);
    if (code != 0)
        assert_null(job->arg);
    return code;
}

static void s_has(const char *text, const char *needle)
{
    if (strstr(text, needle) == NULL)
        fail_msg("\"%s\" does not mention \"%s\"", text, needle);
}

static void test_refusals(void **state)
{
    s_fixture_t *f = *state;
    msg_t m;
    compute_job_t job;
    char reason[MSG_TEXT_MAX], name[SIG_NAME_MAX], flip[SIG_NAME_MAX];
    s_solve_msg(&m, "KvKZ");
    assert_int_equal(s_prepare(f, &m, &job, reason), MSG_CODE_BAD_MESSAGE);
    s_has(reason, "KvKZ");
    s_pair(5, name);
    sig_table_name(sig_table_flip(sig_pair_table(5)), flip, sizeof flip);
    if (strcmp(name, flip) != 0) { /* the flipped table is not a pair's name */
        s_solve_msg(&m, flip);
        assert_int_equal(s_prepare(f, &m, &job, reason), MSG_CODE_BAD_MESSAGE);
        s_has(reason, "not the primary table of a pair");
    }
    f->opts.memory = 1000;
    s_reopen(f); /* --memory is read at open */
    s_solve_msg(&m, name);
    assert_int_equal(s_prepare(f, &m, &job, reason), MSG_CODE_MEMORY);
    s_has(reason, "--memory");
    assert_int_equal(f->sent_nb, 0); /* prepare sends nothing */
}

/* Sharing the coordinator's directory (its id), a table not there as the coordinator has it cannot be fetched. */
static void test_shared_directory_lacks_a_table(void **state)
{
    s_fixture_t *f = *state;
    msg_t m;
    compute_job_t job;
    char reason[MSG_TEXT_MAX], name[SIG_NAME_MAX], id[MSG_TABLE_NAME_MAX];
    assert_int_equal(xfer_dir_id(f->dir, true, id, sizeof id, reason, sizeof reason), 0); /* as the coordinator's */
    s_reopen(f); /* the row reads the id at open */
    s_pair(3, name);
    s_solve_msg(&m, name);
    snprintf(m.u.solve.dir_id, sizeof m.u.solve.dir_id, "%s", id);
    msg_tableref_t need = {.size = 4096};
    s_pair(0, need.name);
    m.u.solve.n_needs = 1;
    m.u.solve.needs = &need;
    assert_int_equal(s_prepare(f, &m, &job, reason), MSG_CODE_TABLE);
    s_has(reason, "not in the shared directory");
    s_has(reason, need.name);
}

/* A missing table is asked for (FETCH) before the task can run; a chunk of another table changes nothing. */
static void test_fetch_phase(void **state)
{
    s_fixture_t *f = *state;
    msg_t m, chunk;
    compute_job_t job;
    char reason[MSG_TEXT_MAX], name[SIG_NAME_MAX];
    s_pair(3, name);
    s_solve_msg(&m, name);
    msg_tableref_t need = {.size = 4096, .crc = 1};
    s_pair(0, need.name);
    m.u.solve.n_needs = 1;
    m.u.solve.needs = &need;
    assert_int_equal(s_prepare(f, &m, &job, reason), 0);
    assert_int_equal(WSOLVE_KIND.fetch(f->state, &job, reason, sizeof reason), WKIND_HOLD);
    s_has(f->log, ": 1 tables to fetch");
    assert_true(f->sent_nb >= 1);
    assert_int_equal(f->sent[0].type, MSG_FETCH);
    assert_string_equal(f->sent[0].u.fetch.table, need.name);
    msg_init(&chunk, MSG_CHUNK);
    snprintf(chunk.u.chunk.table, sizeof chunk.u.chunk.table, "%s", name); /* not the one asked for */
    assert_int_equal(WSOLVE_KIND.message(f->state, &chunk, &job, reason, sizeof reason), WKIND_HOLD);
    WSOLVE_KIND.reset(f->state); /* the session ends: the transfer stops */
    free(job.arg);
}

/* Every table here: the pair runs with the pool's threads, SOLVED names its files, which may be fetched. */
static void test_solve_and_serve(void **state)
{
    s_fixture_t *f = *state;
    msg_t m, fetch, answer;
    compute_job_t job;
    char reason[MSG_TEXT_MAX], name[SIG_NAME_MAX];
    void *shared = NULL, *thread = NULL;
    s_pair(0, name);
    s_solve_msg(&m, name);
    assert_int_equal(s_prepare(f, &m, &job, reason), 0);
    assert_int_equal(WSOLVE_KIND.fetch(f->state, &job, reason, sizeof reason), 0);
    s_has(f->log, ": 0 tables to fetch");
    assert_int_equal(WSOLVE_KIND.shared_new(0, &shared, reason, sizeof reason), 0);
    wkind_env_t env = {.shared = shared, .thread = &thread, .threads = 2};
    compute_done_t d = {.kind = &WSOLVE_KIND, .task_id = job.task_id, .job_id = job.job_id, .gen = 1};
    d.result = WSOLVE_KIND.run(&job, &env);
    assert_non_null(d.result);
    assert_int_equal(WSOLVE_KIND.answer(f->state, &d, false, &answer, reason, sizeof reason), 0);
    assert_int_equal(answer.type, MSG_SOLVED);
    assert_int_equal(answer.u.solved.task_id, 7);
    assert_true(answer.u.solved.positions > 0);
    assert_true(answer.u.solved.n_tables >= 1);
    assert_string_equal(answer.u.solved.tables[0].name, name);
    assert_false(answer.u.solved.in_shared);
    s_has(f->log, "solved ");
    msg_init(&fetch, MSG_FETCH);
    snprintf(fetch.u.fetch.table, sizeof fetch.u.fetch.table, "%s", name);
    fetch.u.fetch.length = 1024;
    f->sent_nb = 0;
    assert_int_equal(WSOLVE_KIND.message(f->state, &fetch, NULL, reason, sizeof reason), WKIND_HOLD);
    assert_int_equal(f->sent_nb, 1);
    assert_int_equal(f->sent[0].type, MSG_CHUNK);
    assert_int_equal(f->sent[0].u.chunk.size, answer.u.solved.tables[0].size);
    s_pair(1, fetch.u.fetch.table); /* not made here */
    assert_int_equal(WSOLVE_KIND.message(f->state, &fetch, NULL, reason, sizeof reason), WKIND_HOLD);
    assert_int_equal(f->sent[1].type, MSG_ERROR);
    s_has(f->sent[1].u.error.text, "made no such table");
    free(d.result);
    free(job.arg);
    WSOLVE_KIND.shared_free(&shared);
    assert_null(shared);
}

/* A run that failed is refused INTERNAL with its reason. */
static void test_failed_run_is_refused(void **state)
{
    s_fixture_t *f = *state;
    msg_t answer;
    char reason[MSG_TEXT_MAX];
    compute_done_t d = {.kind = &WSOLVE_KIND, .task_id = 7, .job_id = 9, .gen = 1};
    assert_int_equal(WSOLVE_KIND.answer(f->state, &d, false, &answer, reason, sizeof reason), MSG_CODE_INTERNAL);
    s_has(reason, "out of memory");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_refusals, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_shared_directory_lacks_a_table, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_fetch_phase, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_solve_and_serve, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_failed_run_is_refused, s_setup, s_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
