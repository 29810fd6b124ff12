/* status_render.c: a status snapshot as JSON (jansson) and as Prometheus text (status.h). */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "json_value.h"
#include "status.h"

static const char *const s_state[] = {"running", "finished", "failed"};

/* Average rate of the amount, and the seconds left at the pace of the units done this run
 * (NULL: none done yet). */
static double s_rate(const status_snap_t *s)
{
    return s->elapsed_s > 0 ? (double)s->progress.amount / s->elapsed_s : 0.0;
}

static json_t *s_eta(const status_snap_t *s)
{
    const job_progress_t *p = &s->progress;
    uint64_t run = p->done > p->loaded ? p->done - p->loaded : 0;
    if (p->done >= p->total)
        return json_real(0.0);
    if (run == 0 || s->elapsed_s <= 0)
        return json_null();
    return json_real(s->elapsed_s * (double)(p->total - p->done) / (double)run);
}

/* A text, or null when empty (no address, no key). */
static json_t *s_text_or_null(const char *text)
{
    return text[0] != '\0' ? json_string(text) : json_null();
}

static json_t *s_workers(const status_snap_t *s)
{
    json_t *a = json_array();
    for (size_t k = 0; a != NULL && k < s->worker_nb; k++) {
        const status_worker_t *w = &s->workers[k];
        json_t *o = json_object();
        json_object_set_new(o, "name", json_value_text(w->name));
        char since[32];
        json_value_iso(w->connected_at, since);
        json_object_set_new(o, "session", json_integer(w->serial));
        json_object_set_new(o, "address", s_text_or_null(w->address));
        json_object_set_new(o, "key_fingerprint", s_text_or_null(w->fingerprint));
        json_object_set_new(o, "state", json_string(w->state));
        json_object_set_new(o, "threads", json_integer(w->threads));
        json_object_set_new(o, "leased", json_integer(w->leased));
        json_object_set_new(o, "tasks_done", json_integer((json_int_t)w->tasks_done));
        json_object_set_new(o, s->progress.amount_noun, json_value_count(w->amount));
        json_object_set_new(o, "cpu_seconds", w->cpu_known ? json_real(w->cpu_s) : json_null());
        json_object_set_new(o, "wall_seconds", json_real(w->wall_s));
        json_object_set_new(o, "refusals", json_integer((json_int_t)w->refusals));
        json_object_set_new(o, "disagreements", json_integer((json_int_t)w->disagreements));
        json_object_set_new(o, "connected_since", json_string(since));
        json_object_set_new(o, "connected_seconds", json_real(w->connected_s));
        json_object_set_new(o, "last_seen_seconds", json_real(w->last_seen_s));
        json_array_append_new(a, o);
    }
    return a;
}

/* The chart's points: {"step_seconds": S, "points": [[seconds, amount], ...]}, the newest
 * sample last; the amounts are whole (a double holds them exactly below 2^53). */
static json_t *s_history(const history_t *h)
{
    json_t *a = json_array();
    for (size_t k = 0; a != NULL && k < h->point_nb; k++)
        json_array_append_new(a, json_pack("[f, I]", h->points[k].t, (json_int_t)h->points[k].amount));
    history_sample_t last = history_newest(h);
    if (a != NULL && h->point_nb > 0 && last.t > h->points[h->point_nb - 1].t)
        json_array_append_new(a, json_pack("[f, I]", last.t, (json_int_t)last.amount));
    return json_pack("{s:f, s:o}", "step_seconds", h->step, "points", a);
}

char *status_render_json(const status_snap_t *s)
{
    const job_progress_t *p = &s->progress;
    json_t *start = json_value_start(p->job_started_at, p->resumed, s->started_at);
    if (start == NULL)
        return NULL;
    json_t *prog = json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:s, s:o, s:f, s:f, s:f, s:o}", "unit",
                             p->unit ? p->unit : "", "done", (json_int_t)p->done, "total", (json_int_t)p->total,
                             "loaded", (json_int_t)p->loaded, "queued", (json_int_t)p->queued, "running",
                             (json_int_t)p->running, "amount_noun", p->amount_noun ? p->amount_noun : "", "amount",
                             json_value_count(p->amount), "rate_per_second", s_rate(s), "rate_now_per_second",
                             history_rate_now(&s->history), "rate_window_seconds", HISTORY_WINDOW_S, "eta_seconds",
                             s_eta(s));
    json_t *counters = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "copies", (json_int_t)s->sum.copies,
                                 "dispatched", (json_int_t)s->sum.dispatched,
                                 "results", (json_int_t)s->sum.results, "duplicates", (json_int_t)s->sum.duplicates,
                                 "requeued", (json_int_t)s->sum.requeued, "dropped", (json_int_t)s->sum.dropped,
                                 "disagreements", (json_int_t)s->sum.disagreements, "worker_sessions",
                                 (json_int_t)s->sum.workers, "table_bytes_sent", (json_int_t)s->sum.table_bytes_sent,
                                 "table_bytes_received", (json_int_t)s->sum.table_bytes_received);
    json_t *memory = json_pack("{s:I, s:I}", "resident_bytes", (json_int_t)s->rss_bytes, "virtual_bytes",
                               (json_int_t)s->vm_bytes);
    json_t *root = json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:O, s:O, s:O, s:f, s:f, s:o, s:o, s:o, s:I, s:o, s:o}",
                             "kind", s->kind, "state", s_state[s->state], "variant", s->variant, "what", p->what,
                             "position", p->position, "depth", p->depth, "started_at",
                             json_object_get(start, "started_at"), "started_at_source",
                             json_object_get(start, "started_at_source"), "resumed_at",
                             json_object_get(start, "resumed_at"), "elapsed_seconds", s->elapsed_s, "cpu_seconds",
                             s->cpu_s, "memory", memory, "progress", prog, "counters", counters, "workers_connected",
                             (json_int_t)s->worker_nb, "workers", s_workers(s), "history", s_history(&s->history));
    json_decref(start);
    if (root == NULL)
        return NULL;
    char *text = json_dumps(root, JSON_COMPACT | JSON_REAL_PRECISION(9));
    json_decref(root);
    if (text == NULL)
        return NULL;
    size_t n = strlen(text); /* a final newline, for people reading it with curl */
    char *out = realloc(text, n + 2);
    if (out == NULL) {
        free(text);
        return NULL;
    }
    memcpy(out + n, "\n", 2);
    return out;
}

/* A growing text. */
typedef struct {
    char *buf;
    size_t len, cap;
    bool oom;
} s_text_t;

static void s_add(s_text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void s_add(s_text_t *t, const char *fmt, ...)
{
    va_list ap;
    for (int tries = 0; tries < 2 && !t->oom; tries++) {
        va_start(ap, fmt);
        int n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->oom = true;
            return;
        }
        if ((size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = (t->cap + (size_t)n) * 2;
        char *b = realloc(t->buf, cap);
        if (b == NULL) {
            t->oom = true;
            return;
        }
        t->buf = b;
        t->cap = cap;
    }
}

/* A metric's HELP and TYPE lines. */
static void s_head(s_text_t *t, const char *name, const char *type, const char *help)
{
    s_add(t, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A label value escaped as the exposition format wants (backslash, quote, newline). */
static void s_label(const char *in, char *out, size_t len)
{
    size_t o = 0;
    for (; *in != '\0' && o + 3 < len; in++) {
        if (*in == '\\' || *in == '"' || *in == '\n') {
            out[o++] = '\\';
            out[o++] = *in == '\n' ? 'n' : *in;
        } else {
            out[o++] = *in;
        }
    }
    out[o] = '\0';
}

/* A sample value: whole numbers in full (counts), others to 9 digits (seconds). */
static void s_value(s_text_t *t, double v)
{
    if (v == (double)(int64_t)v)
        s_add(t, " %.0f\n", v);
    else
        s_add(t, " %.9g\n", v);
}

static void s_one(s_text_t *t, const char *name, const char *type, const char *help, double v)
{
    s_head(t, name, type, help);
    s_add(t, "%s", name);
    s_value(t, v);
}

/* The per-worker series: one row each (value of a session by its column). */
typedef enum { W_TASKS, W_AMOUNT, W_CPU, W_WALL, W_REFUSALS, W_DISAGREEMENTS, W_THREADS, W_LAST_SEEN } s_column_t;

static double s_column(const status_worker_t *w, s_column_t c)
{
    switch (c) {
    case W_TASKS: return (double)w->tasks_done;
    case W_AMOUNT: return (double)w->amount;
    case W_CPU: return w->cpu_s;
    case W_WALL: return w->wall_s;
    case W_REFUSALS: return (double)w->refusals;
    case W_DISAGREEMENTS: return (double)w->disagreements;
    case W_THREADS: return (double)w->threads;
    case W_LAST_SEEN: return w->last_seen_s;
    }
    return 0;
}

/* Per-worker series, labelled by name and session. */
static void s_per_worker(s_text_t *t, const status_snap_t *s, const char *name, const char *type, const char *help,
                         s_column_t which)
{
    char label[2 * MSG_NAME_MAX + 1];
    s_head(t, name, type, help);
    for (size_t k = 0; k < s->worker_nb; k++) {
        const status_worker_t *w = &s->workers[k];
        double v = s_column(w, which);
        s_label(w->name, label, sizeof label);
        s_add(t, "%s{worker=\"%s\",session=\"%u\"}", name, label, w->serial);
        s_value(t, v);
    }
}

char *status_render_metrics(const status_snap_t *s)
{
    const job_progress_t *p = &s->progress;
    s_text_t t = {0};
    char name[96], help[160], what[2 * sizeof p->what], kind[64], variant[64];
    s_label(p->what, what, sizeof what);
    s_label(s->kind, kind, sizeof kind);
    s_label(s->variant, variant, sizeof variant);
    s_head(&t, "octad_job_info", "gauge", "The job this coordinator runs (1), its kind, variant and what it computes.");
    s_add(&t, "octad_job_info{kind=\"%s\",variant=\"%s\",what=\"%s\",unit=\"%s\",state=\"%s\"} 1\n", kind, variant,
          what, p->unit ? p->unit : "", s_state[s->state]);
    s_one(&t, "octad_job_finished", "gauge", "1 once every unit of work is done, else 0.",
          s->state == STATUS_FINISHED);
    s_one(&t, "octad_start_time_seconds", "gauge", "Unix time the run began.", (double)s->started_at);
    s_one(&t, "octad_elapsed_seconds", "gauge", "Seconds since the run began.", s->elapsed_s);
    s_one(&t, "octad_tasks", "gauge", "Units of work (tasks, or pairs for solve) in the job.", (double)p->total);
    s_one(&t, "octad_tasks_done_total", "counter", "Units of work done, the journal's included.", (double)p->done);
    s_one(&t, "octad_tasks_loaded", "gauge", "Units of work found done when the run began (journal, tables).",
          (double)p->loaded);
    s_one(&t, "octad_tasks_queued", "gauge", "Units of work waiting for a worker.", (double)p->queued);
    s_one(&t, "octad_tasks_running", "gauge", "Units of work leased to workers.", (double)p->running);
    snprintf(name, sizeof name, "octad_%s_total", p->amount_noun ? p->amount_noun : "work");
    snprintf(help, sizeof help, "%s counted by the units done this run.", p->amount_noun ? p->amount_noun : "work");
    s_one(&t, name, "counter", help, (double)p->amount);
    snprintf(name, sizeof name, "octad_%s_per_second", p->amount_noun ? p->amount_noun : "work");
    snprintf(help, sizeof help, "%s per second over the last %.0f seconds (the rate now).",
             p->amount_noun ? p->amount_noun : "work", HISTORY_WINDOW_S);
    s_one(&t, name, "gauge", help, history_rate_now(&s->history));
    s_one(&t, "octad_tasks_dispatched_total", "counter", "Task messages sent to workers.", (double)s->sum.dispatched);
    s_one(&t, "octad_results_total", "counter", "Answers accepted.", (double)s->sum.results);
    s_one(&t, "octad_results_duplicate_total", "counter", "Answers to units already done (dropped).",
          (double)s->sum.duplicates);
    s_one(&t, "octad_task_requeues_total", "counter", "Leases ended by expiry, a worker's death, handback or refusal.",
          (double)s->sum.requeued);
    s_one(&t, "octad_task_copies_total", "counter", "Copies of running tasks given to idle workers (stragglers).",
          (double)s->sum.copies);
    s_one(&t, "octad_messages_dropped_total", "counter", "Malformed, unexpected or foreign messages dropped.",
          (double)s->sum.dropped);
    s_one(&t, "octad_disagreements_total", "counter", "Verify: answers that differed.", (double)s->sum.disagreements);
    s_one(&t, "octad_worker_sessions_total", "counter", "Worker sessions welcomed.", (double)s->sum.workers);
    s_one(&t, "octad_table_bytes_sent_total", "counter", "Bytes of table files sent to workers (solve).",
          (double)s->sum.table_bytes_sent);
    s_one(&t, "octad_table_bytes_received_total", "counter", "Bytes of table files taken from workers (solve).",
          (double)s->sum.table_bytes_received);
    s_one(&t, "octad_workers_connected", "gauge", "Worker sessions connected now.", (double)s->worker_nb);
    s_per_worker(&t, s, "octad_worker_tasks_done_total", "counter", "Answers accepted from the worker session.",
                 W_TASKS);
    snprintf(name, sizeof name, "octad_worker_%s_total", p->amount_noun ? p->amount_noun : "work");
    snprintf(help, sizeof help, "%s of the worker session's answers that passed the checks.",
             p->amount_noun ? p->amount_noun : "work");
    s_per_worker(&t, s, name, "counter", help, W_AMOUNT);
    s_per_worker(&t, s, "octad_worker_cpu_seconds_total", "counter",
                 "CPU time the worker session's accepted answers report.", W_CPU);
    s_per_worker(&t, s, "octad_worker_compute_seconds_total", "counter",
                 "Wall time the worker session's accepted answers report.", W_WALL);
    s_per_worker(&t, s, "octad_worker_refusals_total", "counter", "Tasks the worker session refused.", W_REFUSALS);
    s_per_worker(&t, s, "octad_worker_disagreements_total", "counter",
                 "Verify: the worker session's answers that differed from another worker's.", W_DISAGREEMENTS);
    s_per_worker(&t, s, "octad_worker_threads", "gauge", "Threads the worker session declared.", W_THREADS);
    s_per_worker(&t, s, "octad_worker_last_seen_seconds", "gauge",
                 "Seconds since the worker session's last message (heartbeat or other).", W_LAST_SEEN);
    s_one(&t, "process_cpu_seconds_total", "counter", "The coordinator's own CPU time (user and system).", s->cpu_s);
    s_one(&t, "process_resident_memory_bytes", "gauge", "The coordinator's resident memory.", (double)s->rss_bytes);
    s_one(&t, "process_virtual_memory_bytes", "gauge", "The coordinator's virtual memory.", (double)s->vm_bytes);
    if (t.oom) {
        free(t.buf);
        return NULL;
    }
    return t.buf;
}
