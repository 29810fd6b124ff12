/* test_lease_rules.c: the task life cycle's rules (coordinator/lease.h) hold for every job kind:
 * the same scenarios, table-driven over the kinds, against the one scheduler (sched.h) as each
 * kind drives it (perft and analyse: tasks queued at the start, taken in order; solve: tasks
 * made ready, taken by rank, answers taken before their files arrive), without sockets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lease.h"
#include "sched.h"

/* One kind's scheduler, driven on one task. A session's serial is its principal's number too. */
typedef struct {
    const char *kind;
    void *(*make)(void);
    void (*destroy)(void *job);
    /* Leases the task to session `who` until `until`: its task id, or -1 if it is not offered. */
    long (*lease)(void *job, uint32_t who, int64_t until);
    void (*expire)(void *job, int64_t now);
    void (*handback)(void *job, uint32_t who, long id);
    void (*session_ends)(void *job, uint32_t who);
    void (*refuse)(void *job, uint32_t who, long id);
    /* An answer under task id from session who at `now`: whether it is taken. */
    bool (*answer)(void *job, uint32_t who, long id, int64_t now);
} s_kind_t;

/* perft and analyse: task 0 of sched.h; the answer a count (perft) or an answer number (analyse). */
static void *s_sched_make(void) { return sched_new(1, false, false); }
static void s_sched_destroy(void *job) { sched_t *s = job; sched_destroy(&s); }
static long s_sched_lease(void *job, uint32_t who, int64_t until)
{
    long i = sched_next(job, who, (uint16_t)who, until);
    return i < 0 ? -1 : i + 1;
}
static void s_sched_expire(void *job, int64_t now) { sched_expire(job, now); }
static void s_sched_handback(void *job, uint32_t who, long id) { sched_handback(job, (size_t)id - 1, who); }
static void s_sched_ends(void *job, uint32_t who) { sched_drop_serial(job, who); }
static void s_sched_refuse(void *job, uint32_t who, long id)
{
    assert_true(sched_refuse(job, (size_t)id - 1, who, (uint16_t)who) > 0);
}
static bool s_sched_answer(void *job, uint32_t who, long id, int64_t now)
{
    (void)now;
    return sched_result(job, (size_t)id - 1, who, (uint16_t)who, 1234, NULL) == SCHED_ACCEPTED;
}

/* solve: one pair, a held task made ready (sched_new_held), leased by rank; an answer is a
 * SOLVED taken (sched_take: under lease, or late) whose files then arrive (sched_result). */
static long s_solve_rank(void *ctx, size_t i, uint16_t name_id)
{
    (void)ctx, (void)i, (void)name_id;
    return 0;
}
static void *s_solve_make(void)
{
    sched_t *s = sched_new_held(1);
    sched_ready(s, 0);
    return s;
}
static long s_solve_lease(void *job, uint32_t who, int64_t until)
{
    long i = sched_next_best(job, who, (uint16_t)who, until, s_solve_rank, NULL);
    return i < 0 ? -1 : i + 1;
}
static bool s_solve_answer(void *job, uint32_t who, long id, int64_t now)
{
    if (!sched_take(job, (size_t)id - 1, who, (uint16_t)who, now + 1000))
        return false;
    return sched_result(job, (size_t)id - 1, who, (uint16_t)who, 0xc0ffee, NULL) == SCHED_ACCEPTED;
}

static const s_kind_t s_kinds[] = {
    {"perft", s_sched_make, s_sched_destroy, s_sched_lease, s_sched_expire, s_sched_handback, s_sched_ends,
     s_sched_refuse, s_sched_answer},
    {"analyse", s_sched_make, s_sched_destroy, s_sched_lease, s_sched_expire, s_sched_handback, s_sched_ends,
     s_sched_refuse, s_sched_answer},
    {"solve", s_solve_make, s_sched_destroy, s_solve_lease, s_sched_expire, s_sched_handback, s_sched_ends,
     s_sched_refuse, s_solve_answer},
};
enum { KINDS = sizeof s_kinds / sizeof s_kinds[0], A = 1, B = 2, C = 3 };

/* Rule 1: the answer of a session whose lease expired is taken, once, although the task was
 * leased again; the new holder's answer is then not taken a second time. */
static void test_late_answer_taken(void **state)
{
    (void)state;
    for (size_t k = 0; k < KINDS; k++) {
        const s_kind_t *K = &s_kinds[k];
        void *job = K->make();
        long a = K->lease(job, A, 100);
        assert_true(a > 0);
        K->expire(job, 50);
        assert_int_equal(K->lease(job, B, 1000), -1); /* still A's */
        K->expire(job, 150);
        long b = K->lease(job, B, 1000);
        assert_true(b > 0);
        print_message("%s: late answer of an expired lease\n", K->kind);
        assert_true(K->answer(job, A, a, 200));
        assert_false(K->answer(job, A, a, 210)); /* once */
        assert_false(K->answer(job, B, b, 220));
        K->destroy(job);
    }
}

/* Rule 1: only an expired lease's answer is late: not that of a session that ended (died, BYE),
 * handed the task back, or never held it. */
static void test_no_other_late_answer(void **state)
{
    (void)state;
    for (size_t k = 0; k < KINDS; k++) {
        const s_kind_t *K = &s_kinds[k];
        void *job = K->make();
        print_message("%s: answers without a live or expired lease\n", K->kind);
        long a = K->lease(job, A, 100);
        K->session_ends(job, A);
        assert_false(K->answer(job, A, a, 120));
        long b = K->lease(job, B, 1000);
        assert_true(b > 0);
        K->handback(job, B, b);
        assert_false(K->answer(job, B, b, 130));
        assert_false(K->answer(job, C, b, 140));
        long c = K->lease(job, C, 1000);
        assert_true(c > 0);
        assert_true(K->answer(job, C, c, 150));
        K->destroy(job);
    }
}

/* Rule 2: a principal that refused the task is not offered it again; the task remembers
 * LEASE_REFUSERS_MAX of them, and one more refusal forgets the oldest. */
static void test_refusals_remembered(void **state)
{
    (void)state;
    for (size_t k = 0; k < KINDS; k++) {
        const s_kind_t *K = &s_kinds[k];
        void *job = K->make();
        print_message("%s: refusals\n", K->kind);
        for (uint32_t who = 1; who <= LEASE_REFUSERS_MAX; who++) {
            long id = K->lease(job, who, 1000);
            assert_true(id > 0);
            K->refuse(job, who, id);
        }
        for (uint32_t who = 1; who <= LEASE_REFUSERS_MAX; who++)
            assert_int_equal(K->lease(job, who, 1000), -1);
        uint32_t last = LEASE_REFUSERS_MAX + 1;
        long id = K->lease(job, last, 1000);
        assert_true(id > 0);
        K->refuse(job, last, id);
        for (uint32_t who = 2; who <= last; who++)
            assert_int_equal(K->lease(job, who, 1000), -1);
        id = K->lease(job, 1, 1000); /* the oldest refusal was forgotten */
        assert_true(id > 0);
        assert_true(K->answer(job, 1, id, 100));
        K->destroy(job);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_late_answer_taken),
        cmocka_unit_test(test_no_other_late_answer),
        cmocka_unit_test(test_refusals_remembered),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
