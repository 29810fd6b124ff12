/* fuzz_query.c: libFuzzer target for what `octad serve` reads from a client
 * and from its command line. The first byte picks a route (serve_route_find
 * over the five paths, or a path no route has); the rest is a query string,
 * split at '&' into key=value pairs (as libmicrohttpd hands them over, already
 * URL-decoded), and the route's handler answers it over an oracle without
 * tables. Every reply must be 200 or 400 (a 503 needs a table that was there),
 * have a body, and: a 400 is a JSON object with a non-empty "message" and the
 * "field" it names among the parameters the route reads; a JSON 200 parses;
 * an SVG 200 starts with <svg. The same text also goes to
 * serve_listen_parse, which must accept it or say why. */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "serve_query.h"
#include "serve_routes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { S_PAIRS_MAX = 16 };

typedef struct {
    int n;
    char *key[S_PAIRS_MAX], *value[S_PAIRS_MAX];
} s_query_t;

/* The first value of key, as MHD_lookup_connection_value gives it. */
static const char *s_arg(void *request, const char *name)
{
    s_query_t *q = request;
    for (int i = 0; i < q->n; i++)
        if (strcmp(q->key[i], name) == 0)
            return q->value[i];
    return NULL;
}

static void s_split(char *text, s_query_t *q)
{
    q->n = 0;
    for (char *save = NULL, *pair = strtok_r(text, "&", &save); pair && q->n < S_PAIRS_MAX;
         pair = strtok_r(NULL, "&", &save)) {
        char *eq = strchr(pair, '=');
        q->key[q->n] = pair;
        q->value[q->n] = eq ? (*eq = '\0', eq + 1) : pair + strlen(pair);
        q->n++;
    }
}

static void s_check_reply(const serve_reply_t *r)
{
    if (!r->body || r->len == 0 || (r->status != 200 && r->status != 400))
        abort();
    if (r->status == 200 && strcmp(r->type, "image/svg+xml") == 0) {
        if (strncmp(r->body, "<svg", 4) != 0)
            abort();
        return;
    }
    json_error_t jerr;
    json_t *o = json_loadb(r->body, r->len, 0, &jerr);
    if (!o)
        abort(); /* every other body is JSON */
    if (r->status == 400) {
        const char *field = json_string_value(json_object_get(o, "field"));
        const char *message = json_string_value(json_object_get(o, "message"));
        if (!message || !*message || !field ||
            (strcmp(field, "ofen") != 0 && strcmp(field, "flip") != 0 && strcmp(field, "lastmove") != 0))
            abort(); /* an error names the field and the problem */
    }
    json_decref(o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const paths[] = {"/health", "/api/v1/octad", "/api/v1/octad/mainline",
                                        "/api/v1/octad/deployed", "/api/v1/octad/svg", "/nope"};
    static serve_ctx_t ctx;
    if (!ctx.oracle) {
        ctx.oracle = oracle_new("/nonexistent/octad-fuzz-tables", 0);
        ctx.log = serve_log_new(stderr);
        if (!ctx.oracle || !ctx.log)
            abort();
    }
    if (size < 1 || size > 1024)
        return 0;
    char text[1025], copy[1025], err[256] = "";
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    memcpy(copy, text, size);

    serve_listen_t where;
    if (serve_listen_parse(text, &where, err, sizeof err) != 0 && err[0] == '\0')
        abort(); /* a rejection must say why */

    const serve_route_t *route = serve_route_find(paths[data[0] % 6]);
    if (!route)
        return 0;
    if (strcmp(route->path, "/api/v1/octad/deployed") == 0 && data[0] % 64 != 3)
        return 0; /* 144 answers: fuzzed rarely, it reads no parameter */
    s_query_t q;
    s_split(copy, &q);
    serve_reply_t r;
    route->handler(&ctx, s_arg, &q, &r);
    s_check_reply(&r);
    free(r.body);
    return 0;
}
