/* serve.h: the oracle's HTTP server (`octad serve`, docs/oracle.md): the
 * routes of serve_routes.h over libmicrohttpd, on a pool of threads, with
 * CORS for GET, ETags from the tables' checksums, limits on connections,
 * request size and idle time. */
#pragma once

#include <stdio.h>

#include "serve_query.h"

typedef struct serve serve_t;

typedef struct {
    const char *tables;        /* table directory */
    serve_listen_t listen;     /* where to listen (port 0: any free port) */
    int threads;               /* worker threads (> 0) */
    int timeout_s;             /* idle connection timeout, seconds (> 0) */
    size_t cache;              /* answers kept (serve_cache.h); 0: none */
    size_t memory;             /* bytes of decompressed records kept (oracle_new); 0: no bound */
    int retry_s;               /* seconds before a table that failed is tried again (> 0) */
    FILE *log;                 /* where failures are logged (stderr) */
} serve_opts_t;

/* Opens the tables and starts listening. NULL with a message in err (the
 * address cannot be bound, out of memory). */
serve_t *serve_new(const serve_opts_t *opts, char *err, size_t errlen);

/* The port it listens on (the one the system chose for port 0). */
int serve_port(const serve_t *self);

/* The oracle's table files and the pieces they cover (for the start message). */
int serve_table_files(const serve_t *self);
int serve_max_pieces(const serve_t *self);

/* Stops listening, waits for requests in flight, frees *self_p, sets it to NULL. */
void serve_destroy(serve_t **self_p);
