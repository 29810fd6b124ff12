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

static void s_task(msg_analyse_t *a, const char *variant, const char *position, const char *move)
{
    memset(a, 0, sizeof *a);
    a->task_id = 5;
    a->job_id = 77;
    snprintf(a->variant, sizeof a->variant, "%s", variant);
    snprintf(a->position, sizeof a->position, "%s", position);
    snprintf(a->move, sizeof a->move, "%s", move);
    a->depth = 5;
    a->hash_mb = 4;
    a->lease_ms = 1000;
}

static void s_refused(const msg_analyse_t *a, int code, const char *needle)
{
    compute_job_t job;
    char reason[MSG_TEXT_MAX] = "";
    assert_int_equal(wanalyse_prepare(a, 1, &job, reason, sizeof reason), code);
    assert_null(job.game);
    if (strstr(reason, needle) == NULL)
        fail_msg("reason \"%s\" does not mention \"%s\"", reason, needle);
}

static void test_refusals(void **state)
{
    (void)state;
    static msg_analyse_t a;
    const char *start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    s_task(&a, "xiangqi", start, "e2e4");
    s_refused(&a, MSG_CODE_VARIANT, "unknown variant \"xiangqi\"");
    s_task(&a, "chess", "rnbqkbnr/ppp w", "e2e4");
    s_refused(&a, MSG_CODE_POSITION, "bad position: position \"rnbqkbnr/ppp w\"");
    s_task(&a, "chess", start, "e2e4");
    a.n_moves = 2;
    strcpy(a.moves[0], "e2e4");
    strcpy(a.moves[1], "e2e4");
    s_refused(&a, MSG_CODE_POSITION, "moves: move 2 'e2e4' is not legal there");
    a.n_moves = 1;
    s_refused(&a, MSG_CODE_POSITION, "move 'e2e4' is not legal in the analysed position");
}

static void test_answer_is_the_split_search(void **state)
{
    (void)state;
    static msg_analyse_t a;
    static msg_t m;
    static compute_done_t d;
    static engine_result_t want;
    compute_job_t job;
    char reason[MSG_TEXT_MAX];
    engine_t *eng = NULL;
    uint32_t eng_mb = 0;
    s_task(&a, "octad", "ppkn/4/4/NKPP w NCFncf - 0 1", "c1c2");
    a.n_moves = 0;
    assert_int_equal(wanalyse_prepare(&a, 1, &job, reason, sizeof reason), 0);
    memset(&d, 0, sizeof d);
    d.task_id = job.task_id;
    d.job_id = job.job_id;
    wanalyse_run(&job, &eng, &eng_mb, &d);
    assert_false(d.failed);
    engine_t *ref = engine_new(4u << 20);
    engine_history_t h = engine_game_history(job.game);
    assert_int_equal(engine_split_move(ref, &job.game->pos, &h, job.move, 5, &want), 0);
    wanalyse_answer(&d, false, &m);
    assert_int_equal(m.type, MSG_ANALYSED);
    assert_int_equal(m.u.analysed.task_id, 5);
    assert_int_equal(m.u.analysed.job_id, 77);
    assert_string_equal(m.u.analysed.move, "c1c2");
    assert_int_equal(m.u.analysed.score, want.lines[0].score);
    assert_int_equal(m.u.analysed.nodes, want.nodes);
    assert_int_equal(m.u.analysed.n_pv, want.lines[0].pvlen);
    assert_string_equal(m.u.analysed.pv[0], "c1c2");
    wanalyse_answer(&d, true, &m); /* --inject-fault: the score is off by one */
    assert_int_equal(m.u.analysed.score, want.lines[0].score + 1);
    engine_destroy(&ref);
    engine_destroy(&eng);
    free(job.game);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_answer_is_the_split_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
