/* wstatus.c: the worker's figures for `worker --http` (wstatus.h). */
#include "wstatus.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log_line.h"
#include "status_history.h"
#include "status_http.h"
#include "status_proc.h"

enum { WSTATUS_EVERY_MS = 250 };

struct wstatus_s {
    wstatus_opts_t o;
    int64_t start_ms, start_wall, next_ms;
    uint64_t answered, refused;
    history_t history; /* tasks answered over time */
};

static int64_t s_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

wstatus_t *wstatus_new(const wstatus_opts_t *o)
{
    if (o->http == NULL)
        return NULL;
    wstatus_t *self = calloc(1, sizeof *self);
    if (self == NULL)
        return NULL;
    self->o = *o;
    self->start_ms = s_now_ms();
    self->start_wall = (int64_t)time(NULL);
    history_init(&self->history);
    return self;
}

void wstatus_answered(wstatus_t *self)
{
    if (self != NULL)
        self->answered++;
}

void wstatus_refused(wstatus_t *self)
{
    if (self != NULL)
        self->refused++;
}

/* The /status object. */
static char *s_json(const wstatus_t *self, const wstatus_now_t *now, double elapsed, double cpu, uint64_t rss,
                    uint64_t vm)
{
    char started[32] = "";
    time_t t = (time_t)self->start_wall;
    struct tm tm;
    if (gmtime_r(&t, &tm) != NULL)
        strftime(started, sizeof started, "%Y-%m-%dT%H:%M:%SZ", &tm);
    const history_t *h = &self->history;
    json_t *points = json_array();
    for (size_t k = 0; points != NULL && k < h->point_nb; k++)
        json_array_append_new(points, json_pack("[f, I]", h->points[k].t, (json_int_t)h->points[k].amount));
    history_sample_t last = history_newest(h);
    if (points != NULL && h->point_nb > 0 && last.t > h->points[h->point_nb - 1].t)
        json_array_append_new(points, json_pack("[f, I]", last.t, (json_int_t)last.amount));
    json_t *root = json_pack(
        "{s:s, s:s, s:s, s:s, s:i, s:i, s:i, s:I, s:s, s:f, s:f, s:{s:I, s:I}, "
        "s:{s:I, s:I, s:I, s:f, s:f, s:f}, s:{s:f, s:o}}",
        "program", "worker", "name", self->o.name, "coordinator", self->o.endpoint, "state", now->state,
        "protocol", (int)now->protocol, "threads", self->o.threads, "prefetch", self->o.prefetch, "sessions",
        (json_int_t)now->sessions, "started_at", started, "elapsed_seconds", elapsed, "cpu_seconds", cpu, "memory",
        "resident_bytes", (json_int_t)rss, "virtual_bytes", (json_int_t)vm, "tasks", "done",
        (json_int_t)self->answered, "refused", (json_int_t)self->refused, "busy", (json_int_t)now->busy,
        "rate_per_second", elapsed > 0 ? (double)self->answered / elapsed : 0.0, "rate_now_per_second",
        history_rate_now(h), "rate_window_seconds", HISTORY_WINDOW_S, "history", "step_seconds", h->step, "points",
        points);
    if (root == NULL)
        return NULL;
    char *text = json_dumps(root, JSON_COMPACT | JSON_REAL_PRECISION(9));
    json_decref(root);
    return text;
}

/* The /metrics text (the exposition format, HELP and TYPE for each). */
static char *s_metrics(const wstatus_t *self, const wstatus_now_t *now, double elapsed, double cpu, uint64_t rss,
                       uint64_t vm)
{
    static const char *const help[][3] = {
        {"octad_worker_tasks_done_total", "counter", "Tasks this worker answered."},
        {"octad_worker_refusals_total", "counter", "Tasks this worker refused."},
        {"octad_worker_tasks_busy", "gauge", "Tasks queued, running or held in its pool."},
        {"octad_worker_tasks_per_second", "gauge", "Tasks answered per second over the last 10 seconds."},
        {"octad_worker_threads", "gauge", "Compute threads."},
        {"octad_worker_sessions_total", "counter", "Sessions the coordinator welcomed."},
        {"octad_worker_active", "gauge", "1 while a coordinator's session is active."},
        {"octad_worker_elapsed_seconds", "gauge", "Seconds since the worker started."},
        {"process_cpu_seconds_total", "counter", "The worker's CPU time (user and system, every thread)."},
        {"process_resident_memory_bytes", "gauge", "The worker's resident memory."},
        {"process_virtual_memory_bytes", "gauge", "The worker's virtual memory."},
    };
    double v[] = {(double)self->answered, (double)self->refused, (double)now->busy,
                  history_rate_now(&self->history), (double)self->o.threads, (double)now->sessions,
                  strcmp(now->state, "active") == 0 ? 1.0 : 0.0, elapsed, cpu, (double)rss, (double)vm};
    size_t cap = 4096, len = 0;
    char *out = malloc(cap);
    for (size_t k = 0; out != NULL && k < sizeof v / sizeof v[0]; k++) {
        int n = snprintf(out + len, cap - len, "# HELP %s %s\n# TYPE %s %s\n%s %.9g\n", help[k][0], help[k][2],
                         help[k][0], help[k][1], help[k][0], v[k]);
        if (n < 0 || (size_t)n >= cap - len) {
            free(out);
            return NULL; /* 4 KiB hold these eleven */
        }
        len += (size_t)n;
    }
    return out;
}

void wstatus_publish(wstatus_t *self, const wstatus_now_t *now, bool force)
{
    if (self == NULL)
        return;
    int64_t t = s_now_ms();
    if (!force && t < self->next_ms)
        return;
    self->next_ms = t + WSTATUS_EVERY_MS;
    double elapsed = (double)(t - self->start_ms) / 1000.0, cpu = status_proc_cpu_seconds();
    uint64_t rss, vm;
    status_proc_memory(&rss, &vm);
    history_add(&self->history, elapsed, (double)self->answered);
    char *json = s_json(self, now, elapsed, cpu, rss, vm), *metrics = s_metrics(self, now, elapsed, cpu, rss, vm);
    if (json == NULL || metrics == NULL || status_http_publish(self->o.http, json, metrics) != 0)
        log_say(LOG_ERROR, self->o.name, "--http: out of memory; the status served is not the latest");
    free(json);
    free(metrics);
}

void wstatus_destroy(wstatus_t **self_p)
{
    free(*self_p);
    *self_p = NULL;
}
