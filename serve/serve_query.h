/* serve_query.h: what `octad serve` reads from outside, checked before use
 * (each an error naming the field): the listen address and the query
 * parameters of its routes. No function here reads a table. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

enum {
    SERVE_OFEN_MAX = 128, /* longest ofen parameter accepted (a real OFEN is under 60) */
    SERVE_URL_MAX = 2048  /* longest request target (path and query) answered */
};

/* Where to listen: an IPv4 or IPv6 address and a port. */
typedef struct {
    struct sockaddr_storage addr;
    socklen_t len;
    char text[64]; /* the address as written, for messages ("127.0.0.1", "[::1]") */
    int port;
} serve_listen_t;

/* Parses "[ADDR:]PORT" (ADDR an IPv4 address, or an IPv6 one in brackets;
 * a port alone listens on 127.0.0.1; PORT 0-65535, 0 = any free port).
 * 0, or -1 with a message naming the problem. */
int serve_listen_parse(const char *text, serve_listen_t *out, char *err, size_t errlen);

/* The ofen parameter: present, not empty, at most SERVE_OFEN_MAX bytes. 0,
 * or -1 with a message (the OFEN itself is checked by the oracle's parser). */
int serve_query_ofen(const char *value, char *err, size_t errlen);

/* The flip parameter: absent or "", "0", "false" (no), "1", "true" (yes). */
int serve_query_flip(const char *value, bool *out, char *err, size_t errlen);

/* The lastmove parameter: absent or "" (none), else a move in UOI ("b1c2",
 * a promotion letter allowed): its two squares (rank * 4 + file) in *from and
 * *to, or -1 each when absent. 0, or -1 with a message. */
int serve_query_lastmove(const char *value, int *from, int *to, char *err, size_t errlen);
