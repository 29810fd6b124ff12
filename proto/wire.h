/* wire.h: sending and receiving one OCTP message per ZeroMQ frame (DEALER side and ROUTER side). */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "msg.h"

/* A ROUTER peer identity (ZeroMQ identities are 1..255 bytes). */
enum { WIRE_IDENTITY_MAX = 255 };

typedef struct {
    size_t len;
    uint8_t id[WIRE_IDENTITY_MAX];
} wire_peer_t;

/* Where a received message came from, beyond its identity: the connection
 * (its file descriptor inside libzmq, -1 for inproc), the ZAP User-Id (the
 * CURVE client's Z85 public key; empty without ZAP) and the peer's IP address
 * as libzmq gives it (tcp only; empty otherwise). A routing identity can be
 * claimed by any new connection once the old one is gone; the connection and
 * the key cannot. */
enum { WIRE_USER_ID_MAX = 64, WIRE_ADDRESS_MAX = 64 };

typedef struct {
    int fd;
    char user_id[WIRE_USER_ID_MAX];
    char address[WIRE_ADDRESS_MAX];
} wire_meta_t;

/* Sends msg as one frame on a DEALER socket. flags: 0 or ZMQ_DONTWAIT.
 * Returns MSG_OK, MSG_EBADMSG if msg does not encode (err says why; nothing
 * sent), or MSG_ETRANSPORT with errno from zmq_send (EAGAIN, ETERM, EINTR ...). */
int wire_send(void *socket, const msg_t *msg, int flags, char *err, size_t errlen);

/* Sends [peer identity][msg] on a ROUTER socket; results as wire_send
 * (with ZMQ_ROUTER_MANDATORY an unknown peer gives MSG_ETRANSPORT, errno EHOSTUNREACH). */
int wire_send_to(void *router, const wire_peer_t *peer, const msg_t *msg, int flags, char *err, size_t errlen);

/* wire_send_to in envelope version `version` (0: msg->version). */
int wire_send_to_as(void *router, const wire_peer_t *peer, const msg_t *msg, uint32_t version, int flags, char *err,
                    size_t errlen);

/* Receives one message on a DEALER socket into *out, its bulk fields into
 * bulk (msg_decode; may be NULL). flags: 0 or ZMQ_DONTWAIT.
 * Returns MSG_OK; MSG_EBADMSG or MSG_EVERSION if a message arrived but is
 * malformed, multi-frame, too long for bulk or of another version (it is
 * consumed and dropped, err says why, out->type is MSG_NONE); or
 * MSG_ETRANSPORT with errno set. */
int wire_recv(void *socket, msg_t *out, const msg_bulk_t *bulk, int flags, char *err, size_t errlen);

/* Receives [identity][payload] on a ROUTER socket: fills *peer (also on
 * MSG_EBADMSG/MSG_EVERSION when the identity frame was read, else peer->len
 * is 0) and *out. Results as wire_recv. */
int wire_recv_from(void *router, wire_peer_t *peer, msg_t *out, const msg_bulk_t *bulk, int flags, char *err,
                   size_t errlen);

/* wire_recv_from that also fills *meta (fd -1 and an empty user id when unknown). */
int wire_recv_from_meta(void *router, wire_peer_t *peer, wire_meta_t *meta, msg_t *out, const msg_bulk_t *bulk,
                        int flags, char *err, size_t errlen);

/* Caps every frame a socket accepts at MSG_MAX_BYTES (ZMQ_MAXMSGSIZE): libzmq
 * then drops a connection that announces a larger frame before reading it.
 * Call before bind/connect. Returns 0, or -1 with errno. */
int wire_limit_frames(void *socket);

/* TCP keepalive on every tcp:// connection of a socket (docs/bad-networks.md, "Keepalive"): a
 * connection idle for WIRE_KEEPALIVE_IDLE_S seconds is probed every WIRE_KEEPALIVE_INTVL_S
 * seconds, and after WIRE_KEEPALIVE_CNT probes unanswered the kernel closes it. So a peer
 * that vanished without a FIN or a reset (powered off, cut off by a partition, forgotten by a
 * NAT) frees its connection within a minute once nothing is sent on it, and a NAT sees the
 * probes of an idle connection. Sessions do not wait for this: heartbeats end them sooner.
 * Call before bind/connect. Returns 0, or -1 with errno. */
enum { WIRE_KEEPALIVE_IDLE_S = 30, WIRE_KEEPALIVE_INTVL_S = 10, WIRE_KEEPALIVE_CNT = 3 };
int wire_keepalive(void *socket);
