/* test_cluster_sched.c: the coordinator's task life cycle (sched.h) and job splitting (job.h), without sockets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "job.h"
#include "reference.h"
#include "sched.h"

enum { A = 1, B = 2, C = 3 };          /* session serials */
enum { NA = 10, NB = 20, NC = 30 };    /* name ids */

static void test_lease_result_done(void **state)
{
    (void)state;
    sched_t *s = sched_new(3, false, false);
    assert_non_null(s);
    assert_int_equal(sched_next(s, A, NA, 100), 0);
    assert_int_equal(sched_next(s, A, NA, 100), 1);
    assert_int_equal(sched_inflight_nb(s), 2);
    assert_int_equal(sched_result(s, 1, A, NA, 42, NULL), SCHED_ACCEPTED);
    assert_true(sched_done(s, 1));
    assert_true(sched_answers(s)[1] == 42);
    assert_int_equal(sched_result(s, 1, A, NA, 42, NULL), SCHED_DUPLICATE);
    assert_int_equal(sched_result(s, 1, B, NB, 43, NULL), SCHED_CONFLICT);
    assert_int_equal(sched_result(s, 2, B, NB, 7, NULL), SCHED_NOT_LEASED);
    assert_int_equal(sched_done_nb(s), 1);
    sched_destroy(&s);
    assert_null(s);
}

static void test_expiry_and_late_result(void **state)
{
    (void)state;
    sched_t *s = sched_new(2, false, false);
    assert_int_equal(sched_next(s, A, NA, 100), 0);
    sched_renew(s, A, 200);
    assert_int_equal(sched_expire(s, 150), 0);
    assert_int_equal(sched_expire(s, 200), 1);
    /* The expired task goes to the front of the queue, so B gets it first. */
    assert_int_equal(sched_next(s, B, NB, 1000), 0);
    /* A's late result is still taken, exactly once; B's is then a duplicate. */
    assert_int_equal(sched_result(s, 0, A, NA, 5, NULL), SCHED_ACCEPTED);
    assert_int_equal(sched_result(s, 0, B, NB, 5, NULL), SCHED_DUPLICATE);
    assert_int_equal(sched_inflight_nb(s), 0);
    assert_int_equal(sched_queued_nb(s), 1);
    sched_destroy(&s);
}

static void test_drop_handback_refuse(void **state)
{
    (void)state;
    sched_t *s = sched_new(2, false, false);
    assert_int_equal(sched_next(s, A, NA, 100), 0);
    assert_int_equal(sched_next(s, A, NA, 100), 1);
    assert_int_equal(sched_drop_serial(s, A), 2);
    assert_int_equal(sched_queued_nb(s), 2);
    /* A dead session's result is not taken. */
    assert_int_equal(sched_result(s, 0, A, NA, 1, NULL), SCHED_NOT_LEASED);
    long i = sched_next(s, B, NB, 100);
    assert_true(sched_handback(s, (size_t)i, B));
    assert_false(sched_handback(s, (size_t)i, B));
    i = sched_next(s, B, NB, 100);
    assert_int_equal(sched_refuse(s, (size_t)i, B, NB), 1);
    /* B refused task i: it is never offered to NB again, but C may take it. */
    long j = sched_next(s, B, NB, 100);
    assert_true(j >= 0 && j != i);
    assert_int_equal(sched_next(s, B, NB, 100), -1);
    assert_int_equal(sched_next(s, C, NC, 100), i);
    sched_destroy(&s);
}

static void test_verify_agree_and_disagree(void **state)
{
    (void)state;
    sched_t *s = sched_new(1, true, false);
    assert_int_equal(sched_next(s, A, NA, 100), 0);
    /* The same worker name may not take the second copy. */
    assert_int_equal(sched_next(s, A, NA, 100), -1);
    assert_int_equal(sched_next(s, B, NB, 100), 0);
    assert_int_equal(sched_result(s, 0, A, NA, 9, NULL), SCHED_PENDING);
    assert_int_equal(sched_result(s, 0, B, NB, 8, NULL), SCHED_DISAGREE);
    assert_false(sched_done(s, 0));
    assert_int_equal(sched_next(s, A, NA, 100), -1);
    assert_int_equal(sched_next(s, C, NC, 100), 0);
    assert_int_equal(sched_result(s, 0, C, NC, 9, NULL), SCHED_ACCEPTED);
    assert_true(sched_answers(s)[0] == 9);
    sched_vote_t v[3];
    assert_int_equal(sched_votes(s, 0, v), 3);
    sched_destroy(&s);

    s = sched_new(1, true, false);
    sched_next(s, A, NA, 100);
    sched_next(s, B, NB, 100);
    sched_result(s, 0, A, NA, 1, NULL);
    sched_result(s, 0, B, NB, 2, NULL);
    sched_next(s, C, NC, 100);
    assert_int_equal(sched_result(s, 0, C, NC, 3, NULL), SCHED_NO_MAJORITY);
    sched_destroy(&s);
}

static void test_stats_compared(void **state)
{
    (void)state;
    perft_stats_t st = {.nodes = 4, .captures = 1}, other = {.nodes = 4, .captures = 2};
    sched_t *s = sched_new(1, false, true);
    sched_next(s, A, NA, 100);
    assert_int_equal(sched_result(s, 0, A, NA, 4, &st), SCHED_ACCEPTED);
    assert_true(sched_stats(s)[0].captures == 1);
    assert_int_equal(sched_result(s, 0, A, NA, 4, &other), SCHED_CONFLICT);
    sched_destroy(&s);
}

static void test_preload(void **state)
{
    (void)state;
    sched_t *s = sched_new(3, false, false);
    sched_preload(s, 1, 11, NULL);
    assert_int_equal(sched_done_nb(s), 1);
    assert_int_equal(sched_next(s, A, NA, 1), 0);
    assert_int_equal(sched_next(s, A, NA, 1), 2);
    assert_int_equal(sched_next(s, A, NA, 1), -1);
    sched_destroy(&s);
}

/* Fresh tasks go out in runs per worker (table locality); a second worker steals half. */
static void test_affinity_ranges(void **state)
{
    (void)state;
    sched_t *s = sched_new(100, false, false);
    assert_int_equal(sched_next(s, A, NA, 1), 0);
    assert_int_equal(sched_next(s, B, NB, 1), 50);
    assert_int_equal(sched_next(s, A, NA, 1), 1);
    assert_int_equal(sched_next(s, B, NB, 1), 51);
    assert_int_equal(sched_queued_nb(s), 96);
    /* A dies: its leases come first, then C takes A's orphaned range whole. */
    assert_int_equal(sched_drop_serial(s, A), 2);
    long first = sched_next(s, C, NC, 1), second = sched_next(s, C, NC, 1);
    assert_true((first == 0 && second == 1) || (first == 1 && second == 0));
    assert_int_equal(sched_next(s, C, NC, 1), 2);
    size_t n = 0;
    while (sched_next(s, B, NB, 1) >= 0)
        n++;
    assert_int_equal(n, 95);
    assert_int_equal(sched_queued_nb(s), 0);
    sched_destroy(&s);
}

/* The split's weighted sum of per-task perft counts equals perft of the root, and the key is stable. */
static void test_job_split_sums(void **state)
{
    (void)state;
    game_pos_t root;
    job_t j1, j2;
    char err[128];
    game_init();
    assert_int_equal(game_parse(VARIANT_OCTAD, game_start_text(VARIANT_OCTAD), &root, err, sizeof err), 0);
    assert_int_equal(job_new(&j1, &root, 6, false, 2, job_auto_tasks(1, false), err, sizeof err), 0);
    assert_int_equal(job_new(&j2, &root, 6, false, 2, job_auto_tasks(1, false), err, sizeof err), 0);
    assert_string_equal(j1.job_key, j2.job_key);
    assert_true(j1.job_id == j2.job_id);
    count_t *counts = calloc(j1.task_nb, sizeof *counts);
    for (size_t i = 0; i < j1.task_nb; i++) {
        char text[GAME_TEXT_MAX];
        game_pos_t p;
        job_task_text(&j1, i, text, sizeof text);
        assert_int_equal(game_parse(VARIANT_OCTAD, text, &p, err, sizeof err), 0);
        counts[i] = game_perft(&p, job_task_depth(&j1, i), NULL);
    }
    job_total_t *t = malloc(sizeof *t);
    job_total(&j1, counts, NULL, t);
    assert_true(t->nodes == game_perft(&root, 6, NULL));
    count_t sum = 0;
    for (int r = 0; r < t->root_nb; r++)
        sum += t->root_nodes[r];
    assert_true(sum == t->nodes);
    count_t ref;
    assert_true(reference_lookup(&root, 6, &ref));
    assert_true(ref == t->nodes);
    free(t);
    free(counts);
    job_free(&j1);
    job_free(&j2);
}

/* The automatic split: 32 tasks per local thread, at least 256 unless one shared table serves them all;
 * and the task count of the start position's split grows with it (84 at ply 2, 544 at ply 3). */
static void test_auto_tasks(void **state)
{
    (void)state;
    game_pos_t root;
    job_t j;
    char err[128];
    assert_int_equal(job_auto_tasks(2, true), 64);
    assert_int_equal(job_auto_tasks(0, true), 32);
    assert_int_equal(job_auto_tasks(2, false), 256);
    assert_int_equal(job_auto_tasks(16, false), 512);
    assert_int_equal(job_auto_tasks(16, true), 512);
    assert_int_equal(game_parse(VARIANT_OCTAD, game_start_text(VARIANT_OCTAD), &root, err, sizeof err), 0);
    assert_int_equal(job_new(&j, &root, 11, false, -1, job_auto_tasks(2, true), err, sizeof err), 0);
    assert_int_equal(j.task_nb, 84);
    job_free(&j);
    assert_int_equal(job_new(&j, &root, 11, false, -1, job_auto_tasks(2, false), err, sizeof err), 0);
    assert_int_equal(j.task_nb, 544);
    job_free(&j);
}

enum { D = 4, E = 5 };             /* more session serials */
enum { ND = 40, NE = 50 };         /* and their names */

/* Stragglers (lease.h, rule 3): with the queue empty, idle workers get copies of the running tasks,
 * oldest first, one spare copy each; the first answer counts, the other is a duplicate. */
static void test_copies_for_stragglers(void **state)
{
    (void)state;
    sched_t *s = sched_new(2, false, false);
    sched_set_copies(s, true); /* the kinds turn rule 3 on; a bare scheduler has it off */
    assert_int_equal(sched_next(s, A, NA, 100), 0);
    assert_false(sched_copy_wanted(s));                    /* task 1 still queued: no copies yet */
    assert_int_equal(sched_copy(s, C, NC, 100), -1);
    assert_int_equal(sched_next(s, B, NB, 100), 1);
    assert_true(sched_copy_wanted(s));
    assert_int_equal(sched_copy(s, C, NC, 100), 0);        /* the oldest running task first */
    assert_int_equal(sched_copy(s, D, ND, 100), 1);        /* task 0 has its spare copy */
    assert_int_equal(sched_copy(s, E, NE, 100), -1);       /* both have one */
    assert_false(sched_copy_wanted(s));
    assert_int_equal(sched_copies_nb(s), 2);
    assert_int_equal(sched_copy(s, A, NA, 100), -1);       /* never a task to its own holder */
    /* The straggler A's lease expires: C's copy still covers task 0, nothing goes back to the queue. */
    sched_renew(s, B, 1000);
    sched_renew(s, C, 1000);
    sched_renew(s, D, 1000);
    assert_int_equal(sched_expire(s, 500), 1);
    assert_int_equal(sched_queued_nb(s), 0);
    assert_int_equal(sched_result(s, 0, C, NC, 9, NULL), SCHED_ACCEPTED);
    assert_int_equal(sched_result(s, 0, A, NA, 9, NULL), SCHED_DUPLICATE); /* the late straggler: dropped */
    assert_int_equal(sched_result(s, 1, B, NB, 4, NULL), SCHED_ACCEPTED);
    assert_int_equal(sched_result(s, 1, D, ND, 4, NULL), SCHED_DUPLICATE);
    assert_int_equal(sched_done_nb(s), 2);
    assert_int_equal(sched_inflight_nb(s), 0);
    sched_destroy(&s);
}

/* A bare scheduler copies nothing: the kinds turn rule 3 on. */
static void test_copies_off_by_default(void **state)
{
    (void)state;
    sched_t *s = sched_new(1, false, false);
    assert_int_equal(sched_next(s, A, NA, 100), 0);
    assert_false(sched_copy_wanted(s));
    assert_int_equal(sched_copy(s, B, NB, 100), -1);
    sched_destroy(&s);
}

/* A copy whose holder dies leaves the first lease in charge; the copy's holder dying first too. */
static void test_copy_holder_dies(void **state)
{
    (void)state;
    sched_t *s = sched_new(1, false, false);
    sched_set_copies(s, true); /* the kinds turn rule 3 on; a bare scheduler has it off */
    assert_int_equal(sched_next(s, A, NA, 100), 0);
    assert_int_equal(sched_copy(s, B, NB, 100), 0);
    assert_int_equal(sched_drop_serial(s, B), 1);
    assert_int_equal(sched_queued_nb(s), 0);               /* A still runs it */
    assert_int_equal(sched_copy(s, C, NC, 100), 0);        /* so it may be copied again */
    assert_int_equal(sched_drop_serial(s, A), 1);
    assert_int_equal(sched_drop_serial(s, C), 1);
    assert_int_equal(sched_queued_nb(s), 1);               /* nobody runs it: back in the queue */
    assert_int_equal(sched_next(s, D, ND, 100), 0);
    sched_destroy(&s);
}

/* Under --verify a copy is a third lease; two agreeing answers settle the task. */
static void test_copy_verify(void **state)
{
    (void)state;
    sched_t *s = sched_new(1, true, false);
    sched_set_copies(s, true); /* the kinds turn rule 3 on; a bare scheduler has it off */
    assert_int_equal(sched_next(s, A, NA, 100), 0);
    assert_int_equal(sched_next(s, B, NB, 100), 0);
    assert_int_equal(sched_copy(s, C, NC, 100), 0);
    assert_int_equal(sched_copy(s, D, ND, 100), -1);       /* one spare copy only */
    assert_int_equal(sched_result(s, 0, A, NA, 6, NULL), SCHED_PENDING);
    assert_int_equal(sched_result(s, 0, C, NC, 6, NULL), SCHED_ACCEPTED);
    assert_int_equal(sched_result(s, 0, B, NB, 6, NULL), SCHED_DUPLICATE);
    sched_destroy(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lease_result_done),
        cmocka_unit_test(test_expiry_and_late_result),
        cmocka_unit_test(test_drop_handback_refuse),
        cmocka_unit_test(test_verify_agree_and_disagree),
        cmocka_unit_test(test_stats_compared),
        cmocka_unit_test(test_preload),
        cmocka_unit_test(test_affinity_ranges),
        cmocka_unit_test(test_copies_for_stragglers),
        cmocka_unit_test(test_copies_off_by_default),
        cmocka_unit_test(test_copy_holder_dies),
        cmocka_unit_test(test_copy_verify),
        cmocka_unit_test(test_job_split_sums),
        cmocka_unit_test(test_auto_tasks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
