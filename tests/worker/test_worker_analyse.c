/* test_worker_analyse.c: the worker's ANALYSE handling (worker/wanalyse.c): refusals name the
 * field and problem, and a task's answer is engine_split_move's result, PV as texts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "split_move.h"
#include "wanalyse.h"

/* Under the sanitizers a table no machine has must fail as malloc fails (NULL), as it does
 * in a release build, not abort the test (test_no_table_is_refused). */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1";
}

static void s_task(msg_t *m, const char *variant, const char *position, const char *move)
{
    msg_init(m, MSG_ANALYSE);
    msg_analyse_t *a = &m->u.analyse;
    a->task_id = 5;
    a->job_id = 77;
    snprintf(a->variant, sizeof a->variant, "%s", variant);
    snprintf(a->position, sizeof a->position, "%s", position);
    snprintf(a->move, sizeof a->move, "%s", move);
    a->depth = 5;
    a->hash_mb = 4;
    a->lease_ms = 1000;
}

static void s_refused(const msg_t *m, int code, const char *needle)
{
    compute_job_t job = {.kind = &WANALYSE_KIND};
    char reason[MSG_TEXT_MAX] = "";
    assert_int_equal(WANALYSE_KIND.prepare(NULL, m, 0, &job, reason, sizeof reason), code);
    assert_null(job.arg);
    assert_int_equal(job.task_id, 5); /* the ids, for the REFUSE */
    assert_int_equal(job.job_id, 77);
    if (strstr(reason, needle) == NULL)
        fail_msg("reason \"%s\" does not mention \"%s\"", reason, needle);
}

static void test_refusals(void **state)
{
    (void)state;
    msg_t m;
    msg_move_t moves[2] = {"e2e4", "e2e4"};
    msg_analyse_t *a = &m.u.analyse;
    const char *start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    s_task(&m, "xiangqi", start, "e2e4");
    s_refused(&m, MSG_CODE_VARIANT, "unknown variant \"xiangqi\"");
    s_task(&m, "chess", "rnbqkbnr/ppp w", "e2e4");
    s_refused(&m, MSG_CODE_POSITION, "bad position: position \"rnbqkbnr/ppp w\"");
    s_task(&m, "chess", start, "e2e4");
    a->n_moves = 2;
    a->moves = moves;
    s_refused(&m, MSG_CODE_POSITION, "moves: move 2 'e2e4' is not legal there");
    a->n_moves = 1;
    s_refused(&m, MSG_CODE_POSITION, "move 'e2e4' is not legal in the analysed position");
}

static void test_answer_is_the_split_search(void **state)
{
    (void)state;
    msg_t a, m;
    engine_result_t *want = malloc(sizeof *want); /* about 100 KB of lines */
    assert_non_null(want);
    compute_job_t job = {.kind = &WANALYSE_KIND};
    char reason[MSG_TEXT_MAX];
    void *thread = NULL;
    s_task(&a, "octad", "ppkn/4/4/NKPP w NCFncf - 0 1", "c1c2");
    assert_int_equal(WANALYSE_KIND.prepare(NULL, &a, 0, &job, reason, sizeof reason), 0);
    wkind_env_t env = {.thread = &thread};
    compute_done_t d = {.kind = &WANALYSE_KIND, .task_id = job.task_id, .job_id = job.job_id};
    d.result = WANALYSE_KIND.run(&job, &env);
    assert_non_null(d.result);
    assert_non_null(thread); /* the thread's engine, kept for its next task */
    const wanalyse_task_t *t = job.arg;
    engine_t *ref = engine_new(4u << 20);
    engine_history_t h = engine_game_history(&t->game);
    assert_int_equal(engine_split_move(ref, &t->game.pos, &h, t->move, 5, want), 0);
    assert_int_equal(WANALYSE_KIND.answer(NULL, &d, false, &m, reason, sizeof reason), 0);
    assert_int_equal(m.type, MSG_ANALYSED);
    assert_int_equal(m.u.analysed.task_id, 5);
    assert_int_equal(m.u.analysed.job_id, 77);
    assert_string_equal(m.u.analysed.move, "c1c2");
    assert_int_equal(m.u.analysed.score, want->lines[0].score);
    assert_int_equal(m.u.analysed.nodes, want->nodes);
    assert_int_equal(m.u.analysed.n_pv, want->lines[0].pvlen);
    assert_string_equal(m.u.analysed.pv[0], "c1c2");
    assert_int_equal(WANALYSE_KIND.answer(NULL, &d, true, &m, reason, sizeof reason), 0); /* --inject-fault: the score is off by one */
    assert_int_equal(m.u.analysed.score, want->lines[0].score + 1);
    free(want);
    engine_destroy(&ref);
    WANALYSE_KIND.thread_free(&thread);
    assert_null(thread);
    free(d.result);
    free(job.arg);
}

/* A search whose table cannot be had is refused INTERNAL, naming the table. */
static void test_no_table_is_refused(void **state)
{
    (void)state;
    msg_t a, m;
    compute_job_t job = {.kind = &WANALYSE_KIND};
    char reason[MSG_TEXT_MAX] = "";
    void *thread = NULL;
    s_task(&a, "octad", "ppkn/4/4/NKPP w NCFncf - 0 1", "c1c2");
    a.u.analyse.hash_mb = UINT32_MAX; /* 4 PiB: no machine has it */
    assert_int_equal(WANALYSE_KIND.prepare(NULL, &a, 0, &job, reason, sizeof reason), 0);
    wkind_env_t env = {.thread = &thread};
    compute_done_t d = {.kind = &WANALYSE_KIND, .task_id = 5, .job_id = 77};
    d.result = WANALYSE_KIND.run(&job, &env);
    assert_int_equal(WANALYSE_KIND.answer(NULL, &d, false, &m, reason, sizeof reason), MSG_CODE_INTERNAL);
    assert_non_null(strstr(reason, "table"));
    WANALYSE_KIND.thread_free(&thread);
    free(d.result);
    free(job.arg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_answer_is_the_split_search),
        cmocka_unit_test(test_no_table_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
