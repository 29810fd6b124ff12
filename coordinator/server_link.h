/* server_link.h: the coordinator's connections (private to server*.c): the
 * default socket in a private directory, and connection events. */
#pragma once

typedef struct server_s server_t;

/* Watches the ROUTER's connections (accepted, disconnected) for
 * server_watch_links. Returns 0, or -1 with errno. */
int server_link_watch(server_t *self);

/* Stops watching; closes the event socket. Idempotent. */
void server_link_close(server_t *self);

/* Binds the ROUTER to ipc://DIR/socket in a new private directory (mode 0700):
 * only this user's processes (and root) can connect, unlike an abstract unix
 * socket or loopback TCP, which every local user reaches. 0, or -1 with errno. */
int server_link_bind_local(server_t *self);

/* Removes the socket file and its directory. Idempotent. */
void server_link_unbind_local(server_t *self);
