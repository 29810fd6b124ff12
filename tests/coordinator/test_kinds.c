/* test_kinds.c: the one task life cycle (coordinator/tasks.h over sched.h) through a kind's
 * row (kind.h), against a fake server: no sockets, no event loop. The row's operations are
 * called directly with crafted worker messages; the server's services (server_priv.h) are
 * the fakes below, which record what was sent and logged and let the test set the clock.
 * Answers are computed here: game_perft on the position each TASK names; solve_pair into
 * the job's directory for each SOLVE (a worker sharing it), compared at the end with
 * solve_all's tables made by the test.
 *
 * The rules checked, once for every kind: an expired lease puts its task back in the queue
 * for another worker; the expired holder's late answer still counts while the task is not
 * done; a refused task is not offered to that worker again; a handed-back task is offered
 * again; a job that no connected worker can advance ends after --stall-timeout. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "game.h"
#include "kind.h"
#include "opts.h"
#include "server_priv.h"
#include "sig.h"
#include "solve.h"
#include "ssolve.h"
#include "xfer.h"

/* ---- the fake server: the services of server_priv.h ---- */

enum { SENT_MAX = 256 };

typedef struct {
    uint32_t to;         /* the serial of the session it went to (its identity's first bytes) */
    msg_type_t type;
    uint64_t task_id;
    char position[GAME_TEXT_MAX];  /* TASK; SOLVE and VERIFY: the pair */
    int depth;
} s_sent_t;

static int64_t s_now = 1000;
static s_sent_t s_sent[SENT_MAX];
static int s_sent_nb;
static char s_log[1 << 16];

int64_t server_now_ms(void)
{
    return s_now;
}

static void s_logv(const char *fmt, va_list ap)
{
    size_t len = strlen(s_log);
    vsnprintf(s_log + len, sizeof s_log - len, fmt, ap);
    len = strlen(s_log);
    snprintf(s_log + len, sizeof s_log - len, "\n");
}

void server_log(const server_t *self, const char *fmt, ...)
{
    va_list ap;
    (void)self;
    va_start(ap, fmt);
    s_logv(fmt, ap);
    va_end(ap);
}

void server_error(const server_t *self, const char *fmt, ...)
{
    va_list ap;
    (void)self;
    va_start(ap, fmt);
    s_logv(fmt, ap);
    va_end(ap);
}

void server_fail(server_t *self, const char *fmt, ...)
{
    va_list ap;
    self->failed = true;
    va_start(ap, fmt);
    s_logv(fmt, ap);
    va_end(ap);
}

void server_drop(server_t *self, drop_kind_t kind, const char *why)
{
    (void)why;
    self->drops[kind]++;
}

int server_send(server_t *self, const wire_peer_t *to, const msg_t *msg)
{
    (void)self;
    if (s_sent_nb == SENT_MAX)
        return -1;
    s_sent_t *s = &s_sent[s_sent_nb++];
    memset(s, 0, sizeof *s);
    memcpy(&s->to, to->id, sizeof s->to);
    s->type = msg->type;
    if (msg->type == MSG_TASK) {
        s->task_id = msg->u.task.task_id;
        snprintf(s->position, sizeof s->position, "%s", msg->u.task.position);
        s->depth = msg->u.task.depth;
    } else if (msg->type == MSG_SOLVE || msg->type == MSG_VERIFY) {
        bool solve = msg->type == MSG_SOLVE;
        s->task_id = solve ? msg->u.solve.task_id : msg->u.verify.task_id;
        snprintf(s->position, sizeof s->position, "%s", solve ? msg->u.solve.pair : msg->u.verify.pair);
    }
    return 0;
}

void server_reply_error(server_t *self, const wire_peer_t *to, msg_code_t code, const char *text)
{
    (void)self, (void)to, (void)code, (void)text;
}

void server_forget(server_t *self, peer_t *peer, const char *why)
{
    (void)why;
    self->sum.requeued += self->kind->forget(self, self->job, peer);
    peers_remove(self->peers, peer);
}

void server_count_dispatch(server_t *self, peer_t *p, int64_t now)
{
    (void)now;
    peers_pin(self->peers, p->name_id);
    p->credit--, p->leased++;
    self->sum.dispatched++;
}

/* ---- the job under test ---- */

typedef struct {
    opts_t o;
    server_t s;
} s_run_t;

/* A server running the kind the command line picks (no sockets). */
static s_run_t *s_start(int argc, char **argv)
{
    s_run_t *r = calloc(1, sizeof *r);
    assert_non_null(r);
    assert_int_equal(opts_parse(argc - 1, argv + 1, &r->o), 0); /* without the program name */
    r->s.opts = &r->o;
    r->s.kind = kind_pick(&r->o);
    assert_int_equal(r->s.kind->open(&r->o, &r->s.job), 0);
    r->s.peers = peers_new();
    r->s.start_ms = s_now;
    s_sent_nb = 0;
    s_log[0] = '\0';
    return r;
}

static void s_stop(s_run_t *r)
{
    r->s.kind->close(&r->s.job);
    peers_destroy(&r->s.peers);
    free(r);
}

/* A worker session: its identity is its serial, its name its principal. */
static peer_t *s_join(s_run_t *r, const char *name, uint32_t credit)
{
    wire_peer_t id = {.len = sizeof(uint32_t)};
    wire_meta_t meta = {.fd = -1};
    static uint32_t next = 1;
    uint32_t k = next++;
    memcpy(id.id, &k, sizeof k);
    peer_t *p = peers_add(r->s.peers, &id, &meta, name, credit, s_now);
    assert_non_null(p);
    memcpy(p->id.id, &p->serial, sizeof p->serial); /* s_sent_t.to names the session */
    p->version = 3;
    p->credit = credit;
    p->credited = true;
    return p;
}

/* The last task sent to p, or NULL. */
static const s_sent_t *s_last_task(const peer_t *p)
{
    for (int k = s_sent_nb - 1; k >= 0; k--)
        if (s_sent[k].to == p->serial &&
            (s_sent[k].type == MSG_TASK || s_sent[k].type == MSG_SOLVE || s_sent[k].type == MSG_VERIFY))
            return &s_sent[k];
    return NULL;
}

/* Offers p one task; the task sent, or NULL if none was. */
static const s_sent_t *s_offer(s_run_t *r, peer_t *p)
{
    int before = s_sent_nb;
    p->credit = 1;
    r->s.kind->dispatch(&r->s, r->s.job, p);
    return s_sent_nb > before ? s_last_task(p) : NULL;
}

/* p answers task t with its true count, computed here. */
static void s_answer(s_run_t *r, peer_t *p, const s_sent_t *t)
{
    game_pos_t pos;
    char err[200];
    assert_int_equal(game_parse(VARIANT_OCTAD, t->position, &pos, err, sizeof err), 0);
    msg_t m;
    msg_init(&m, MSG_RESULT);
    m.u.result.job_id = r->s.kind->job_id(r->s.job);
    m.u.result.task_id = t->task_id;
    m.u.result.nodes = game_perft(&pos, t->depth, NULL);
    assert_true(r->s.kind->message(&r->s, r->s.job, p, &m));
}

static void s_refuse(s_run_t *r, peer_t *p, uint64_t task_id)
{
    msg_t m;
    msg_init(&m, MSG_REFUSE);
    m.u.refuse.job_id = r->s.kind->job_id(r->s.job);
    m.u.refuse.task_id = task_id;
    m.u.refuse.code = MSG_CODE_MEMORY;
    snprintf(m.u.refuse.reason, sizeof m.u.refuse.reason, "too big for me");
    assert_true(r->s.kind->message(&r->s, r->s.job, p, &m));
}

static void s_handback(s_run_t *r, peer_t *p, uint64_t task_id)
{
    msg_t m;
    msg_init(&m, MSG_HANDBACK);
    m.u.handback.n_task_ids = 1;
    m.u.handback.task_ids = &task_id;
    assert_true(r->s.kind->message(&r->s, r->s.job, p, &m));
}

static char *s_argv[] = {"coordinator", "--perft", "3", "--split-depth", "1", "--local-workers", "0", "--bind",
                         "tcp://127.0.0.1:*", "--quiet", "--heartbeat-ms", "200", "--lease-ms", "1000",
                         "--stall-timeout", "5000", NULL};
enum { ARGC = sizeof s_argv / sizeof s_argv[0] - 1 };

/* An expired lease puts its task back for another worker; the silent holder's late answer
 * still counts while the task is not done; the new holder's answer is then a duplicate. */
static void test_expiry_and_late_answer(void **state)
{
    (void)state;
    s_run_t *r = s_start(ARGC, s_argv);
    peer_t *a = s_join(r, "A", 1), *b = s_join(r, "B", 1);
    const s_sent_t *ta = s_offer(r, a);
    assert_non_null(ta);
    s_sent_t first = *ta;
    s_now += 500;
    r->s.kind->expire(&r->s, r->s.job, s_now);
    assert_int_equal(r->s.sum.requeued, 0); /* not yet */
    s_now += 600;
    r->s.kind->expire(&r->s, r->s.job, s_now);
    assert_int_equal(r->s.sum.requeued, 1);
    const s_sent_t *tb = s_offer(r, b);
    assert_non_null(tb);
    assert_int_equal(tb->task_id, first.task_id); /* requeued first: the late one goes before fresh ones */
    s_sent_t again = *tb;
    s_answer(r, a, &first); /* late: taken */
    assert_int_equal(r->s.sum.results, 1);
    assert_int_equal(r->s.drops[DROP_NOT_LEASED], 0);
    s_answer(r, b, &again); /* the task is done: a duplicate, not counted twice */
    assert_int_equal(r->s.sum.results, 1);
    assert_int_equal(r->s.sum.duplicates, 1);
    s_answer(r, a, &first); /* and a late answer is taken once only */
    assert_int_equal(r->s.sum.results, 1);
    s_stop(r);
}

/* A refused task is not offered to that worker again, but to another; a handed-back task is
 * offered again at once. */
static void test_refuse_and_handback(void **state)
{
    (void)state;
    s_run_t *r = s_start(ARGC, s_argv);
    peer_t *a = s_join(r, "A", 1), *b = s_join(r, "B", 1);
    const s_sent_t *t = s_offer(r, a);
    assert_non_null(t);
    uint64_t refused = t->task_id;
    s_refuse(r, a, refused);
    assert_int_equal(r->s.sum.requeued, 1);
    for (int k = 0; k < 40 && (t = s_offer(r, a)) != NULL; k++) {
        assert_int_not_equal(t->task_id, refused);
        s_sent_t mine = *t;
        s_answer(r, a, &mine);
    }
    assert_false(r->s.kind->finished(r->s.job)); /* A took every other task, never the refused one */
    t = s_offer(r, b);
    assert_non_null(t);
    assert_int_equal(t->task_id, refused);
    s_handback(r, b, refused);
    assert_int_equal(r->s.sum.requeued, 2);
    t = s_offer(r, b);
    assert_non_null(t);
    assert_int_equal(t->task_id, refused);
    s_sent_t last = *t;
    s_answer(r, b, &last);
    assert_true(r->s.kind->finished(r->s.job));
    s_stop(r);
}

/* A job whose tasks left no connected worker takes says so, and ends after --stall-timeout. */
static void test_stall_detection(void **state)
{
    (void)state;
    s_run_t *r = s_start(ARGC, s_argv);
    peer_t *a = s_join(r, "A", 1);
    const s_sent_t *t;
    while ((t = s_offer(r, a)) != NULL)
        s_refuse(r, a, t->task_id);
    for (int k = 0; k <= 6000 / 20 && !r->s.failed; k++) {
        s_now += 20;
        r->s.kind->timers(&r->s, r->s.job, s_now);
        if (k * 20 < 4900)
            assert_false(r->s.failed);
    }
    assert_true(r->s.failed);
    assert_non_null(strstr(s_log, "that no connected worker takes"));
    assert_non_null(strstr(s_log, "no worker accepts task"));
    assert_non_null(strstr(s_log, "last refusal: worker A: too big for me"));
    s_stop(r);
}

/* ---- the solve kind ---- */

static int s_pair_of(const ssolve_t *sv, const char *name)
{
    for (int k = 0; k < sv->g.n; k++)
        if (strcmp(sv->g.pairs[k].name, name) == 0)
            return k;
    fail_msg("no pair %s", name);
    return -1;
}

/* p makes the pair of SOLVE t in the job's directory (as a worker sharing it) and says SOLVED. */
static void s_make(s_run_t *r, peer_t *p, const s_sent_t *t)
{
    ssolve_t *sv = r->s.job;
    const sdag_pair_t *pr = &sv->g.pairs[s_pair_of(sv, t->position)];
    char err[600];
    for (int c = 0; c < pr->nchildren; c++) { /* every table it needs is there: its pairs are done */
        char name[SIG_NAME_MAX];
        sig_table_name(pr->children[c], name, sizeof name);
        int d = sdag_find_table(&sv->g, pr->children[c]);
        assert_true(d < 0 || sv->g.pairs[d].state == SDAG_DONE);
    }
    store_t *store = store_new(sv->dir);
    solve_opts_t so = {.dir = sv->dir, .max_pieces = 8, .threads = 1};
    gen_stats_t st = {0};
    assert_int_equal(solve_pair(store, pr->pair, &so, &st, err, sizeof err), 0);
    store_destroy(&store);
    msg_t m;
    msg_init(&m, MSG_SOLVED);
    m.u.solved.job_id = r->s.kind->job_id(r->s.job);
    m.u.solved.task_id = t->task_id;
    m.u.solved.n_tables = (uint32_t)pr->ntables;
    for (int c = 0; c < pr->ntables; c++) {
        char name[SIG_NAME_MAX];
        sig_table_name(pr->tables[c], name, sizeof name);
        assert_int_equal(xfer_file_ref(sv->dir, name, &m.u.solved.tables[c], err, sizeof err), 0);
    }
    m.u.solved.positions = st.positions;
    m.u.solved.in_shared = true;
    assert_true(r->s.kind->message(&r->s, r->s.job, p, &m));
}

static void s_verified(s_run_t *r, peer_t *p, const s_sent_t *t)
{
    msg_t m;
    msg_init(&m, MSG_VERIFIED);
    m.u.verified.job_id = r->s.kind->job_id(r->s.job);
    m.u.verified.task_id = t->task_id;
    m.u.verified.ok = true;
    m.u.verified.records = 1;
    assert_true(r->s.kind->message(&r->s, r->s.job, p, &m));
}

/* --verify with two workers: a session holds one task at a time; a pair is solved only when
 * the pairs it needs are done; a refused pair never goes back to its refuser; each pair is
 * checked by the worker that did not make it; the tables equal solve_all's. */
static void test_solve_kind(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_kinds_XXXXXX", ref[600], got[600], cmd[1400];
    assert_non_null(mkdtemp(dir));
    snprintf(got, sizeof got, "%s/cluster", dir);
    snprintf(ref, sizeof ref, "%s/ref", dir);
    char *argv[] = {"coordinator", "--solve", "--max-pieces", "4", "--tables", got, "--verify", "--local-workers", "0",
                    "--bind", "tcp://127.0.0.1:*", "--quiet", "--heartbeat-ms", "200", "--lease-ms", "1000", NULL};
    s_run_t *r = s_start(sizeof argv / sizeof argv[0] - 1, argv);
    ssolve_t *sv = r->s.job;
    peer_t *w[2] = {s_join(r, "A", 1), s_join(r, "B", 1)};
    int *maker = calloc((size_t)sv->g.n, sizeof *maker), refused = -1, checks = 0;
    assert_non_null(maker);
    for (int round = 0; round < 1000 && !r->s.kind->finished(r->s.job); round++) {
        peer_t *p = w[round / 3 % 2]; /* offers in threes: a maker is offered work right after */
        const s_sent_t *t = s_offer(r, p);
        if (t == NULL)
            continue;
        s_sent_t task = *t;
        assert_null(s_offer(r, p)); /* exclusive: nothing more while it holds one */
        int k = s_pair_of(sv, task.position);
        if (task.type == MSG_SOLVE && refused < 0 && p == w[0]) { /* A refuses its first pair */
            refused = k;
            s_refuse(r, p, task.task_id);
            continue;
        }
        if (task.type == MSG_SOLVE) {
            assert_false(k == refused && p == w[0]);
            maker[k] = (int)p->name_id;
            s_make(r, p, &task);
        } else {
            assert_int_equal(task.type, MSG_VERIFY);
            assert_int_not_equal(maker[k], (int)p->name_id); /* never its maker */
            checks++;
            s_verified(r, p, &task);
        }
        assert_false(r->s.failed);
    }
    assert_true(r->s.kind->finished(r->s.job));
    assert_int_equal(checks, sv->g.n);
    solve_opts_t so = {.dir = ref, .max_pieces = 4, .threads = 1};
    gen_stats_t st = {0};
    char err[600];
    assert_int_equal(mkdir(ref, 0755), 0);
    if (solve_all(&so, &st, err, sizeof err) != 0)
        fail_msg("octad's solve_all: %s", err);
    assert_int_equal(solve_write_summary(ref, err, sizeof err), 0);
    assert_int_equal(solve_write_summary(got, err, sizeof err), 0);
    snprintf(cmd, sizeof cmd, "cmp -s %s/SUMMARY %s/SUMMARY", ref, got);
    assert_int_equal(system(cmd), 0);
    free(maker);
    s_stop(r);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_expiry_and_late_answer),
        cmocka_unit_test(test_refuse_and_handback),
        cmocka_unit_test(test_stall_detection),
        cmocka_unit_test(test_solve_kind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
