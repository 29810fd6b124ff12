/* status_http.h: the read-only HTTP server of `coordinator --http` and `worker --http`
 * (docs/status.md): GET (or HEAD) /status and /metrics answer the last texts published, /
 * the program's page that draws them; anything else is 404, another method 405.
 *
 * libmicrohttpd answers on its own thread. The coordinator's event loop renders the two
 * texts from its own state and publishes them (status_http_publish copies them under a
 * mutex); a request copies them under the same mutex. The HTTP side never touches the
 * scheduler, the peers or the sockets. */
#pragma once

#include <stddef.h>

#include "serve_query.h"

typedef struct status_http_s status_http_t;

/* Starts listening on *where (port 0: any free port), serving page (page_len bytes, kept
 * by the caller for the server's life) at /; both texts are empty until the first
 * publish. NULL with a message in err naming the option (`--http`: cannot bind, out of
 * memory). */
status_http_t *status_http_new(const serve_listen_t *where, const char *option, const unsigned char *page,
                               size_t page_len, char *err, size_t errlen);

/* The port it listens on (the one the system chose for port 0). */
int status_http_port(const status_http_t *self);

/* Replaces the answers of GET /status (JSON) and GET /metrics (Prometheus text) with
 * copies of json and metrics (NUL-terminated). 0, or -1 when out of memory (the old
 * texts stay). */
int status_http_publish(status_http_t *self, const char *json, const char *metrics);

/* Stops listening (waits for requests in flight), frees *self_p and NULLs it; safe on NULL. */
void status_http_destroy(status_http_t **self_p);
