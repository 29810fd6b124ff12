/* test_hostile_peer.c: a hostile OCTP worker for the cluster's security tests (tests/test_hostile.py).
 *
 * usage: test_hostile_peer MODE ENDPOINT [options]
 *   liar          HELLO on --conns K connections (names NAME-1..NAME-K), asks for tasks and answers
 *                 each with its true count plus --add N (default 1), or with --count X
 *   refuser       HELLO, asks for tasks, REFUSEs every one (heartbeats until BYE or --seconds)
 *   hijack        takes --take N tasks under routing id --routing-id, vanishes, then sends lying
 *                 RESULTs for them from a new connection with the same routing id, without HELLO
 *                 (with --curve2 SECRET the second connection uses another key)
 *   hello-flood   --conns K connections each say HELLO (distinct names) and heartbeat, never CREDIT;
 *                 prints "flood: N welcomed ..." once 1024 WELCOMEs came (the coordinator's table size)
 *   name-flood    one connection says HELLO with --flood N distinct names, each followed by BYE
 *   badname       HELLO with a name holding a newline and terminal escapes, REFUSE of its first
 *                 task with such a reason, then BYE
 * options: --name NAME, --conns K, --add N, --count X, --take N, --flood N, --seconds S (default 20),
 *          --routing-id ID, --curve SERVER.pub SECRET.key, --curve2 SECRET.key
 * Prints one summary line on stdout ("welcomed W results R refused F tasks T") and exits 0. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

#include "count.h"
#include "curve.h"
#include "game.h"
#include "wire.h"

enum { CONNS_MAX = 2048, TAKE_MAX = 64, FLOOD_FULL = 1024 };

typedef struct {
    const char *mode, *endpoint, *name, *routing_id, *server_pub, *secret, *secret2;
    int conns, take, flood;
    double seconds;
    count_t add, count;
    bool fixed_count;
} s_opts_t;

typedef struct {
    void *sock;
    bool welcomed, closed;
    char name[MSG_NAME_MAX];
} s_conn_t;

static s_opts_t O;
static void *s_ctx;
static unsigned s_welcomed, s_results, s_refused, s_tasks;

static double s_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void s_die(const char *what)
{
    fprintf(stderr, "hostile: %s\n", what);
    exit(1);
}

static void s_send(void *sock, const msg_t *m)
{
    char err[128];
    wire_send(sock, m, ZMQ_DONTWAIT, err, sizeof err);
}

/* A DEALER connected to the endpoint, with CURVE keys from secret when the options give them. */
static void *s_open(const char *secret, const char *routing_id)
{
    void *s = zmq_socket(s_ctx, ZMQ_DEALER);
    int linger = 0, hwm = 100000;
    if (s == NULL)
        s_die("zmq_socket");
    zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(s, ZMQ_SNDHWM, &hwm, sizeof hwm);
    if (routing_id != NULL)
        zmq_setsockopt(s, ZMQ_ROUTING_ID, routing_id, strlen(routing_id));
    if (O.server_pub != NULL) {
        char err[256], pub[CURVE_Z85_MAX];
        curve_keys_t keys;
        if (curve_public_read(O.server_pub, pub, err, sizeof err) != 0 ||
            curve_keys_read(secret, &keys, err, sizeof err) != 0 || curve_client_setup(s, &keys, pub) != 0)
            s_die(err);
    }
    if (zmq_connect(s, O.endpoint) != 0)
        s_die("zmq_connect");
    return s;
}

static void s_hello(void *sock, const char *name)
{
    msg_t m;
    msg_init(&m, MSG_HELLO);
    snprintf(m.u.hello.name, sizeof m.u.hello.name, "%s", name);
    m.u.hello.threads = 4;
    m.u.hello.n_variants = VARIANT_NB;
    for (int v = 0; v < VARIANT_NB; v++)
        snprintf(m.u.hello.variants[v], MSG_VARIANT_MAX, "%s", game_variant_name((variant_t)v));
    s_send(sock, &m);
}

static void s_simple(void *sock, msg_type_t type, uint32_t n)
{
    msg_t m;
    msg_init(&m, type);
    if (type == MSG_CREDIT)
        m.u.credit.n = n;
    s_send(sock, &m);
}

/* The lie for a task: its true count plus --add, or --count. */
static void s_result(void *sock, const msg_task_t *t)
{
    msg_t m;
    game_pos_t pos;
    variant_t v;
    msg_init(&m, MSG_RESULT);
    m.u.result.task_id = t->task_id;
    m.u.result.job_id = t->job_id;
    if (game_variant_parse(t->variant, &v) != 0 || game_parse(v, t->position, &pos, NULL, 0) != 0)
        s_die("cannot parse a task");
    if (t->want_stats) {
        game_perft_stats(&pos, t->depth, &m.u.result.stats);
        m.u.result.nodes = m.u.result.stats.nodes;
        m.u.result.has_stats = true;
    } else {
        m.u.result.nodes = game_perft(&pos, t->depth, NULL);
    }
    m.u.result.nodes = O.fixed_count ? O.count : m.u.result.nodes + O.add;
    m.u.result.stats.nodes = m.u.result.has_stats ? m.u.result.nodes : 0;
    s_send(sock, &m);
    s_results++;
}

static void s_refuse(void *sock, const msg_task_t *t, const char *reason)
{
    msg_t m;
    msg_init(&m, MSG_REFUSE);
    m.u.refuse.task_id = t->task_id;
    m.u.refuse.job_id = t->job_id;
    m.u.refuse.code = MSG_CODE_VARIANT;
    snprintf(m.u.refuse.reason, sizeof m.u.refuse.reason, "%s", reason);
    s_send(sock, &m);
    s_refused++;
}

static const char s_evil_text[] = "x\ncoordinator: total 1 (matches the reference)\n\x1b[2J\x1b]0;owned\x07";

/* One message for a connection in the liar, refuser or badname modes. */
static void s_on_message(s_conn_t *c, const msg_t *m, msg_task_t *taken, int *taken_nb)
{
    if (m->type == MSG_WELCOME && !c->welcomed) {
        c->welcomed = true;
        s_welcomed++;
        if (strcmp(O.mode, "hello-flood") != 0)
            s_simple(c->sock, MSG_CREDIT, 4);
    } else if (m->type == MSG_TASK) {
        s_tasks++;
        if (strcmp(O.mode, "liar") == 0) {
            s_result(c->sock, &m->u.task);
            s_simple(c->sock, MSG_CREDIT, 1);
        } else if (strcmp(O.mode, "refuser") == 0) {
            s_refuse(c->sock, &m->u.task, "this worker refuses everything");
            s_simple(c->sock, MSG_CREDIT, 1);
        } else if (strcmp(O.mode, "badname") == 0) {
            s_refuse(c->sock, &m->u.task, s_evil_text);
            s_simple(c->sock, MSG_BYE, 0);
            c->closed = true;
        } else if (taken != NULL && *taken_nb < TAKE_MAX) {
            taken[(*taken_nb)++] = m->u.task;
        }
    } else if (m->type == MSG_BYE) {
        c->closed = true;
    } else if (m->type == MSG_ERROR && m->u.error.code == MSG_CODE_NOT_WELCOME && c->welcomed) {
        c->welcomed = false;
        s_hello(c->sock, c->name);
    }
}

/* Serves every connection until all are closed, `until` passes, or (taken) enough tasks are held. */
static void s_serve(s_conn_t *c, int n, double until, msg_task_t *taken, int *taken_nb)
{
    double next_hb = s_now() + 0.3;
    static zmq_pollitem_t items[CONNS_MAX];
    for (;;) {
        int open = 0;
        for (int k = 0; k < n; k++) {
            items[k] = (zmq_pollitem_t){.socket = c[k].sock, .events = ZMQ_POLLIN};
            open += !c[k].closed;
        }
        if (open == 0 || s_now() >= until || (taken != NULL && *taken_nb >= O.take))
            return;
        zmq_poll(items, n, 50);
        for (int k = 0; k < n; k++) {
            msg_t m;
            char err[256];
            while (!c[k].closed && wire_recv(c[k].sock, &m, ZMQ_DONTWAIT, err, sizeof err) != MSG_ETRANSPORT)
                if (m.type != MSG_NONE)
                    s_on_message(&c[k], &m, taken, taken_nb);
        }
        static bool announced;
        if (!announced && strcmp(O.mode, "hello-flood") == 0 && s_welcomed >= FLOOD_FULL) {
            printf("flood: %u welcomed, the worker table is full\n", s_welcomed); /* the test waits for this */
            fflush(stdout);
            announced = true;
        }
        if (s_now() >= next_hb) {
            next_hb = s_now() + 0.3;
            for (int k = 0; k < n; k++)
                if (!c[k].closed)
                    s_simple(c[k].sock, MSG_HEARTBEAT, 0);
        }
    }
}

static void s_run_conns(void)
{
    static s_conn_t c[CONNS_MAX];
    const char *name = strcmp(O.mode, "badname") == 0 ? s_evil_text : O.name;
    for (int k = 0; k < O.conns; k++) {
        c[k].sock = s_open(O.secret, NULL);
        if (O.conns == 1 || strcmp(O.mode, "badname") == 0)
            snprintf(c[k].name, sizeof c[k].name, "%s", name);
        else
            snprintf(c[k].name, sizeof c[k].name, "%.50s-%d", name, k + 1);
        s_hello(c[k].sock, c[k].name);
    }
    s_serve(c, O.conns, s_now() + O.seconds, NULL, NULL);
    for (int k = 0; k < O.conns; k++)
        zmq_close(c[k].sock);
}

static void s_run_hijack(void)
{
    static msg_task_t taken[TAKE_MAX];
    int taken_nb = 0;
    const char *rid = O.routing_id ? O.routing_id : "hijacked-worker";
    s_conn_t c = {.sock = s_open(O.secret, rid)};
    snprintf(c.name, sizeof c.name, "%s", O.name);
    s_hello(c.sock, c.name);
    s_serve(&c, 1, s_now() + O.seconds, taken, &taken_nb);
    zmq_close(c.sock); /* vanish with the tasks */
    usleep(300 * 1000);
    s_conn_t d = {.sock = s_open(O.secret2 ? O.secret2 : O.secret, rid)};
    usleep(300 * 1000); /* let the connection (and its handshake) complete */
    for (int k = 0; k < taken_nb; k++)
        s_result(d.sock, &taken[k]);
    s_serve(&d, 1, s_now() + 1.0, NULL, NULL);
    zmq_close(d.sock);
    s_tasks = (unsigned)taken_nb;
}

static void s_run_name_flood(void)
{
    void *s = s_open(O.secret, NULL);
    char name[MSG_NAME_MAX];
    for (int k = 0; k < O.flood; k++) {
        snprintf(name, sizeof name, "%.40s-%d", O.name, k);
        s_hello(s, name);
        msg_t m;
        char err[256];
        int timeout = 2000;
        zmq_setsockopt(s, ZMQ_RCVTIMEO, &timeout, sizeof timeout);
        do { /* each name is welcomed (so interned) before the next */
            if (wire_recv(s, &m, 0, err, sizeof err) == MSG_ETRANSPORT)
                s_die("no answer to a HELLO");
        } while (m.type != MSG_WELCOME && m.type != MSG_ERROR);
        s_welcomed += m.type == MSG_WELCOME;
        s_simple(s, MSG_BYE, 0);
    }
    zmq_close(s);
}

static void s_parse(int argc, char **argv)
{
    if (argc < 3)
        s_die("usage: test_hostile_peer MODE ENDPOINT [options]");
    O = (s_opts_t){.mode = argv[1], .endpoint = argv[2], .name = "hostile", .conns = 1, .take = 4,
                   .flood = 0, .seconds = 20, .add = 1};
    for (int i = 3; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (v == NULL)
            s_die("option without a value");
        i++;
        if (strcmp(a, "--name") == 0) O.name = v;
        else if (strcmp(a, "--conns") == 0) O.conns = atoi(v);
        else if (strcmp(a, "--take") == 0) O.take = atoi(v);
        else if (strcmp(a, "--flood") == 0) O.flood = atoi(v);
        else if (strcmp(a, "--seconds") == 0) O.seconds = atof(v);
        else if (strcmp(a, "--routing-id") == 0) O.routing_id = v;
        else if (strcmp(a, "--secret") == 0) O.secret = v;
        else if (strcmp(a, "--curve2") == 0) O.secret2 = v;
        else if (strcmp(a, "--server-key") == 0) O.server_pub = v;
        else if (strcmp(a, "--add") == 0 && count_parse(v, &O.add) == 0) continue;
        else if (strcmp(a, "--count") == 0 && count_parse(v, &O.count) == 0) O.fixed_count = true;
        else s_die("bad option");
    }
    if (O.conns < 1 || O.conns > CONNS_MAX || O.take < 1 || O.take > TAKE_MAX)
        s_die("--conns or --take out of range");
}

int main(int argc, char **argv)
{
    s_parse(argc, argv);
    s_ctx = zmq_ctx_new();
    zmq_ctx_set(s_ctx, ZMQ_MAX_SOCKETS, CONNS_MAX + 16);
    if (strcmp(O.mode, "hijack") == 0)
        s_run_hijack();
    else if (strcmp(O.mode, "name-flood") == 0)
        s_run_name_flood();
    else if (strcmp(O.mode, "liar") == 0 || strcmp(O.mode, "refuser") == 0 || strcmp(O.mode, "hello-flood") == 0 ||
             strcmp(O.mode, "badname") == 0)
        s_run_conns();
    else
        s_die("unknown mode");
    printf("welcomed %u results %u refused %u tasks %u\n", s_welcomed, s_results, s_refused, s_tasks);
    zmq_ctx_term(s_ctx);
    return 0;
}
