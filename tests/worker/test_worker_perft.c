/* test_worker_perft.c: the worker's perft TASKs (worker/wperft.c): refusals name the field and
 * problem, an accepted task is counted by the compute pool as game_perft counts it, and its RESULT
 * carries that count (off by one only when perturbed, for verify-mode tests). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "compute.h"
#include "game.h"
#include "wperft.h"

static void s_task(msg_t *m, const char *variant, const char *position, int depth)
{
    msg_init(m, MSG_TASK);
    msg_task_t *t = &m->u.task;
    t->task_id = 9;
    t->job_id = 31;
    snprintf(t->variant, sizeof t->variant, "%s", variant);
    snprintf(t->position, sizeof t->position, "%s", position);
    t->depth = (uint8_t)depth;
    t->lease_ms = 1000;
}

/* The perft row's prepare, then the task queued on pool: 0, or the REFUSE code and reason. */
static int s_submit(compute_t *pool, const msg_t *m, char *reason, size_t len)
{
    compute_job_t job = {.kind = &WPERFT_KIND, .gen = 1};
    int code = WPERFT_KIND.prepare(NULL, m, 0, &job, reason, len);
    assert_int_equal(job.task_id, 9); /* the ids, also for a REFUSE */
    assert_int_equal(job.job_id, 31);
    if (code != 0) {
        assert_null(job.arg);
        return code;
    }
    assert_int_equal(compute_submit(pool, &job), 0);
    return 0;
}

static void s_refused(compute_t *pool, const msg_t *m, int code, const char *needle)
{
    char reason[MSG_TEXT_MAX] = "";
    assert_int_equal(s_submit(pool, m, reason, sizeof reason), code);
    if (strstr(reason, needle) == NULL)
        fail_msg("reason \"%s\" does not mention \"%s\"", reason, needle);
}

static void test_refusals_and_answer(void **state)
{
    (void)state;
    int fds[2];
    char err[200], reason[MSG_TEXT_MAX];
    assert_int_equal(pipe(fds), 0);
    compute_t *pool = compute_new((const wkind_t *const[]){&WPERFT_KIND}, 1, 1, 0, fds[1], 0, err, sizeof err);
    assert_non_null(pool);
    const char *start = "ppkn/4/4/NKPP w NCFncf - 0 1";
    msg_t tm;
    s_task(&tm, "xiangqi", start, 3);
    s_refused(pool, &tm, MSG_CODE_VARIANT, "unknown variant \"xiangqi\"");
    s_task(&tm, "octad", start, WPERFT_DEPTH_MAX + 1);
    s_refused(pool, &tm, MSG_CODE_DEPTH, "depth 41 not supported (at most 40)");
    s_task(&tm, "octad", "ppkn/4 w", 3);
    s_refused(pool, &tm, MSG_CODE_POSITION, "bad position \"ppkn/4 w\": ");
    assert_int_equal(compute_busy(pool), 0); /* nothing refused was queued */

    s_task(&tm, "octad", start, 4);
    tm.u.task.want_stats = true;
    assert_int_equal(s_submit(pool, &tm, reason, sizeof reason), 0);
    compute_done_t d;
    while (!compute_take(pool, &d))
        usleep(1000);
    game_pos_t pos;
    assert_int_equal(game_parse(VARIANT_OCTAD, start, &pos, err, sizeof err), 0);
    count_t want = game_perft(&pos, 4, NULL);
    msg_t m;
    assert_true(d.kind == &WPERFT_KIND);
    assert_int_equal(WPERFT_KIND.answer(NULL, &d, false, &m, reason, sizeof reason), 0);
    assert_int_equal(m.type, MSG_RESULT);
    assert_int_equal(m.u.result.task_id, 9);
    assert_int_equal(m.u.result.job_id, 31);
    assert_true(m.u.result.nodes == want && want > 0);
    assert_true(m.u.result.has_stats && m.u.result.stats.nodes == want);
    assert_int_equal(WPERFT_KIND.answer(NULL, &d, true, &m, reason, sizeof reason), 0); /* --inject-fault: one node too many, in the stats too */
    assert_true(m.u.result.nodes == want + 1 && m.u.result.stats.nodes == want + 1);
    free(d.result);
    compute_destroy(&pool);
    close(fds[0]);
    close(fds[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refusals_and_answer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
