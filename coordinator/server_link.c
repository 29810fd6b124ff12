/* server_link.c: the coordinator's connections: the private default socket,
 * and the ROUTER's connection events that bind each session to its connection. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>

#include "server_link.h"
#include "server_priv.h"

int server_link_watch(server_t *self)
{
    char ep[64];
    snprintf(ep, sizeof ep, "inproc://octad-router-links-%p", (void *)self);
    if (zmq_socket_monitor(self->router, ep, ZMQ_EVENT_ACCEPTED | ZMQ_EVENT_DISCONNECTED) != 0)
        return -1;
    self->monitor = zmq_socket(self->ctx, ZMQ_PAIR);
    if (self->monitor == NULL)
        return -1;
    /* libzmq's I/O thread writes the events with a blocking send: were the pipe bounded, a
     * thousand connections accepted at once would fill it and stop that thread, which is the
     * one that moves every worker's messages, so the loop would never hear the messages after
     * which it reads the events (found with 5,000 swarm sessions). No high-water mark on the
     * reading side makes the inproc pipe unbounded; the loop also reads it whenever it wakes. */
    int linger = 0, unbounded = 0;
    zmq_setsockopt(self->monitor, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(self->monitor, ZMQ_RCVHWM, &unbounded, sizeof unbounded);
    if (zmq_connect(self->monitor, ep) != 0)
        return -1;
    return 0;
}

void server_link_close(server_t *self)
{
    if (self->monitor == NULL)
        return;
    zmq_socket_monitor(self->router, NULL, 0);
    zmq_close(self->monitor);
    self->monitor = NULL;
}

/* Forgets every session on connection fd. */
static void s_link_gone(server_t *self, int fd, const char *why)
{
    for (size_t k = 0; k < peers_cap(self->peers); k++) {
        peer_t *p = peers_at(self->peers, k);
        if (p->used && p->fd == fd)
            server_forget(self, p, why);
    }
}

void server_watch_links(server_t *self)
{
    while (self->monitor != NULL) {
        zmq_msg_t ev, addr;
        zmq_msg_init(&ev);
        if (zmq_msg_recv(&ev, self->monitor, ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(&ev);
            return;
        }
        uint16_t event = 0;
        int32_t value = -1;
        if (zmq_msg_size(&ev) >= 6) {
            memcpy(&event, zmq_msg_data(&ev), 2);
            memcpy(&value, (const char *)zmq_msg_data(&ev) + 2, 4);
        }
        bool more = zmq_msg_more(&ev);
        zmq_msg_close(&ev);
        if (more) { /* the second frame: the endpoint */
            zmq_msg_init(&addr);
            zmq_msg_recv(&addr, self->monitor, 0);
            zmq_msg_close(&addr);
        }
        if (event == ZMQ_EVENT_DISCONNECTED)
            s_link_gone(self, value, "its connection closed");
        else if (event == ZMQ_EVENT_ACCEPTED)
            s_link_gone(self, value, "its connection was replaced");
    }
}

/* A private directory for the default socket: under $XDG_RUNTIME_DIR or $TMPDIR
 * or /tmp, mode 0700, so only this user (and root) can reach the socket in it. */
static int s_private_dir(server_t *self)
{
    const char *bases[] = {getenv("XDG_RUNTIME_DIR"), getenv("TMPDIR"), "/tmp"};
    for (size_t k = 0; k < sizeof bases / sizeof bases[0]; k++) {
        if (bases[k] == NULL || bases[k][0] != '/' || strlen(bases[k]) > 64)
            continue;
        snprintf(self->ipc_dir, sizeof self->ipc_dir, "%s/octad-coordinator-XXXXXX", bases[k]);
        if (mkdtemp(self->ipc_dir) != NULL && chmod(self->ipc_dir, 0700) == 0)
            return 0;
    }
    self->ipc_dir[0] = '\0';
    return -1;
}

int server_link_bind_local(server_t *self)
{
    char ep[sizeof self->ipc_path + 8];
    if (s_private_dir(self) != 0)
        return -1;
    snprintf(self->ipc_path, sizeof self->ipc_path, "%s/socket", self->ipc_dir);
    snprintf(ep, sizeof ep, "ipc://%s", self->ipc_path);
    if (zmq_bind(self->router, ep) == 0)
        return 0;
    int e = errno;
    server_link_unbind_local(self);
    errno = e;
    return -1;
}

void server_link_unbind_local(server_t *self)
{
    if (self->ipc_path[0] != '\0')
        unlink(self->ipc_path);
    if (self->ipc_dir[0] != '\0')
        rmdir(self->ipc_dir);
    self->ipc_path[0] = self->ipc_dir[0] = '\0';
}
