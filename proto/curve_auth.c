/* curve_auth.c: a ZAP handler (ZeroMQ RFC 27) that admits only CURVE clients on an allow-list. */
#include "curve.h"

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zmq.h>

/* A ZAP request has 6 frames plus the mechanism's credentials (CURVE: one). */
enum { ZAP_FRAMES_MAX = 8, KEY_BYTES = 32, REFUSED_RING = 16 };

static const char s_zap_endpoint[] = "inproc://zeromq.zap.01";

struct curve_auth_s {
    void *zap;              /* REP bound to inproc://zeromq.zap.01 */
    void *pipe_main;        /* PAIR, main side: destroy sends "stop" */
    void *pipe_thread;      /* PAIR, handler side */
    uint8_t (*keys)[KEY_BYTES]; /* allow-list, binary, sorted */
    size_t key_nb;
    atomic_size_t refused_nb;
    atomic_size_t accepted_nb;
    pthread_mutex_t lock;      /* guards the refused ring */
    char refused[REFUSED_RING][CURVE_FINGERPRINT_MAX];
    size_t refused_new;        /* refusals since the last curve_auth_take_refused */
    pthread_t thread;
    bool thread_started;
};

static int s_key_cmp(const void *a, const void *b)
{
    return memcmp(a, b, KEY_BYTES);
}

static bool s_allowed(const curve_auth_t *self, const uint8_t *key)
{
    return self->key_nb > 0 && bsearch(key, self->keys, self->key_nb, KEY_BYTES, s_key_cmp) != NULL;
}

/* Whether frame equals the NUL-terminated text. */
static bool s_frame_is(zmq_msg_t *frame, const char *text)
{
    size_t n = strlen(text);
    return zmq_msg_size(frame) == n && memcmp(zmq_msg_data(frame), text, n) == 0;
}

/* Remembers a refused key's fingerprint for the main thread's log. */
static void s_note_refused(curve_auth_t *self, const uint8_t *key)
{
    char z85[CURVE_Z85_MAX];
    zmq_z85_encode(z85, key, KEY_BYTES);
    pthread_mutex_lock(&self->lock);
    curve_fingerprint(z85, self->refused[self->refused_new % REFUSED_RING]);
    self->refused_new++;
    pthread_mutex_unlock(&self->lock);
}

size_t curve_auth_take_refused(curve_auth_t *self, char out[][CURVE_FINGERPRINT_MAX], size_t cap)
{
    assert(self);
    pthread_mutex_lock(&self->lock);
    size_t n = self->refused_new;
    size_t kept = n < REFUSED_RING ? n : REFUSED_RING;
    for (size_t k = 0; k < kept && k < cap; k++)
        memcpy(out[k], self->refused[(n - kept + k) % REFUSED_RING], CURVE_FINGERPRINT_MAX);
    self->refused_new = 0;
    pthread_mutex_unlock(&self->lock);
    return n;
}

/* Decides on a request of nb frames; sets the status and the user id (Z85 key). */
static const char *s_decide(curve_auth_t *self, zmq_msg_t *f, int nb, char user_id[CURVE_Z85_MAX])
{
    user_id[0] = '\0';
    if (nb < 6 || !s_frame_is(&f[0], "1.0"))
        return "500";
    if (!s_frame_is(&f[5], "CURVE") || nb != 7 || zmq_msg_size(&f[6]) != KEY_BYTES)
        return "400";
    const uint8_t *key = zmq_msg_data(&f[6]);
    if (!s_allowed(self, key)) {
        s_note_refused(self, key);
        return "400";
    }
    zmq_z85_encode(user_id, key, KEY_BYTES);
    return "200";
}

/* Sends one reply frame; more = further frames follow. */
static void s_send(void *socket, const void *data, size_t len, bool more)
{
    (void)zmq_send(socket, data, len, more ? ZMQ_SNDMORE : 0);
}

/* Receives one ZAP request and answers it (REP must answer every request). */
static void s_handle(curve_auth_t *self)
{
    zmq_msg_t f[ZAP_FRAMES_MAX];
    int nb = 0, more = 1;
    while (more) {
        zmq_msg_t scratch, *frame = nb < ZAP_FRAMES_MAX ? &f[nb] : &scratch;
        zmq_msg_init(frame);
        if (zmq_msg_recv(frame, self->zap, 0) < 0) {
            zmq_msg_close(frame);
            break;
        }
        more = zmq_msg_more(frame);
        if (frame == &scratch)
            zmq_msg_close(frame), nb = ZAP_FRAMES_MAX + 1; /* too many frames: malformed */
        else
            nb++;
    }
    int kept = nb > ZAP_FRAMES_MAX ? ZAP_FRAMES_MAX : nb;
    char user_id[CURVE_Z85_MAX];
    const char *status = nb > ZAP_FRAMES_MAX ? "500" : s_decide(self, f, nb, user_id);
    bool ok = strcmp(status, "200") == 0;
    atomic_fetch_add(ok ? &self->accepted_nb : &self->refused_nb, 1);
    s_send(self->zap, "1.0", 3, true);
    if (kept >= 2)
        s_send(self->zap, zmq_msg_data(&f[1]), zmq_msg_size(&f[1]), true);
    else
        s_send(self->zap, "", 0, true);
    s_send(self->zap, status, 3, true);
    const char *text = ok ? "OK" : strcmp(status, "400") == 0 ? "client key not allowed" : "malformed ZAP request";
    s_send(self->zap, text, strlen(text), true);
    s_send(self->zap, user_id, strlen(user_id), true);
    s_send(self->zap, "", 0, false);
    for (int i = 0; i < kept; i++)
        zmq_msg_close(&f[i]);
}

static void *s_run(void *arg)
{
    curve_auth_t *self = arg;
    for (;;) {
        zmq_pollitem_t items[] = {
            { .socket = self->zap, .events = ZMQ_POLLIN },
            { .socket = self->pipe_thread, .events = ZMQ_POLLIN },
        };
        if (zmq_poll(items, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break; /* ETERM: the context is going away */
        }
        if (items[1].revents & ZMQ_POLLIN)
            break; /* stop */
        if (items[0].revents & ZMQ_POLLIN)
            s_handle(self);
    }
    return NULL;
}

/* Creates and binds/connects the handler's sockets. */
static int s_open_sockets(curve_auth_t *self, void *ctx, char *err, size_t errlen)
{
    char pipe_ep[64];
    int linger = 0;
    snprintf(pipe_ep, sizeof pipe_ep, "inproc://curve-auth-%p", (void *)self);
    self->zap = zmq_socket(ctx, ZMQ_REP);
    self->pipe_main = zmq_socket(ctx, ZMQ_PAIR);
    self->pipe_thread = zmq_socket(ctx, ZMQ_PAIR);
    if (!self->zap || !self->pipe_main || !self->pipe_thread) {
        snprintf(err, errlen, "ZAP handler: cannot create sockets: %s", zmq_strerror(errno));
        return -1;
    }
    zmq_setsockopt(self->zap, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(self->pipe_main, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(self->pipe_thread, ZMQ_LINGER, &linger, sizeof linger);
    if (zmq_bind(self->zap, s_zap_endpoint) != 0) {
        snprintf(err, errlen, "ZAP handler: cannot bind %s: %s (one authenticator per context)",
                 s_zap_endpoint, zmq_strerror(errno));
        return -1;
    }
    if (zmq_bind(self->pipe_thread, pipe_ep) != 0 || zmq_connect(self->pipe_main, pipe_ep) != 0) {
        snprintf(err, errlen, "ZAP handler: cannot open its control pipe: %s", zmq_strerror(errno));
        return -1;
    }
    return 0;
}

/* Copies the allow-list as sorted binary keys. */
static int s_copy_keys(curve_auth_t *self, const curve_allow_t *allow, char *err, size_t errlen)
{
    self->keys = calloc(allow->nb ? allow->nb : 1, KEY_BYTES);
    if (!self->keys) {
        snprintf(err, errlen, "ZAP handler: out of memory");
        return -1;
    }
    for (size_t i = 0; i < allow->nb; i++) {
        if (!curve_key_valid(allow->keys[i])) {
            snprintf(err, errlen, "ZAP handler: allow-list entry %zu is not a Z85 key", i + 1);
            return -1;
        }
        zmq_z85_decode(self->keys[i], allow->keys[i]);
    }
    self->key_nb = allow->nb;
    qsort(self->keys, self->key_nb, KEY_BYTES, s_key_cmp);
    return 0;
}

curve_auth_t *curve_auth_new(void *zmq_ctx, const curve_allow_t *allow, char *err, size_t errlen)
{
    assert(zmq_ctx && allow && err);
    curve_auth_t *self = calloc(1, sizeof *self);
    if (!self) {
        snprintf(err, errlen, "ZAP handler: out of memory");
        return NULL;
    }
    atomic_init(&self->refused_nb, 0);
    atomic_init(&self->accepted_nb, 0);
    pthread_mutex_init(&self->lock, NULL);
    if (s_copy_keys(self, allow, err, errlen) != 0 || s_open_sockets(self, zmq_ctx, err, errlen) != 0)
        goto err;
    int rc = pthread_create(&self->thread, NULL, s_run, self);
    if (rc != 0) {
        snprintf(err, errlen, "ZAP handler: cannot start its thread: %s", strerror(rc));
        goto err;
    }
    self->thread_started = true;
    return self;
err:
    curve_auth_destroy(&self);
    return NULL;
}

size_t curve_auth_refused_nb(const curve_auth_t *self)
{
    assert(self);
    return atomic_load(&((curve_auth_t *)self)->refused_nb);
}

size_t curve_auth_accepted_nb(const curve_auth_t *self)
{
    assert(self);
    return atomic_load(&((curve_auth_t *)self)->accepted_nb);
}

void curve_auth_destroy(curve_auth_t **self_p)
{
    assert(self_p);
    curve_auth_t *self = *self_p;
    if (!self)
        return;
    if (self->thread_started) {
        (void)zmq_send(self->pipe_main, "stop", 4, 0);
        pthread_join(self->thread, NULL);
    }
    if (self->zap)
        zmq_close(self->zap);
    if (self->pipe_main)
        zmq_close(self->pipe_main);
    if (self->pipe_thread)
        zmq_close(self->pipe_thread);
    free(self->keys);
    pthread_mutex_destroy(&self->lock);
    free(self);
    *self_p = NULL;
}
