/* test_cluster_noise.c: a hostile OCTP client for the cluster tests: garbage, truncated and
 * wrong-version messages, unknown types, multi-frame messages, strangers and floods.
 * usage: test_cluster_noise ENDPOINT [ROUNDS]; exits 0 after sending (it never answers a TASK).
 * Every send is non-blocking, so it never hangs on a coordinator that is gone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

#include "msg.h"

static size_t s_encode(const msg_t *m, unsigned char *buf, size_t cap)
{
    size_t len = 0;
    char err[128];
    if (msg_encode(m, buf, cap, &len, err, sizeof err) != 0) {
        fprintf(stderr, "noise: encode: %s\n", err);
        exit(1);
    }
    return len;
}

static void s_hello(msg_t *m, const char *name, uint32_t threads)
{
    msg_init(m, MSG_HELLO);
    snprintf(m->u.hello.name, sizeof m->u.hello.name, "%s", name);
    m->u.hello.threads = threads;
    m->u.hello.n_variants = 1;
    snprintf(m->u.hello.variants[0], MSG_VARIANT_MAX, "octad");
}

/* Malformed input from a peer that never said HELLO. */
static void s_garbage(void *sock, unsigned *seed)
{
    unsigned char buf[512];
    msg_t m;
    for (int i = 0; i < 200; i++) { /* random bytes */
        size_t n = (size_t)(rand_r(seed) % 300) + 1;
        for (size_t k = 0; k < n; k++)
            buf[k] = (unsigned char)rand_r(seed);
        zmq_send(sock, buf, n, ZMQ_DONTWAIT);
    }
    s_hello(&m, "truncated", 1);
    size_t len = s_encode(&m, buf, sizeof buf);
    for (size_t cut = 1; cut < len; cut++) /* every truncation of a valid HELLO */
        zmq_send(sock, buf, cut, ZMQ_DONTWAIT);
    buf[6] = 2; /* ["OCTP", 2, ...]: the version field follows the 5-byte "OCTP" str */
    zmq_send(sock, buf, len, ZMQ_DONTWAIT);
    static const unsigned char unknown[] = {0x93, 0xa4, 'O', 'C', 'T', 'P', 0x01, 0xa4, 'N', 'O', 'P', 'E'};
    zmq_send(sock, unknown, sizeof unknown, ZMQ_DONTWAIT);
    zmq_send(sock, "two", 3, ZMQ_DONTWAIT | ZMQ_SNDMORE); /* a multi-frame message */
    zmq_send(sock, "frames", 6, ZMQ_DONTWAIT);
    zmq_send(sock, "", 0, ZMQ_DONTWAIT);                  /* an empty frame */
    msg_init(&m, MSG_RESULT);                             /* a RESULT without a session */
    m.u.result.task_id = 1;
    len = s_encode(&m, buf, sizeof buf);
    for (int i = 0; i < 5000; i++) /* a flood from a stranger */
        zmq_send(sock, buf, len, ZMQ_DONTWAIT);
}

/* A peer with a session that sends nonsense: unleased results, credit floods, bad handbacks. */
static void s_session_noise(void *sock)
{
    unsigned char buf[MSG_MAX_BYTES];
    msg_t m;
    s_hello(&m, "noise", 2);
    zmq_send(sock, buf, s_encode(&m, buf, sizeof buf), ZMQ_DONTWAIT);
    struct timespec pause = {0, 200 * 1000 * 1000};
    nanosleep(&pause, NULL);
    for (int i = 0; i < 2000; i++) {
        msg_init(&m, MSG_RESULT); /* results for tasks never leased to it, of another job */
        m.u.result.task_id = (uint64_t)(i % 50) + 1;
        m.u.result.job_id = (uint64_t)i;
        m.u.result.nodes = 12345;
        zmq_send(sock, buf, s_encode(&m, buf, sizeof buf), ZMQ_DONTWAIT);
        msg_init(&m, MSG_HANDBACK);
        m.u.handback.n_task_ids = 3;
        m.u.handback.task_ids[0] = 1;
        m.u.handback.task_ids[1] = 999999999;
        m.u.handback.task_ids[2] = (uint64_t)i + 1;
        zmq_send(sock, buf, s_encode(&m, buf, sizeof buf), ZMQ_DONTWAIT);
        msg_init(&m, MSG_WELCOME); /* wrong direction */
        m.u.welcome.heartbeat_ms = 1000;
        m.u.welcome.liveness = 3;
        zmq_send(sock, buf, s_encode(&m, buf, sizeof buf), ZMQ_DONTWAIT);
        msg_init(&m, MSG_HEARTBEAT);
        zmq_send(sock, buf, s_encode(&m, buf, sizeof buf), ZMQ_DONTWAIT);
    }
    msg_init(&m, MSG_CREDIT); /* more credit than its threads: capped; it never answers the tasks */
    m.u.credit.n = 1000;
    zmq_send(sock, buf, s_encode(&m, buf, sizeof buf), ZMQ_DONTWAIT);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_cluster_noise ENDPOINT [ROUNDS]\n");
        return 2;
    }
    int rounds = argc > 2 ? atoi(argv[2]) : 3;
    unsigned seed = 12345;
    void *ctx = zmq_ctx_new();
    int linger = 2000;
    for (int r = 0; r < rounds; r++) {
        void *stranger = zmq_socket(ctx, ZMQ_DEALER);
        void *session = zmq_socket(ctx, ZMQ_DEALER);
        zmq_setsockopt(stranger, ZMQ_LINGER, &linger, sizeof linger);
        zmq_setsockopt(session, ZMQ_LINGER, &linger, sizeof linger);
        if (zmq_connect(stranger, argv[1]) != 0 || zmq_connect(session, argv[1]) != 0) {
            fprintf(stderr, "noise: connect %s: %s\n", argv[1], zmq_strerror(zmq_errno()));
            return 1;
        }
        s_garbage(stranger, &seed);
        s_session_noise(session);
        sleep(1);
        zmq_close(stranger);
        zmq_close(session); /* goes silent without BYE: the coordinator must time it out */
    }
    zmq_ctx_term(ctx);
    return 0;
}
