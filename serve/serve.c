/* serve.c: the HTTP side of `octad serve` (serve.h): methods, routes,
 * headers (CORS, ETag, caching), limits, over libmicrohttpd. */
#include "serve.h"

#include <microhttpd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "serve_cache.h"
#include "serve_routes.h"

struct serve {
    struct MHD_Daemon *daemon;
    serve_ctx_t ctx;
    serve_cache_t *cache;
    int port;
};

enum {
    S_MEMORY_LIMIT = 16 * 1024, /* bytes a connection may use: a longer request head is refused (MHD: 414/431) */
    S_CONNECTIONS_MAX = 16384,
    S_MAX_AGE = 86400           /* seconds: answers change only with the tables (the ETag says when) */
};

static const char S_ALLOWED[] = "GET, HEAD, OPTIONS";

static const char *s_arg(void *request, const char *name)
{
    return MHD_lookup_connection_value(request, MHD_GET_ARGUMENT_KIND, name);
}

/* Adds the length of one query parameter (MHD_get_connection_values visitor). */
static enum MHD_Result s_count_arg(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    (void)kind;
    *(size_t *)cls += strlen(key) + (value ? strlen(value) : 0) + 2;
    return MHD_YES;
}

/* Whether the ETag the client holds (If-None-Match) is the current one. */
static bool s_fresh(struct MHD_Connection *c, const char *etag)
{
    const char *held = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH);
    return held && (strcmp(held, "*") == 0 || strstr(held, etag));
}

/* Sends r (its body is taken) with the headers every answer carries. */
static enum MHD_Result s_send(serve_t *self, struct MHD_Connection *c, serve_reply_t *r, const serve_route_t *route)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(r->len, r->body, MHD_RESPMEM_MUST_FREE);
    if (!resp) {
        free(r->body);
        return MHD_NO;
    }
    MHD_add_response_header(resp, "Access-Control-Allow-Origin", "*");
    if (r->type)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, r->type);
    char cache[64];
    if (route && route->from_tables && (r->status == 200 || r->status == 304)) {
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ETAG, oracle_etag(self->ctx.oracle));
        MHD_add_response_header(resp, "Access-Control-Expose-Headers", "ETag");
    }
    if (route && r->status < 300 && strcmp(route->path, "/health") != 0) {
        snprintf(cache, sizeof cache, "public, max-age=%d", S_MAX_AGE);
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, cache);
    } else {
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    }
    if (r->type && strncmp(r->type, "text/html", 9) == 0) /* the page: nothing from elsewhere */
        MHD_add_response_header(resp, "Content-Security-Policy",
                                "default-src 'self'; script-src 'self' 'unsafe-inline'; "
                                "style-src 'self' 'unsafe-inline'; img-src 'self'");
    if (route && route->from_tables && r->status == 200)
        MHD_add_response_header(resp, "X-Octad-Cache", r->cache_hit ? "hit" : "miss");
    if (r->retry_after > 0) {
        char secs[24];
        snprintf(secs, sizeof secs, "%d", r->retry_after);
        MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, secs);
    }
    if (r->status == 405)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, S_ALLOWED);
    if (r->status == 204) {
        MHD_add_response_header(resp, "Access-Control-Allow-Methods", S_ALLOWED);
        MHD_add_response_header(resp, "Access-Control-Allow-Headers", "If-None-Match");
        MHD_add_response_header(resp, "Access-Control-Max-Age", "86400");
    }
    enum MHD_Result rc = MHD_queue_response(c, (unsigned)r->status, resp);
    MHD_destroy_response(resp);
    return rc;
}

/* A route's answer from the tables: from the cache, or computed and kept. */
static void s_answer_cached(serve_t *self, struct MHD_Connection *c, const serve_route_t *route, serve_reply_t *r)
{
    const char *ofen = s_arg(c, "ofen");
    char key[SERVE_URL_MAX + 64];
    snprintf(key, sizeof key, "%s?%s", route->path, ofen ? ofen : "");
    *r = (serve_reply_t){200, NULL, 0, "application/json", true, 0};
    if (serve_cache_get(self->cache, key, &r->body, &r->len))
        return;
    route->handler(&self->ctx, s_arg, c, r);
    if (r->status == 200)
        serve_cache_put(self->cache, key, r->body, r->len);
}

/* The reply to one request, before the headers are added. */
static const serve_route_t *s_route(serve_t *self, struct MHD_Connection *c, const char *url, const char *method,
                                    serve_reply_t *r)
{
    const serve_route_t *route = serve_route_find(url);
    bool get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    size_t query = strlen(url);
    MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, s_count_arg, &query);
    char msg[256];
    if (query > SERVE_URL_MAX) {
        snprintf(msg, sizeof msg, "the request target is longer than %d bytes", SERVE_URL_MAX);
        serve_reply_error(r, 414, NULL, msg);
    } else if (!route) {
        snprintf(msg, sizeof msg, "no such path: %.100s (see /api/v1/octad, /health)", url);
        serve_reply_error(r, 404, NULL, msg);
    } else if (strcmp(method, "OPTIONS") == 0) {
        *r = (serve_reply_t){204, NULL, 0, NULL, false, 0};
    } else if (!get) {
        snprintf(msg, sizeof msg, "method %.20s is not allowed (%s)", method, S_ALLOWED);
        serve_reply_error(r, 405, NULL, msg);
    } else if (route->from_tables && s_fresh(c, oracle_etag(self->ctx.oracle))) {
        *r = (serve_reply_t){304, NULL, 0, NULL, false, 0};
    } else if (route->from_tables) {
        s_answer_cached(self, c, route, r);
    } else {
        route->handler(&self->ctx, s_arg, c, r);
    }
    return route;
}

/* MHD calls this once when the request head is in, then with each piece of
 * a body, then once more with none: answering at that last call (the whole
 * request read) lets the connection be kept alive for the next request. */
static enum MHD_Result s_access(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                const char *version, const char *upload_data, size_t *upload_size, void **state)
{
    static int started;
    (void)version;
    (void)upload_data;
    if (!*state) {
        *state = &started;
        return MHD_YES;
    }
    if (*upload_size) {
        *upload_size = 0; /* a body is read and dropped: no route takes one */
        return MHD_YES;
    }
    serve_reply_t r;
    const serve_route_t *route = s_route(cls, c, url, method, &r);
    return s_send(cls, c, &r, route);
}

/* Connections allowed at once: what the descriptor limit leaves, at most S_CONNECTIONS_MAX. */
static unsigned s_connections(void)
{
    struct rlimit rl;
    rlim_t n = getrlimit(RLIMIT_NOFILE, &rl) == 0 ? rl.rlim_cur : 1024;
    n = n > 128 ? n - 64 : 64;
    return n > S_CONNECTIONS_MAX ? S_CONNECTIONS_MAX : (unsigned)n;
}

serve_t *serve_new(const serve_opts_t *opts, char *err, size_t errlen)
{
    serve_t *self = calloc(1, sizeof *self);
    if (!self || !(self->ctx.oracle = oracle_new(opts->tables, opts->memory)) || !(self->ctx.log = serve_log_new(opts->log)) ||
        !(self->cache = serve_cache_new(opts->cache))) {
        snprintf(err, errlen, "out of memory");
        serve_destroy(&self);
        return NULL;
    }
    oracle_set_retry(self->ctx.oracle, opts->retry_s);
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_TURBO;
    if (opts->listen.addr.ss_family == AF_INET6)
        flags |= MHD_USE_IPv6;
    self->daemon = MHD_start_daemon(
        flags, (uint16_t)opts->listen.port, NULL, NULL, s_access, self, MHD_OPTION_SOCK_ADDR, &opts->listen.addr,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned)(opts->threads > 1 ? opts->threads : 0), MHD_OPTION_CONNECTION_LIMIT,
        s_connections(), MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)opts->timeout_s, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
        (size_t)S_MEMORY_LIMIT, MHD_OPTION_END);
    if (!self->daemon) {
        snprintf(err, errlen, "cannot listen on %s:%d (address in use, or not this machine's?)", opts->listen.text,
                 opts->listen.port);
        serve_destroy(&self);
        return NULL;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(self->daemon, MHD_DAEMON_INFO_BIND_PORT);
    self->port = info ? info->port : opts->listen.port;
    return self;
}

int serve_port(const serve_t *self) { return self->port; }

int serve_table_files(const serve_t *self) { return oracle_table_files(self->ctx.oracle); }

int serve_max_pieces(const serve_t *self) { return oracle_max_pieces(self->ctx.oracle); }

void serve_destroy(serve_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    serve_t *self = *self_p;
    if (self->daemon)
        MHD_stop_daemon(self->daemon);
    oracle_destroy(&self->ctx.oracle);
    serve_log_destroy(&self->ctx.log);
    serve_cache_destroy(&self->cache);
    free(self);
    *self_p = NULL;
}
