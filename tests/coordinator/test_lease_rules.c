/* test_lease_rules.c: the task life cycle's rules (coordinator/lease.h) hold for every job kind:
 * the same scenarios, table-driven over the kinds, against each kind's scheduler (perft and
 * analyse: sched.h's numbered tasks; solve: sdag.h's pairs), without sockets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lease.h"
#include "sched.h"
#include "sdag.h"

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

/* solve: the heaviest ready pair of the 3-piece graph; an answer is a SOLVED. */
typedef struct {
    sdag_t g;
    int i;
} s_solve_t;
static void *s_solve_make(void)
{
    s_solve_t *j = calloc(1, sizeof *j);
    assert_int_equal(sdag_build(&j->g, 3), 0);
    sdag_settle(&j->g);
    j->i = sdag_pick(&j->g, 0, false, UINT64_MAX);
    assert_true(j->i >= 0);
    return j;
}
static void s_solve_destroy(void *job) { s_solve_t *j = job; sdag_free(&j->g); free(j); }
static long s_solve_lease(void *job, uint32_t who, int64_t until)
{
    s_solve_t *j = job;
    if (sdag_pick(&j->g, (int)who, false, UINT64_MAX) != j->i)
        return -1;
    return (long)sdag_lease(&j->g, j->i, who, until);
}
static bool s_solve_leased(const sdag_pair_t *p)
{
    return p->state == SDAG_SOLVING || p->state == SDAG_PULLING || p->state == SDAG_CHECKING;
}
static void s_solve_expire(void *job, int64_t now) /* as ssolve_server.c's expiry */
{
    s_solve_t *j = job;
    if (s_solve_leased(&j->g.pairs[j->i]) && j->g.pairs[j->i].lease_until < now)
        sdag_expire(&j->g, j->i);
}
static void s_solve_handback(void *job, uint32_t who, long id)
{
    s_solve_t *j = job;
    if (sdag_by_task(&j->g, (uint64_t)id, who) == j->i)
        sdag_release(&j->g, j->i);
}
static void s_solve_ends(void *job, uint32_t who) /* as ssolve_forget */
{
    s_solve_t *j = job;
    if (j->g.pairs[j->i].serial == who && s_solve_leased(&j->g.pairs[j->i]))
        sdag_release(&j->g, j->i);
}
static void s_solve_refuse(void *job, uint32_t who, long id)
{
    s_solve_t *j = job;
    assert_int_equal(sdag_by_task(&j->g, (uint64_t)id, who), j->i);
    sdag_avoid(&j->g, j->i, (int)who);
    sdag_release(&j->g, j->i);
}
static bool s_solve_answer(void *job, uint32_t who, long id, int64_t now) /* as s_answered, then done */
{
    s_solve_t *j = job;
    int i = sdag_by_task(&j->g, (uint64_t)id, who);
    if (i < 0)
        i = sdag_take_late(&j->g, (uint64_t)id, who, SDAG_SOLVING, now + 1000);
    if (i != j->i)
        return false;
    sdag_done(&j->g, i);
    return true;
}

static const s_kind_t s_kinds[] = {
    {"perft", s_sched_make, s_sched_destroy, s_sched_lease, s_sched_expire, s_sched_handback, s_sched_ends,
     s_sched_refuse, s_sched_answer},
    {"analyse", s_sched_make, s_sched_destroy, s_sched_lease, s_sched_expire, s_sched_handback, s_sched_ends,
     s_sched_refuse, s_sched_answer},
    {"solve", s_solve_make, s_solve_destroy, s_solve_lease, s_solve_expire, s_solve_handback, s_solve_ends,
     s_solve_refuse, s_solve_answer},
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
