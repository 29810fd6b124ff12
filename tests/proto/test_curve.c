/* test_curve.c: CURVE key files, and the ZAP allow-list over real tcp://127.0.0.1 sockets. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <zmq.h>

#include "curve.h"

/* Upper bounds on waiting, not speed assertions: a message that should pass
 * gets up to 10 s; one that must not pass is watched for 500 ms. */
enum { PASS_WAIT_MS = 10000, BLOCK_WAIT_MS = 500 };

typedef struct {
    char dir[64];
    char prefix[128];
    char path[160];
    char err[512];
} files_t;

static int s_files_setup(void **state)
{
    files_t *f = calloc(1, sizeof *f);
    assert_non_null(f);
    strcpy(f->dir, "/tmp/test_curve.XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->prefix, sizeof f->prefix, "%s/coord", f->dir);
    *state = f;
    return 0;
}

static int s_files_teardown(void **state)
{
    files_t *f = *state;
    const char *names[] = { "coord.key", "coord.pub", "allow.txt", "bad.key" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(f->path, sizeof f->path, "%s/%s", f->dir, names[i]);
        unlink(f->path);
    }
    rmdir(f->dir);
    free(f);
    return 0;
}

static void s_write_file(const char *path, mode_t mode, const char *text)
{
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
    assert_int_equal(chmod(path, mode), 0);
}

static void test_keys_write_and_read(void **state)
{
    files_t *f = *state;
    curve_keys_t keys, back;
    assert_true(curve_available());
    assert_int_equal(curve_keys_generate(&keys, f->err, sizeof f->err), 0);
    assert_true(curve_key_valid(keys.public_z85) && curve_key_valid(keys.secret_z85));
    assert_false(curve_key_valid("short"));
    assert_int_equal(curve_keys_write(f->prefix, &keys, f->err, sizeof f->err), 0);
    struct stat st;
    snprintf(f->path, sizeof f->path, "%s.key", f->prefix);
    assert_int_equal(stat(f->path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_int_equal(curve_keys_read(f->path, &back, f->err, sizeof f->err), 0);
    assert_string_equal(back.public_z85, keys.public_z85);
    assert_string_equal(back.secret_z85, keys.secret_z85);
    char pub[CURVE_Z85_MAX];
    snprintf(f->path, sizeof f->path, "%s.pub", f->prefix);
    assert_int_equal(curve_public_read(f->path, pub, f->err, sizeof f->err), 0);
    assert_string_equal(pub, keys.public_z85);
    /* keygen never overwrites */
    assert_int_equal(curve_keys_write(f->prefix, &keys, f->err, sizeof f->err), -1);
    assert_non_null(strstr(f->err, "coord.key"));
}

static void test_secret_file_checks(void **state)
{
    files_t *f = *state;
    curve_keys_t a, b, out;
    assert_int_equal(curve_keys_generate(&a, f->err, sizeof f->err), 0);
    assert_int_equal(curve_keys_generate(&b, f->err, sizeof f->err), 0);
    char text[512];
    snprintf(f->path, sizeof f->path, "%s/bad.key", f->dir);
    snprintf(text, sizeof text, "public-key = %s\nsecret-key = %s\n", a.public_z85, a.secret_z85);
    s_write_file(f->path, 0640, text);
    assert_int_equal(curve_keys_read(f->path, &out, f->err, sizeof f->err), -1);
    assert_non_null(strstr(f->err, "chmod 600"));
    snprintf(text, sizeof text, "public-key = %s\nsecret-key = %s\n", b.public_z85, a.secret_z85);
    s_write_file(f->path, 0600, text);
    assert_int_equal(curve_keys_read(f->path, &out, f->err, sizeof f->err), -1);
    assert_non_null(strstr(f->err, "does not belong"));
    snprintf(text, sizeof text, "# comment\npublic-key = %s\n", a.public_z85);
    s_write_file(f->path, 0600, text);
    assert_int_equal(curve_keys_read(f->path, &out, f->err, sizeof f->err), -1);
    assert_non_null(strstr(f->err, "missing secret-key"));
    s_write_file(f->path, 0600, "\npublic-key = 0123\n");
    assert_int_equal(curve_keys_read(f->path, &out, f->err, sizeof f->err), -1);
    assert_non_null(strstr(f->err, "bad.key:2: not a 40-character Z85 key"));
    s_write_file(f->path, 0600, "colour = blue\n");
    assert_int_equal(curve_keys_read(f->path, &out, f->err, sizeof f->err), -1);
    assert_non_null(strstr(f->err, "bad.key:1: unknown field"));
    assert_null(strstr(f->err, "colour")); /* the line is never echoed: it may hold a key */
}

static void test_allow_list_file(void **state)
{
    files_t *f = *state;
    curve_keys_t a, b;
    assert_int_equal(curve_keys_generate(&a, f->err, sizeof f->err), 0);
    assert_int_equal(curve_keys_generate(&b, f->err, sizeof f->err), 0);
    char text[512];
    snprintf(f->path, sizeof f->path, "%s/allow.txt", f->dir);
    snprintf(text, sizeof text, "# workers\n%s\n\n  %s  \r\n", a.public_z85, b.public_z85);
    s_write_file(f->path, 0644, text);
    curve_allow_t allow = { 0 };
    assert_int_equal(curve_allow_read(&allow, f->path, f->err, sizeof f->err), 0);
    assert_int_equal(allow.nb, 2);
    assert_string_equal(allow.keys[0], a.public_z85);
    assert_string_equal(allow.keys[1], b.public_z85);
    char one[CURVE_Z85_MAX];
    assert_int_equal(curve_public_read(f->path, one, f->err, sizeof f->err), -1);
    assert_non_null(strstr(f->err, "expected one public key, found 2"));
    snprintf(text, sizeof text, "%s\nnot-a-key\n", a.public_z85);
    s_write_file(f->path, 0644, text);
    assert_int_equal(curve_allow_read(&allow, f->path, f->err, sizeof f->err), -1);
    assert_non_null(strstr(f->err, "allow.txt:2:"));
    assert_int_equal(allow.nb, 2); /* nothing appended on error */
    assert_int_equal(curve_allow_add(&allow, "x", f->err, sizeof f->err), -1);
    curve_allow_free(&allow);
    assert_int_equal(allow.nb, 0);
    curve_allow_free(&allow);
}

/* The network fixture: a CURVE ROUTER with a ZAP allow-list of one worker key. */
typedef struct {
    void *ctx;
    void *server;
    curve_auth_t *auth;
    curve_keys_t server_keys, worker_keys, other_keys;
    char endpoint[256];
    char err[512];
} net_t;

static void s_no_linger(void *socket)
{
    int zero = 0;
    assert_int_equal(zmq_setsockopt(socket, ZMQ_LINGER, &zero, sizeof zero), 0);
}

static int s_net_setup(void **state)
{
    net_t *n = calloc(1, sizeof *n);
    assert_non_null(n);
    assert_int_equal(curve_keys_generate(&n->server_keys, n->err, sizeof n->err), 0);
    assert_int_equal(curve_keys_generate(&n->worker_keys, n->err, sizeof n->err), 0);
    assert_int_equal(curve_keys_generate(&n->other_keys, n->err, sizeof n->err), 0);
    n->ctx = zmq_ctx_new();
    assert_non_null(n->ctx);
    curve_allow_t allow = { 0 };
    assert_int_equal(curve_allow_add(&allow, n->worker_keys.public_z85, n->err, sizeof n->err), 0);
    n->auth = curve_auth_new(n->ctx, &allow, n->err, sizeof n->err);
    curve_allow_free(&allow);
    assert_non_null(n->auth);
    n->server = zmq_socket(n->ctx, ZMQ_ROUTER);
    s_no_linger(n->server);
    assert_int_equal(curve_server_setup(n->server, &n->server_keys), 0);
    assert_int_equal(zmq_bind(n->server, "tcp://127.0.0.1:*"), 0);
    size_t len = sizeof n->endpoint;
    assert_int_equal(zmq_getsockopt(n->server, ZMQ_LAST_ENDPOINT, n->endpoint, &len), 0);
    *state = n;
    return 0;
}

static int s_net_teardown(void **state)
{
    net_t *n = *state;
    zmq_close(n->server);
    curve_auth_destroy(&n->auth);
    assert_null(n->auth);
    curve_auth_destroy(&n->auth);
    zmq_ctx_term(n->ctx);
    free(n);
    return 0;
}

/* A DEALER connected to the server, CURVE with keys if given, plain otherwise. */
static void *s_client(net_t *n, const curve_keys_t *keys, const char *server_pub)
{
    void *c = zmq_socket(n->ctx, ZMQ_DEALER);
    assert_non_null(c);
    s_no_linger(c);
    if (keys)
        assert_int_equal(curve_client_setup(c, keys, server_pub), 0);
    assert_int_equal(zmq_connect(c, n->endpoint), 0);
    return c;
}

static bool s_wait_readable(void *socket, int ms)
{
    zmq_pollitem_t item = { .socket = socket, .events = ZMQ_POLLIN };
    return zmq_poll(&item, 1, ms) == 1 && (item.revents & ZMQ_POLLIN);
}

static void test_allowed_worker_round_trip(void **state)
{
    net_t *n = *state;
    void *c = s_client(n, &n->worker_keys, n->server_keys.public_z85);
    assert_int_equal(zmq_send(c, "hello", 5, 0), 5);
    assert_true(s_wait_readable(n->server, PASS_WAIT_MS));
    zmq_msg_t id, body;
    zmq_msg_init(&id);
    zmq_msg_init(&body);
    assert_true(zmq_msg_recv(&id, n->server, 0) > 0);
    assert_int_equal(zmq_msg_recv(&body, n->server, 0), 5);
    assert_memory_equal(zmq_msg_data(&body), "hello", 5);
    const char *user = zmq_msg_gets(&body, "User-Id");
    assert_non_null(user);
    assert_string_equal(user, n->worker_keys.public_z85);
    assert_true(zmq_msg_send(&id, n->server, ZMQ_SNDMORE) > 0);
    assert_int_equal(zmq_send(n->server, "welcome", 7, 0), 7);
    zmq_msg_close(&body);
    assert_true(s_wait_readable(c, PASS_WAIT_MS));
    char buf[16];
    assert_int_equal(zmq_recv(c, buf, sizeof buf, 0), 7);
    assert_memory_equal(buf, "welcome", 7);
    assert_true(curve_auth_accepted_nb(n->auth) >= 1);
    assert_int_equal(curve_auth_refused_nb(n->auth), 0);
    zmq_close(c);
}

/* Sends from c and checks nothing reaches the server within BLOCK_WAIT_MS. */
static void s_assert_blocked(net_t *n, void *c)
{
    (void)zmq_send(c, "let me in", 9, ZMQ_DONTWAIT);
    assert_false(s_wait_readable(n->server, BLOCK_WAIT_MS));
}

static void test_wrong_worker_key_refused(void **state)
{
    net_t *n = *state;
    void *c = s_client(n, &n->other_keys, n->server_keys.public_z85);
    s_assert_blocked(n, c);
    /* the refusal was the ZAP handler's (bounded wait for its thread to count it) */
    for (int i = 0; i < PASS_WAIT_MS / 10 && curve_auth_refused_nb(n->auth) == 0; i++)
        usleep(10000);
    assert_true(curve_auth_refused_nb(n->auth) >= 1);
    assert_int_equal(curve_auth_accepted_nb(n->auth), 0);
    zmq_close(c);
}

static void test_plain_client_refused(void **state)
{
    net_t *n = *state;
    void *c = s_client(n, NULL, NULL);
    s_assert_blocked(n, c);
    assert_int_equal(curve_auth_accepted_nb(n->auth), 0);
    zmq_close(c);
}

static void test_wrong_server_key_gets_nowhere(void **state)
{
    net_t *n = *state;
    void *c = s_client(n, &n->worker_keys, n->other_keys.public_z85);
    s_assert_blocked(n, c);
    assert_int_equal(curve_auth_accepted_nb(n->auth), 0);
    zmq_close(c);
}

static void test_one_authenticator_per_context(void **state)
{
    net_t *n = *state;
    curve_allow_t none = { 0 };
    assert_null(curve_auth_new(n->ctx, &none, n->err, sizeof n->err));
    assert_non_null(strstr(n->err, "inproc://zeromq.zap.01"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_keys_write_and_read, s_files_setup, s_files_teardown),
        cmocka_unit_test_setup_teardown(test_secret_file_checks, s_files_setup, s_files_teardown),
        cmocka_unit_test_setup_teardown(test_allow_list_file, s_files_setup, s_files_teardown),
        cmocka_unit_test_setup_teardown(test_allowed_worker_round_trip, s_net_setup, s_net_teardown),
        cmocka_unit_test_setup_teardown(test_wrong_worker_key_refused, s_net_setup, s_net_teardown),
        cmocka_unit_test_setup_teardown(test_plain_client_refused, s_net_setup, s_net_teardown),
        cmocka_unit_test_setup_teardown(test_wrong_server_key_gets_nowhere, s_net_setup, s_net_teardown),
        cmocka_unit_test_setup_teardown(test_one_authenticator_per_context, s_net_setup, s_net_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
