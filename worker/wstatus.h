/* wstatus.h: `worker --http` (docs/status.md, "One worker"): the worker's own figures (its
 * session, its tasks and their rate, threads, memory, CPU) published to the status server
 * (serve/status/status_http.h) from the I/O thread, as JSON for GET /status and Prometheus
 * text for GET /metrics. A service object; every function takes NULL (no --http) and does
 * nothing then. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct wstatus_s wstatus_t;
typedef struct status_http_s status_http_t;

/* What the worker is, fixed for its life: the server is the caller's (it outlives this). */
typedef struct {
    status_http_t *http;
    const char *name, *endpoint;
    int threads, prefetch;
} wstatus_opts_t;

/* What changes, read by the I/O thread at each publish. */
typedef struct {
    const char *state;  /* "connecting", "hello" (waiting for WELCOME), "active" */
    uint32_t protocol;  /* the version of its HELLO (the session's once active) */
    uint64_t sessions;  /* sessions welcomed so far */
    size_t busy;        /* tasks queued, running or held in its pool */
} wstatus_now_t;

/* NULL when http is NULL or out of memory. */
wstatus_t *wstatus_new(const wstatus_opts_t *o);

/* A task answered (its answer sent), a task refused. */
void wstatus_answered(wstatus_t *self);
void wstatus_refused(wstatus_t *self);

/* Publishes the figures if 250 ms passed since the last time (or force: the end). */
void wstatus_publish(wstatus_t *self, const wstatus_now_t *now, bool force);

/* Frees *self_p (not the server) and NULLs it; safe on NULL. */
void wstatus_destroy(wstatus_t **self_p);
