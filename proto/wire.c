/* wire.c: one OCTP message per ZeroMQ frame, over DEALER (worker) and ROUTER (coordinator) sockets. */
#include "wire.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <zmq.h>

static int s_fail(int rc, char *err, size_t errlen, const char *fmt, ...)
{
    if (errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return rc;
}

static int s_transport(char *err, size_t errlen, const char *what)
{
    int e = errno;
    s_fail(MSG_ETRANSPORT, err, errlen, "%s: %s", what, zmq_strerror(e));
    errno = e;
    return MSG_ETRANSPORT;
}

/* Encodes and sends the payload frame; buf is MSG_MAX_BYTES on the stack (encoded messages stay under 33 KiB). */
static int s_send_payload(void *socket, const msg_t *msg, int flags, char *err, size_t errlen)
{
    uint8_t buf[MSG_MAX_BYTES];
    size_t len = 0;
    if (msg_encode(msg, buf, sizeof(buf), &len, err, errlen) != 0)
        return MSG_EBADMSG;
    if (zmq_send(socket, buf, len, flags) < 0)
        return s_transport(err, errlen, "zmq_send");
    return MSG_OK;
}

int wire_send(void *socket, const msg_t *msg, int flags, char *err, size_t errlen)
{
    return s_send_payload(socket, msg, flags, err, errlen);
}

int wire_send_to(void *router, const wire_peer_t *peer, const msg_t *msg, int flags, char *err, size_t errlen)
{
    return wire_send_to_as(router, peer, msg, 0, flags, err, errlen);
}

int wire_send_to_as(void *router, const wire_peer_t *peer, const msg_t *msg, uint32_t version, int flags, char *err,
                    size_t errlen)
{
    uint8_t buf[MSG_MAX_BYTES];
    size_t len = 0;
    if (peer->len == 0 || peer->len > WIRE_IDENTITY_MAX)
        return s_fail(MSG_EBADMSG, err, errlen, "peer identity of %zu bytes", peer->len);
    /* Encode before sending the identity, so a bad message never leaves a half-sent multipart. */
    if (msg_encode_as(msg, version, buf, sizeof(buf), &len, err, errlen) != 0)
        return MSG_EBADMSG;
    if (zmq_send(router, peer->id, peer->len, flags | ZMQ_SNDMORE) < 0)
        return s_transport(err, errlen, "zmq_send identity");
    if (zmq_send(router, buf, len, flags) < 0)
        return s_transport(err, errlen, "zmq_send payload");
    return MSG_OK;
}

/* Discards the remaining frames of a multipart message; returns how many. */
static int s_drain(void *socket)
{
    int n = 0;
    int more = 1;
    size_t sz = sizeof(more);
    while (zmq_getsockopt(socket, ZMQ_RCVMORE, &more, &sz) == 0 && more) {
        zmq_msg_t part;
        zmq_msg_init(&part);
        if (zmq_msg_recv(&part, socket, 0) < 0) {
            zmq_msg_close(&part);
            break;
        }
        zmq_msg_close(&part);
        n++;
    }
    return n;
}

/* The connection, ZAP user id and peer address of a received frame. */
static void s_meta(zmq_msg_t *frame, wire_meta_t *meta)
{
    if (meta == NULL)
        return;
    const char *uid = zmq_msg_gets(frame, "User-Id"), *addr = zmq_msg_gets(frame, "Peer-Address");
    meta->fd = zmq_msg_get(frame, ZMQ_SRCFD);
    snprintf(meta->user_id, sizeof meta->user_id, "%s", uid != NULL ? uid : "");
    snprintf(meta->address, sizeof meta->address, "%s", addr != NULL ? addr : "");
}

/* Receives the payload frame (the last one) and decodes it. */
static int s_recv_payload(void *socket, wire_meta_t *meta, msg_t *out, const msg_bulk_t *bulk, int flags, char *err,
                          size_t errlen)
{
    zmq_msg_t frame;
    zmq_msg_init(&frame);
    if (zmq_msg_recv(&frame, socket, flags) < 0) {
        zmq_msg_close(&frame);
        return s_transport(err, errlen, "zmq_msg_recv");
    }
    s_meta(&frame, meta);
    int more = zmq_msg_more(&frame);
    int rc = msg_decode(zmq_msg_data(&frame), zmq_msg_size(&frame), out, bulk, err, errlen);
    zmq_msg_close(&frame);
    if (more) {
        int extra = s_drain(socket);
        msg_init(out, MSG_NONE);
        return s_fail(MSG_EBADMSG, err, errlen, "message of %d frames, expected one payload frame", extra + 1);
    }
    return rc;
}

int wire_recv(void *socket, msg_t *out, const msg_bulk_t *bulk, int flags, char *err, size_t errlen)
{
    msg_init(out, MSG_NONE);
    return s_recv_payload(socket, NULL, out, bulk, flags, err, errlen);
}

int wire_recv_from(void *router, wire_peer_t *peer, msg_t *out, const msg_bulk_t *bulk, int flags, char *err,
                   size_t errlen)
{
    return wire_recv_from_meta(router, peer, NULL, out, bulk, flags, err, errlen);
}

int wire_recv_from_meta(void *router, wire_peer_t *peer, wire_meta_t *meta, msg_t *out, const msg_bulk_t *bulk,
                        int flags, char *err, size_t errlen)
{
    msg_init(out, MSG_NONE);
    if (meta != NULL)
        *meta = (wire_meta_t){.fd = -1};
    peer->len = 0;
    zmq_msg_t id;
    zmq_msg_init(&id);
    if (zmq_msg_recv(&id, router, flags) < 0) {
        zmq_msg_close(&id);
        return s_transport(err, errlen, "zmq_msg_recv identity");
    }
    size_t n = zmq_msg_size(&id);
    int more = zmq_msg_more(&id);
    if (n >= 1 && n <= WIRE_IDENTITY_MAX) {
        memcpy(peer->id, zmq_msg_data(&id), n);
        peer->len = n;
    }
    zmq_msg_close(&id);
    if (!more)
        return s_fail(MSG_EBADMSG, err, errlen, "identity frame without payload");
    if (peer->len == 0) {
        s_drain(router);
        return s_fail(MSG_EBADMSG, err, errlen, "identity of %zu bytes", n);
    }
    /* The payload must come at once; the ROUTER delivers whole multipart messages. */
    return s_recv_payload(router, meta, out, bulk, 0, err, errlen);
}

int wire_limit_frames(void *socket)
{
    int64_t max = MSG_MAX_BYTES;
    return zmq_setsockopt(socket, ZMQ_MAXMSGSIZE, &max, sizeof max);
}

int wire_keepalive(void *socket)
{
    int on = 1, idle = WIRE_KEEPALIVE_IDLE_S, intvl = WIRE_KEEPALIVE_INTVL_S, cnt = WIRE_KEEPALIVE_CNT;
    if (zmq_setsockopt(socket, ZMQ_TCP_KEEPALIVE, &on, sizeof on) != 0 ||
        zmq_setsockopt(socket, ZMQ_TCP_KEEPALIVE_IDLE, &idle, sizeof idle) != 0 ||
        zmq_setsockopt(socket, ZMQ_TCP_KEEPALIVE_INTVL, &intvl, sizeof intvl) != 0)
        return -1;
    return zmq_setsockopt(socket, ZMQ_TCP_KEEPALIVE_CNT, &cnt, sizeof cnt);
}
