/* test_proto_wire.c: OCTP messages over a real ROUTER/DEALER pair on tcp://127.0.0.1. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zmq.h>

#include "msg_samples.h"
#include "wire.h"

typedef struct {
    void *ctx;
    void *router;
    void *dealer;
} s_pair_t;

static int s_setup(void **state)
{
    s_pair_t *p = calloc(1, sizeof *p);
    if (p == NULL)
        return -1;
    *state = p;
    char endpoint[256];
    size_t len = sizeof(endpoint);
    int linger = 0, timeout = 5000;
    p->ctx = zmq_ctx_new();
    p->router = zmq_socket(p->ctx, ZMQ_ROUTER);
    p->dealer = zmq_socket(p->ctx, ZMQ_DEALER);
    if (p->router == NULL || p->dealer == NULL)
        return -1;
    zmq_setsockopt(p->router, ZMQ_LINGER, &linger, sizeof(linger));
    zmq_setsockopt(p->dealer, ZMQ_LINGER, &linger, sizeof(linger));
    /* Timeouts only keep a broken test from hanging; nothing is timed. */
    zmq_setsockopt(p->router, ZMQ_RCVTIMEO, &timeout, sizeof(timeout));
    zmq_setsockopt(p->dealer, ZMQ_RCVTIMEO, &timeout, sizeof(timeout));
    if (zmq_bind(p->router, "tcp://127.0.0.1:*") != 0 ||
        zmq_getsockopt(p->router, ZMQ_LAST_ENDPOINT, endpoint, &len) != 0 ||
        zmq_connect(p->dealer, endpoint) != 0)
        return -1;
    return 0;
}

static int s_teardown(void **state)
{
    s_pair_t *pair = *state;
    zmq_close(pair->dealer);
    zmq_close(pair->router);
    zmq_ctx_term(pair->ctx);
    free(pair);
    return 0;
}

/* Whether a and b are the same message: their encodings are equal (a
 * received message points into its bulk storage, so structs are not compared). */
static void s_assert_same(const msg_t *a, const msg_t *b)
{
    uint8_t *ea = malloc(MSG_MAX_BYTES), *eb = malloc(MSG_MAX_BYTES);
    size_t na = 0, nb = 0;
    assert_non_null(ea);
    assert_non_null(eb);
    assert_int_equal(a->type, b->type);
    assert_int_equal(a->version, b->version);
    assert_int_equal(msg_encode(a, ea, MSG_MAX_BYTES, &na, NULL, 0), 0);
    assert_int_equal(msg_encode(b, eb, MSG_MAX_BYTES, &nb, NULL, 0), 0);
    assert_int_equal(na, nb);
    assert_memory_equal(ea, eb, na);
    free(eb);
    free(ea);
}

static void test_every_sample_both_ways(void **state)
{
    s_pair_t *pair = *state;
    msg_bulk_store_t *store = malloc(sizeof *store), *rx = malloc(sizeof *rx);
    assert_non_null(store);
    assert_non_null(rx);
    msg_bulk_t bulk = msg_bulk_of(rx);
    for (int t = MSG_NONE + 1; t < MSG_TYPE_NB; t++)
        for (int which = 0; which < MSG_SAMPLES_PER_TYPE; which++) {
            msg_t msg, got;
            wire_peer_t peer;
            char err[256] = "";
            msg_sample((msg_type_t)t, which, &msg, store);
            assert_int_equal(wire_send(pair->dealer, &msg, 0, err, sizeof(err)), MSG_OK);
            assert_int_equal(wire_recv_from(pair->router, &peer, &got, &bulk, 0, err, sizeof(err)), MSG_OK);
            assert_true(peer.len > 0);
            s_assert_same(&got, &msg);
            assert_int_equal(wire_send_to(pair->router, &peer, &msg, 0, err, sizeof(err)), MSG_OK);
            assert_int_equal(wire_recv(pair->dealer, &got, &bulk, 0, err, sizeof(err)), MSG_OK);
            s_assert_same(&got, &msg);
        }
    free(rx);
    free(store);
}

static void test_garbage_is_dropped_and_next_message_arrives(void **state)
{
    s_pair_t *pair = *state;
    msg_t msg, got;
    wire_peer_t peer;
    char err[256] = "";
    /* a non-msgpack frame, a two-frame message, then a good one */
    assert_int_equal(zmq_send(pair->dealer, "\xc1junk", 5, 0), 5);
    assert_int_equal(zmq_send(pair->dealer, "", 0, ZMQ_SNDMORE), 0);
    assert_int_equal(zmq_send(pair->dealer, "x", 1, 0), 1);
    msg_bulk_store_t store;
    msg_sample(MSG_CREDIT, 0, &msg, &store);
    assert_int_equal(wire_send(pair->dealer, &msg, 0, err, sizeof(err)), MSG_OK);
    assert_int_equal(wire_recv_from(pair->router, &peer, &got, NULL, 0, err, sizeof(err)), MSG_EBADMSG);
    assert_int_equal(got.type, MSG_NONE);
    assert_true(peer.len > 0);
    assert_int_equal(wire_recv_from(pair->router, &peer, &got, NULL, 0, err, sizeof(err)), MSG_EBADMSG);
    assert_non_null(strstr(err, "frames"));
    assert_int_equal(wire_recv_from(pair->router, &peer, &got, NULL, 0, err, sizeof(err)), MSG_OK);
    assert_memory_equal(&got, &msg, sizeof(msg));
}

static void test_version_mismatch_is_reported(void **state)
{
    s_pair_t *pair = *state;
    msg_t got;
    wire_peer_t peer;
    char err[256] = "";
    assert_int_equal(zmq_send(pair->dealer, "\x93\xa4OCTP\x05\xa9HEARTBEAT", 17, 0), 17);
    assert_int_equal(wire_recv_from(pair->router, &peer, &got, NULL, 0, err, sizeof(err)), MSG_EVERSION);
    assert_non_null(strstr(err, "OCTP/5 not supported"));
}

static void test_transport_errors(void **state)
{
    s_pair_t *pair = *state;
    msg_t msg, got;
    char err[256] = "";
    /* nothing queued: a non-blocking receive reports EAGAIN */
    assert_int_equal(wire_recv(pair->dealer, &got, NULL, ZMQ_DONTWAIT, err, sizeof(err)), MSG_ETRANSPORT);
    assert_int_equal(errno, EAGAIN);
    /* an invalid message is never sent */
    msg_init(&msg, MSG_CREDIT);
    assert_int_equal(wire_send(pair->dealer, &msg, 0, err, sizeof(err)), MSG_EBADMSG);
    assert_non_null(strstr(err, "n"));
    wire_peer_t nobody = {0, {0}};
    msg_init(&msg, MSG_HEARTBEAT);
    assert_int_equal(wire_send_to(pair->router, &nobody, &msg, 0, err, sizeof(err)), MSG_EBADMSG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_sample_both_ways),
        cmocka_unit_test(test_garbage_is_dropped_and_next_message_arrives),
        cmocka_unit_test(test_version_mismatch_is_reported),
        cmocka_unit_test(test_transport_errors),
    };
    return cmocka_run_group_tests(tests, s_setup, s_teardown);
}
