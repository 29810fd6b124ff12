/* server_status.c: the status of a run (server_priv.h, status.h): the snapshot filled on
 * the loop's thread from the job's row and the peers, rendered, and handed to the HTTP
 * server (serve/status/status_http.h). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game.h"
#include "server_priv.h"
#include "status.h"
#include "status_http.h"
#include "status_proc.h"

enum { STATUS_EVERY_MS = 250 };

static void s_publish(server_t *self, int64_t now, bool final);

int server_set_status(server_t *self, status_http_t *st)
{
    self->status = st;
    if (st == NULL)
        return 0;
    self->observe = s_publish;
    self->snap = calloc(1, sizeof *self->snap);
    if (self->snap == NULL)
        return -1;
    history_init(&self->snap->history);
    return 0;
}

/* What a session is doing: not yet asked for work, holding tasks, waiting for one, or
 * silent (nothing heard for two heartbeat intervals: it may be dying). */
static const char *s_state(const server_t *self, const peer_t *p, int64_t now)
{
    if (now - p->last_recv > 2 * (int64_t)self->opts->heartbeat_ms)
        return "silent";
    if (!p->credited)
        return "joining";
    return p->leased > 0 ? "working" : "idle";
}

static void s_worker(const server_t *self, const peer_t *p, int64_t now, status_worker_t *w)
{
    memcpy(w->name, p->name, sizeof w->name);
    memcpy(w->address, p->address, sizeof w->address);
    memcpy(w->fingerprint, p->fingerprint, sizeof w->fingerprint);
    w->serial = p->serial;
    w->state = s_state(self, p, now);
    w->threads = p->threads;
    w->leased = p->leased;
    w->tasks_done = p->results;
    w->amount = p->amount;
    w->cpu_s = (double)p->cpu_ms / 1000.0;
    w->cpu_known = p->cpu_known;
    w->wall_s = p->wall_s;
    w->refusals = p->refusals;
    w->disagreements = p->disagreements;
    w->connected_at = self->start_wall + (p->since - self->start_ms) / 1000;
    w->connected_s = (double)(now - p->since) / 1000.0;
    w->last_seen_s = (double)(now - p->last_recv) / 1000.0;
}

/* Fills the status snapshot and publishes it, at most every STATUS_EVERY_MS but always when final. */
static void s_publish(server_t *self, int64_t now, bool final)
{
    status_snap_t *s = self->snap;
    if (self->status == NULL || (!final && now < self->next_status_ms))
        return;
    self->next_status_ms = now + STATUS_EVERY_MS;
    server_summary_t sum;
    server_summary(self, &sum);
    memset(&s->progress, 0, sizeof s->progress);
    self->kind->progress(self->job, &s->progress);
    s->kind = self->kind->name;
    s->variant = game_variant_name(self->kind->variant(self->job));
    s->state = self->failed ? STATUS_FAILED : self->kind->finished(self->job) ? STATUS_FINISHED : STATUS_RUNNING;
    s->started_at = self->start_wall;
    s->elapsed_s = (double)(now - self->start_ms) / 1000.0;
    s->cpu_s = sum.cpu_seconds;
    status_proc_memory(&s->rss_bytes, &s->vm_bytes);
    history_add(&s->history, s->elapsed_s, (double)s->progress.amount);
    s->sum = sum;
    s->worker_nb = 0;
    size_t want = peers_count(self->peers);
    if (want > s->worker_cap) {
        size_t cap = want + want / 4 + 16;
        status_snap_t *grown = realloc(s, sizeof *s + cap * sizeof s->workers[0]);
        if (grown != NULL) { /* else this snapshot lists the workers that fit */
            self->snap = s = grown;
            s->worker_cap = cap;
        }
    }
    for (size_t k = 0; k < peers_cap(self->peers) && s->worker_nb < s->worker_cap; k++) {
        const peer_t *p = peers_at(self->peers, k);
        if (!p->used)
            continue;
        s_worker(self, p, now, &s->workers[s->worker_nb++]);
    }
    char *json = status_render_json(s), *metrics = status_render_metrics(s);
    if (json == NULL || metrics == NULL || status_http_publish(self->status, json, metrics) != 0)
        server_error(self, "--http: out of memory; the status served is not the latest");
    free(json);
    free(metrics);
}
