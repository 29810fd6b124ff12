/* test_worker_pool.c: the worker's compute pool (worker/compute.c) keeps its exclusive rule
 * (compute.h): an exclusive task starts only once the running tasks have finished, no other task
 * runs while it does, and no other task is taken while one is queued or running; it gets every
 * thread of the pool. Two fake kinds, whose runs wait at a gate the test opens. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "compute.h"

static pthread_mutex_t s_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t s_cond = PTHREAD_COND_INITIALIZER;
static bool s_gate_open;
static int s_running;       /* tasks inside run now */
static int s_started;       /* tasks that entered run */
static int s_order[16];     /* task ids in the order they started */
static int s_overlaps;      /* an exclusive task saw another task running (at its start or end) */
static int s_threads_seen;  /* env->threads of the exclusive task */

static void s_reset(void)
{
    s_gate_open = false;
    s_running = s_started = s_overlaps = s_threads_seen = 0;
}

static void s_sleep_ms(int ms)
{
    struct timespec d = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&d, NULL);
}

static void *s_run(const compute_job_t *job, const wkind_env_t *env)
{
    bool exclusive = job->kind->exclusive;
    pthread_mutex_lock(&s_lock);
    s_running++;
    s_order[s_started++] = (int)job->task_id;
    if (exclusive) {
        s_overlaps += s_running != 1;
        s_threads_seen = env->threads;
    }
    while (!s_gate_open)
        pthread_cond_wait(&s_cond, &s_lock);
    pthread_mutex_unlock(&s_lock);
    s_sleep_ms(30); /* time for a wrongly started task to show */
    pthread_mutex_lock(&s_lock);
    if (exclusive)
        s_overlaps += s_running != 1;
    s_running--;
    pthread_mutex_unlock(&s_lock);
    return malloc(1);
}

static const wkind_t s_plain = {.name = "plain", .tasks = {MSG_TASK}, .version = 1, .run = s_run};
static const wkind_t s_whole = {.name = "whole", .tasks = {MSG_SOLVE}, .version = 2, .exclusive = true,
                                .run = s_run};

/* A pool of the two fake kinds, the counters reset. */
static compute_t *s_pool(int threads, int fds[2])
{
    char err[200];
    s_reset();
    assert_int_equal(pipe(fds), 0);
    compute_t *pool = compute_new((const wkind_t *const[]){&s_plain, &s_whole}, 2, threads, 0, fds[1], 0, err,
                                  sizeof err);
    assert_non_null(pool);
    return pool;
}

static void s_end(compute_t **pool, int fds[2])
{
    compute_destroy(pool);
    close(fds[0]);
    close(fds[1]);
}

static int s_submit(compute_t *pool, const wkind_t *kind, uint64_t id)
{
    compute_job_t job = {.kind = kind, .task_id = id, .gen = 1, .arg = malloc(1)};
    int rc = compute_submit(pool, &job);
    if (rc != 0)
        free(job.arg);
    return rc;
}

/* Waits (up to 5 s) until n tasks have entered run. */
static void s_wait_started(int n)
{
    for (int i = 0; i < 500; i++) {
        pthread_mutex_lock(&s_lock);
        int started = s_started;
        pthread_mutex_unlock(&s_lock);
        if (started >= n)
            return;
        s_sleep_ms(10);
    }
    fail_msg("%d tasks should have started", n);
}

static int s_started_now(void)
{
    pthread_mutex_lock(&s_lock);
    int n = s_started;
    pthread_mutex_unlock(&s_lock);
    return n;
}

static void s_open_gate(void)
{
    pthread_mutex_lock(&s_lock);
    s_gate_open = true;
    pthread_cond_broadcast(&s_cond);
    pthread_mutex_unlock(&s_lock);
}

/* Takes n finished tasks (up to 10 s). */
static void s_take(compute_t *pool, int n)
{
    compute_done_t d;
    for (int i = 0; i < 1000 && n > 0; i++) {
        while (n > 0 && compute_take(pool, &d)) {
            free(d.result);
            n--;
        }
        if (n > 0)
            s_sleep_ms(10);
    }
    assert_int_equal(n, 0);
}

/* Two tasks running on a pool of three, a third queued: the exclusive task queued after them
 * waits until all three have finished, runs alone with every thread, and nothing is taken meanwhile. */
static void test_exclusive_waits_and_runs_alone(void **state)
{
    (void)state;
    int fds[2];
    compute_t *pool = s_pool(3, fds);
    assert_int_equal(s_submit(pool, &s_plain, 1), 0);
    assert_int_equal(s_submit(pool, &s_plain, 2), 0);
    s_wait_started(2);
    assert_int_equal(s_submit(pool, &s_whole, 10), 0);
    assert_true(compute_exclusive(pool));
    assert_int_equal(s_submit(pool, &s_plain, 3), -2); /* queued: no other task is taken */
    assert_int_equal(s_submit(pool, &s_whole, 11), -2);
    s_sleep_ms(100);
    assert_int_equal(s_started_now(), 2); /* a thread is free, yet the exclusive task waits */
    s_open_gate();
    s_take(pool, 3);
    assert_int_equal(s_order[2], 10);
    assert_int_equal(s_overlaps, 0);
    assert_int_equal(s_threads_seen, 3);
    assert_false(compute_exclusive(pool));
    assert_int_equal(compute_busy(pool), 0);
    s_end(&pool, fds);
}

/* An exclusive task running: nothing else is taken until it has finished; then the pool takes tasks again. */
static void test_nothing_beside_a_running_exclusive(void **state)
{
    (void)state;
    int fds[2];
    compute_t *pool = s_pool(2, fds);
    assert_int_equal(s_submit(pool, &s_whole, 10), 0);
    s_wait_started(1);
    assert_int_equal(s_submit(pool, &s_plain, 1), -2);
    s_sleep_ms(50);
    assert_int_equal(s_started_now(), 1);
    s_open_gate();
    s_take(pool, 1);
    assert_false(compute_exclusive(pool));
    assert_int_equal(s_submit(pool, &s_plain, 1), 0);
    assert_int_equal(s_submit(pool, &s_plain, 2), 0);
    s_take(pool, 2);
    assert_int_equal(s_overlaps, 0);
    assert_int_equal(s_threads_seen, 2);
    s_end(&pool, fds);
}

/* A queued exclusive task dropped with the session no longer holds the pool. */
static void test_dropped_exclusive_frees_the_pool(void **state)
{
    (void)state;
    int fds[2];
    compute_t *pool = s_pool(1, fds);
    assert_int_equal(s_submit(pool, &s_plain, 1), 0);
    s_wait_started(1);
    assert_int_equal(s_submit(pool, &s_whole, 10), 0);
    assert_int_equal(compute_drop_queued(pool), 1);
    assert_false(compute_exclusive(pool));
    assert_int_equal(s_submit(pool, &s_plain, 2), 0);
    s_open_gate();
    s_take(pool, 2);
    assert_int_equal(s_order[1], 2);
    s_end(&pool, fds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exclusive_waits_and_runs_alone),
        cmocka_unit_test(test_nothing_beside_a_running_exclusive),
        cmocka_unit_test(test_dropped_exclusive_frees_the_pool),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
