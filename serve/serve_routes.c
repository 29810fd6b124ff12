/* serve_routes.c: the oracle's routes (serve_routes.h): health, a position,
 * the mainline, the deployed starts, the board as SVG. */
#include "serve_routes.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "serve_page.h"
#include "serve_query.h"
#include "svg.h"

static const char S_JSON[] = "application/json";

/* A JSON body (taken: decref'd here) with status; 500 if it cannot be written. */
static void s_reply_json(serve_reply_t *out, int status, json_t *body)
{
    char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
    json_decref(body);
    if (!text) {
        static const char oom[] = "{\"error\":\"out of memory\"}";
        *out = (serve_reply_t){500, strdup(oom), sizeof oom - 1, S_JSON, false, 0};
        return;
    }
    *out = (serve_reply_t){status, text, strlen(text), S_JSON, false, 0};
}

/* message with every byte that is not printable ASCII made '?': a parser's
 * message may quote the client's bytes, and JSON strings must be UTF-8. */
static void s_printable(const char *message, char *out, size_t len)
{
    size_t i = 0;
    for (; message[i] && i + 1 < len; i++)
        out[i] = message[i] >= 0x20 && message[i] < 0x7f ? message[i] : '?';
    out[i] = '\0';
}

/* The JSON of an error {"error", "message"[, "field"]}; NULL out of memory. */
static json_t *s_error_json(const char *field, const char *raw)
{
    char summary[700], message[600];
    s_printable(raw, message, sizeof message);
    snprintf(summary, sizeof summary, "%s%s%s", field ? field : "", field ? ": " : "", message);
    json_t *o = json_pack("{s:s, s:s}", "error", summary, "message", message);
    if (o && field && json_object_set_new(o, "field", json_string(field)) < 0) {
        json_decref(o);
        o = NULL;
    }
    return o;
}

void serve_reply_error(serve_reply_t *out, int status, const char *field, const char *raw)
{
    s_reply_json(out, status, s_error_json(field, raw));
}

/* 503: a table cannot be read; its error says when it is tried again, in
 * its message, in "retry_after" (seconds) and in a Retry-After header. */
static void s_reply_unavailable(serve_reply_t *out, const char *err, int retry_after)
{
    char message[600];
    snprintf(message, sizeof message, "%s (tried again in %d s)", err, retry_after);
    json_t *o = s_error_json(NULL, message);
    if (o && json_object_set_new(o, "retry_after", json_integer(retry_after)) < 0) {
        json_decref(o);
        o = NULL;
    }
    s_reply_json(out, 503, o);
    out->retry_after = out->status == 503 ? retry_after : 0;
}

/* The reply of an oracle call: its answer, or the error it names. */
static void s_reply_oracle(serve_ctx_t *ctx, oracle_status_t rc, json_t *answer, const char *err,
                           serve_reply_t *out)
{
    switch (rc) {
    case ORACLE_OK:
        s_reply_json(out, 200, answer);
        return;
    case ORACLE_BAD_INPUT:
        serve_reply_error(out, 400, "ofen", err);
        return;
    case ORACLE_UNAVAILABLE:
        serve_log_once(ctx->log, "table unavailable (requests that need it answer 503)", err);
        s_reply_unavailable(out, err, oracle_retry_after(ctx->oracle));
        return;
    default:
        serve_reply_error(out, 500, NULL, err);
    }
}

/* The ofen parameter, checked; NULL after an error reply. */
static const char *s_ofen(serve_arg_fn arg, void *request, serve_reply_t *out)
{
    const char *ofen = arg(request, "ofen");
    char err[160];
    if (serve_query_ofen(ofen, err, sizeof err) < 0) {
        serve_reply_error(out, 400, "ofen", err);
        return NULL;
    }
    return ofen;
}

static void s_health(serve_ctx_t *ctx, serve_arg_fn arg, void *request, serve_reply_t *out)
{
    (void)arg;
    (void)request;
    int open;
    size_t open_bytes;
    oracle_tables_open(ctx->oracle, &open, &open_bytes);
    json_t *o = json_pack("{s:s, s:i, s:i, s:i, s:I}", "status", "ok", "table_files", oracle_table_files(ctx->oracle),
                          "max_pieces", oracle_max_pieces(ctx->oracle), "tables_open", open, "tables_open_bytes",
                          (json_int_t)open_bytes);
    size_t bytes, budget;
    unsigned long long blocks, hits, misses;
    json_t *memory = NULL;
    if (o && oracle_memory(ctx->oracle, &bytes, &budget, &blocks, &hits, &misses)
        && (!(memory = json_pack("{s:I, s:I, s:I, s:I, s:I}", "budget_bytes", (json_int_t)budget,
                                             "held_bytes", (json_int_t)bytes, "blocks", (json_int_t)blocks,
                                             "hits", (json_int_t)hits, "misses", (json_int_t)misses))
            || json_object_set_new(o, "memory", memory) < 0)) {
        json_decref(o);
        o = NULL;
    }
    s_reply_json(out, 200, o);
}

/* An answer of the oracle about the ofen parameter's position. */
static void s_about_position(serve_ctx_t *ctx, serve_arg_fn arg, void *request, serve_reply_t *out,
                             oracle_status_t (*answer_fn)(oracle_t *, const char *, json_t **, char *, size_t))
{
    const char *ofen = s_ofen(arg, request, out);
    if (!ofen)
        return;
    json_t *answer = NULL;
    char err[512] = "";
    oracle_status_t rc = answer_fn(ctx->oracle, ofen, &answer, err, sizeof err);
    s_reply_oracle(ctx, rc, answer, err, out);
}

static void s_position(serve_ctx_t *ctx, serve_arg_fn arg, void *request, serve_reply_t *out)
{
    s_about_position(ctx, arg, request, out, oracle_position);
}

static void s_mainline(serve_ctx_t *ctx, serve_arg_fn arg, void *request, serve_reply_t *out)
{
    s_about_position(ctx, arg, request, out, oracle_mainline);
}

static void s_deployed(serve_ctx_t *ctx, serve_arg_fn arg, void *request, serve_reply_t *out)
{
    (void)arg;
    (void)request;
    json_t *answer = NULL;
    char err[512] = "";
    oracle_status_t rc = oracle_deployed(ctx->oracle, &answer, err, sizeof err);
    s_reply_oracle(ctx, rc, answer, err, out);
}

static void s_svg(serve_ctx_t *ctx, serve_arg_fn arg, void *request, serve_reply_t *out)
{
    (void)ctx;
    const char *ofen = s_ofen(arg, request, out);
    if (!ofen)
        return;
    game_pos_t pos;
    char err[256];
    svg_opts_t o = svg_default_opts();
    if (game_parse(VARIANT_OCTAD, ofen, &pos, err, sizeof err) < 0) {
        serve_reply_error(out, 400, "ofen", err);
        return;
    }
    if (serve_query_flip(arg(request, "flip"), &o.flip, err, sizeof err) < 0) {
        serve_reply_error(out, 400, "flip", err);
        return;
    }
    if (serve_query_lastmove(arg(request, "lastmove"), &o.last_from, &o.last_to, err, sizeof err) < 0) {
        serve_reply_error(out, 400, "lastmove", err);
        return;
    }
    char *svg = svg_board(&pos, &o);
    if (!svg) {
        serve_reply_error(out, 500, NULL, "out of memory");
        return;
    }
    *out = (serve_reply_t){200, svg, strlen(svg), "image/svg+xml", false, 0};
}

/* The explorer page (serve/explorer/index.html). */
static void s_page(serve_ctx_t *ctx, serve_arg_fn arg, void *request, serve_reply_t *out)
{
    (void)ctx;
    (void)arg;
    (void)request;
    char *page = malloc(serve_page_len + 1);
    if (!page) {
        serve_reply_error(out, 500, NULL, "out of memory");
        return;
    }
    memcpy(page, serve_page, serve_page_len + 1);
    *out = (serve_reply_t){200, page, serve_page_len, "text/html; charset=utf-8", false, 0};
}

static const serve_route_t s_routes[] = {
    {"/", s_page, false},
    {"/health", s_health, false},
    {"/api/v1/octad", s_position, true},
    {"/api/v1/octad/mainline", s_mainline, true},
    {"/api/v1/octad/deployed", s_deployed, true},
    {"/api/v1/octad/svg", s_svg, false},
};

const serve_route_t *serve_route_find(const char *path)
{
    for (size_t i = 0; i < sizeof s_routes / sizeof s_routes[0]; i++)
        if (strcmp(path, s_routes[i].path) == 0)
            return &s_routes[i];
    return NULL;
}
