/* serve_routes.h: the oracle's routes, one row each (path, handler, whether
 * the answer comes from the tables); a handler reads its query through a
 * lookup function and fills a reply, so it knows nothing of HTTP. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "oracle.h"
#include "serve_log.h"

/* A reply: status and body (owned: freed with free()). */
typedef struct {
    int status;
    char *body;
    size_t len;
    const char *type; /* Content-Type */
    bool cache_hit;   /* given from serve_cache.h, not computed */
    int retry_after;  /* > 0: seconds until a failed table is tried again (503: Retry-After) */
} serve_reply_t;

/* What handlers share: the oracle and the log of failures. */
typedef struct {
    oracle_t *oracle;
    serve_log_t *log;
} serve_ctx_t;

/* Looks up a query parameter (URL-decoded) of the request, or NULL. */
typedef const char *(*serve_arg_fn)(void *request, const char *name);

typedef void (*serve_handler_fn)(serve_ctx_t *ctx, serve_arg_fn arg, void *request, serve_reply_t *out);

typedef struct {
    const char *path;
    serve_handler_fn handler;
    bool from_tables; /* the answer depends on the tables: ETag, long caching */
} serve_route_t;

/* The route of a path (exact match), or NULL. */
const serve_route_t *serve_route_find(const char *path);

/* Fills out with a JSON error {"error", "field", "message"} (field may be
 * NULL when the error is about no field). */
void serve_reply_error(serve_reply_t *out, int status, const char *field, const char *message);
