/* ssolve_server.c: the solve kind's task life cycle (kind.h, the row in kind_solve.c;
 * proto/PROTOCOL.md section 11): leasing pairs, serving and pulling table files,
 * verification, expiry, the stall check and the progress line. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log_line.h"
#include "report.h"
#include "server_priv.h"
#include "sig.h"
#include "ssolve.h"

enum { TTY_PROGRESS_MS = 250, LOG_PROGRESS_MS = 5000 };

static ssolve_t *s_of(const server_t *self)
{
    return self->job;
}

/* Whether pair state st is leased to a worker. */
static bool s_leased(sdag_state_t st)
{
    return st == SDAG_SOLVING || st == SDAG_PULLING || st == SDAG_CHECKING;
}

/* The peer a transfer talks to. */
typedef struct {
    server_t *server;
    const wire_peer_t *id;
} s_link_t;

static int s_link_send(void *ctx, const msg_t *m)
{
    s_link_t *l = ctx;
    return server_send(l->server, l->id, m);
}

/* Fills refs (capacity MSG_NEEDS_MAX) with pair i's child tables as they are in DIR. */
static int s_needs(server_t *self, int i, msg_tableref_t *refs, uint32_t *n)
{
    ssolve_t *s = s_of(self);
    const sdag_pair_t *p = &s->g.pairs[i];
    char err[600];
    *n = 0;
    for (int c = 0; c < p->nchildren && *n < MSG_NEEDS_MAX; c++) {
        char name[SIG_NAME_MAX];
        sig_table_name(p->children[c], name, sizeof name);
        if (xfer_file_ref(s->dir, name, &refs[(*n)++], err, sizeof err) != 0) {
            server_fail(self, "pair %s needs %s, whose pair is done, but: %s", p->name, name, err);
            return -1;
        }
    }
    return 0;
}

/* The pair's own files as they are in DIR (VERIFY's tables). */
static int s_own(server_t *self, int i, msg_tableref_t *refs, uint32_t *n)
{
    ssolve_t *s = s_of(self);
    const sdag_pair_t *p = &s->g.pairs[i];
    char err[600];
    *n = 0;
    for (int k = 0; k < p->ntables; k++) {
        char name[SIG_NAME_MAX];
        sig_table_name(p->tables[k], name, sizeof name);
        if (xfer_file_ref(s->dir, name, &refs[(*n)++], err, sizeof err) != 0) {
            server_fail(self, "pair %s: %s", p->name, err);
            return -1;
        }
    }
    return 0;
}

/* Whether p is one of this coordinator's own local workers (spawn.c names
 * them local-<i>-<coordinator pid>): they share this machine's memory. */
static bool s_local(server_t *self, const peer_t *p)
{
    const char *name = peers_name_of(self->peers, p->name_id);
    int index, end = 0;
    long pid;
    return sscanf(name, "local-%d-%ld%n", &index, &pid, &end) == 2 && name[end] == '\0' && pid == (long)getpid();
}

void ssolve_dispatch(server_t *self, void *job, peer_t *p)
{
    (void)job;
    ssolve_t *s = s_of(self);
    static msg_t m;
    if (p->version < 2 || p->leased > 0 || p->credit == 0 || self->failed)
        return;
    /* A remote worker refuses what its --memory cannot hold (REFUSE MEMORY);
     * the local workers together stay within this machine's budget. */
    bool local = s_local(self, p);
    uint64_t held = sdag_held(&s->g), mem_free = UINT64_MAX;
    if (local && held > 0) /* alone, any pair may run, as in octad solve */
        mem_free = held < s->local_memory ? s->local_memory - held : 0;
    int i = sdag_pick(&s->g, p->name_id, self->opts->verify, mem_free);
    if (i < 0)
        return;
    sdag_pair_t *pr = &s->g.pairs[i];
    pr->held = local ? pr->memory : 0;
    bool check = pr->state == SDAG_CHECK_READY;
    msg_init(&m, check ? MSG_VERIFY : MSG_SOLVE);
    int rc = check ? s_needs(self, i, m.u.verify.needs, &m.u.verify.n_needs) |
                         s_own(self, i, m.u.verify.tables, &m.u.verify.n_tables)
                   : s_needs(self, i, m.u.solve.needs, &m.u.solve.n_needs);
    if (rc != 0)
        return;
    int64_t now = server_now_ms();
    uint64_t id = sdag_lease(&s->g, i, p->serial, now + self->opts->lease_ms);
    if (check) {
        m.u.verify.task_id = id, m.u.verify.job_id = s->job_id, m.u.verify.lease_ms = self->opts->lease_ms;
        snprintf(m.u.verify.pair, sizeof m.u.verify.pair, "%s", pr->name);
        snprintf(m.u.verify.dir_id, sizeof m.u.verify.dir_id, "%s", s->dir_id);
    } else {
        m.u.solve.task_id = id, m.u.solve.job_id = s->job_id, m.u.solve.lease_ms = self->opts->lease_ms;
        snprintf(m.u.solve.pair, sizeof m.u.solve.pair, "%s", pr->name);
        snprintf(m.u.solve.dir_id, sizeof m.u.solve.dir_id, "%s", s->dir_id);
    }
    if (server_send(self, &p->id, &m) != 0) {
        sdag_release(&s->g, i);
        return;
    }
    server_count_dispatch(self, p, now);
    server_log(self, "%s %s on worker %s (task %llu)", check ? "verifying" : "solving", pr->name,
               peers_name_of(self->peers, p->name_id), (unsigned long long)id);
}

/* Pair i's pull (if any) stops. */
static void s_drop_pull(ssolve_t *s, int i)
{
    if (s->pulls[i] == NULL)
        return;
    if (s->pulls[i]->on)
        xfer_abort(&s->pulls[i]->x);
    free(s->pulls[i]);
    s->pulls[i] = NULL;
}

/* Back to the queue: lease lost, refused, handed back or failed (expired: lease.h's rule 1). */
static void s_requeue_as(server_t *self, int i, bool expired)
{
    s_drop_pull(s_of(self), i);
    if (expired)
        sdag_expire(&s_of(self)->g, i);
    else
        sdag_release(&s_of(self)->g, i);
    s_of(self)->requeued++;
    self->sum.requeued++;
}

static void s_requeue(server_t *self, int i)
{
    s_requeue_as(self, i, false);
}

size_t ssolve_forget(server_t *self, void *job, peer_t *p)
{
    (void)job;
    ssolve_t *s = s_of(self);
    size_t n = 0;
    for (int i = 0; i < s->g.n; i++) {
        if (s->g.pairs[i].serial == p->serial && s_leased(s->g.pairs[i].state)) {
            s_requeue(self, i);
            n++;
        }
    }
    return n;
}

/* Pair i's files are in DIR: done, or (--verify) waiting for another worker to check them. */
static void s_arrived(server_t *self, int i, const peer_t *maker)
{
    ssolve_t *s = s_of(self);
    sdag_pair_t *pr = &s->g.pairs[i];
    s_drop_pull(s, i);
    s->solved++;
    pr->serial = 0;
    pr->maker = maker->name_id;
    if (self->opts->verify) {
        pr->state = SDAG_CHECK_READY;
        server_log(self, "pair %s made by worker %s; waiting for its verification", pr->name,
                   peers_name_of(self->peers, maker->name_id));
        return;
    }
    sdag_done(&s->g, i);
    self->last_result_ms = server_now_ms();
    server_log(self, "pair %s done (made by worker %s); %d of %d pairs", pr->name,
               peers_name_of(self->peers, maker->name_id), s->g.done, s->g.n);
}

/* Starts pulling the next file of pair i, or it has arrived. */
static void s_pull_next(server_t *self, peer_t *p, int i)
{
    ssolve_t *s = s_of(self);
    ssolve_pull_t *pl = s->pulls[i];
    char err[600];
    s_link_t link = {self, &p->id};
    if (pl->cur == pl->n) {
        if (ssolve_check_files(s, i, pl->refs, pl->n, err, sizeof err) != 0) {
            server_error(self, "pair %s from worker %s refused (its files are set aside as .rejected): %s",
                         s->g.pairs[i].name, p->name, err);
            ssolve_reject_files(s, i); /* a later run must not take them for done */
            snprintf(s->last_refusal, sizeof s->last_refusal, "bad files of pair %.40s from worker %.63s: %.150s",
                     s->g.pairs[i].name, p->name, err);
            sdag_avoid(&s->g, i, p->name_id);
            s_requeue(self, i);
            return;
        }
        s_arrived(self, i, p);
        return;
    }
    if (xfer_start(&pl->x, s->dir, &pl->refs[pl->cur], false, err, sizeof err) != 0 ||
        xfer_pump(&pl->x, s_link_send, &link) != 0) {
        server_error(self, "pair %s from worker %s: %s", s->g.pairs[i].name, p->name, err);
        s_requeue(self, i);
        return;
    }
    pl->on = true;
}

/* The pair an answer is for: leased to this session in state `want`, or a late answer
 * to take (lease.h, rule 1), else dropped (-1). */
static int s_answered(server_t *self, peer_t *p, uint64_t job_id, uint64_t task_id, sdag_state_t want,
                      const char *what)
{
    ssolve_t *s = s_of(self);
    if (job_id != s->job_id) {
        server_drop(self, DROP_OTHER_JOB, what);
        return -1;
    }
    int i = sdag_by_task(&s->g, task_id, p->serial);
    if (i < 0)
        i = sdag_take_late(&s->g, task_id, p->serial, want, server_now_ms() + self->opts->lease_ms);
    else if (s->g.pairs[i].state != want)
        i = -1;
    if (i < 0)
        server_drop(self, DROP_NOT_LEASED, what);
    return i;
}

static void s_on_solved(server_t *self, peer_t *p, const msg_solved_t *r)
{
    ssolve_t *s = s_of(self);
    char err[600];
    int i = s_answered(self, p, r->job_id, r->task_id, SDAG_SOLVING, "SOLVED for a pair not being solved by it");
    if (i < 0)
        return;
    sdag_pair_t *pr = &s->g.pairs[i];
    bool ok = (int)r->n_tables == pr->ntables;
    for (int k = 0; ok && k < pr->ntables; k++) {
        char name[SIG_NAME_MAX];
        sig_table_name(pr->tables[k], name, sizeof name);
        ok = strcmp(name, r->tables[k].name) == 0 && r->tables[k].size > 0 && r->tables[k].size <= XFER_FILE_MAX;
    }
    if (!ok) {
        server_error(self, "worker %s: SOLVED for %s names other tables or sizes; pair back in the queue", p->name,
                     pr->name);
        s_requeue(self, i);
        return;
    }
    s->positions += r->positions;
    p->amount += r->positions;
    self->sum.worker_seconds += (double)r->elapsed_ms / 1000.0;
    pr->state = SDAG_PULLING;
    if (r->in_shared) {
        if (ssolve_check_files(s, i, r->tables, (int)r->n_tables, err, sizeof err) == 0) {
            s_arrived(self, i, p);
            return;
        }
        server_error(self, "pair %s from worker %s: not in the shared directory as announced (%s); "
                     "fetching it", pr->name, p->name, err);
    }
    ssolve_pull_t *pl = calloc(1, sizeof *pl);
    if (pl == NULL) {
        server_fail(self, "out of memory");
        return;
    }
    memcpy(pl->refs, r->tables, sizeof pl->refs);
    pl->n = (int)r->n_tables;
    s->pulls[i] = pl;
    s_pull_next(self, p, i);
}

static void s_on_chunk(server_t *self, peer_t *p, const msg_chunk_t *c)
{
    ssolve_t *s = s_of(self);
    char err[600];
    for (int i = 0; i < s->g.n; i++) {
        ssolve_pull_t *pl = s->pulls[i];
        if (pl == NULL || !pl->on || s->g.pairs[i].serial != p->serial || strcmp(pl->x.ref.name, c->table) != 0)
            continue;
        s_link_t link = {self, &p->id};
        uint64_t before = pl->x.rejected;
        xfer_status_t st = xfer_on_chunk(&pl->x, c, s_link_send, &link, err, sizeof err);
        if (pl->x.rejected > before || st == XFER_FAILED) {
            s->rejected_chunks += pl->x.rejected - before;
            server_error(self, "%s from worker %s: chunk at offset %llu rejected (CRC-32C, size or length "
                         "wrong)%s", c->table, p->name, (unsigned long long)c->offset,
                         st == XFER_FAILED ? "; giving up on it" : "; asked for again");
        }
        if (st == XFER_FAILED) { /* that worker is not given the pair again */
            server_error(self, "%s; pair %s goes to another worker", err, s->g.pairs[i].name);
            sdag_avoid(&s->g, i, p->name_id);
            s_requeue(self, i);
        } else if (st == XFER_DONE) {
            pl->on = false;
            pl->cur++;
            s_pull_next(self, p, i);
        }
        return;
    }
    server_drop(self, DROP_UNEXPECTED, "CHUNK of no transfer from that worker");
}

/* A worker may fetch only its current task's tables. */
static void s_on_fetch(server_t *self, peer_t *p, const msg_fetch_t *f)
{
    ssolve_t *s = s_of(self);
    static msg_t chunk;
    char err[600];
    bool allowed = false;
    for (int i = 0; i < s->g.n && !allowed; i++) {
        const sdag_pair_t *pr = &s->g.pairs[i];
        if (pr->serial != p->serial || (pr->state != SDAG_SOLVING && pr->state != SDAG_CHECKING))
            continue;
        for (int c = 0; c < pr->nchildren && !allowed; c++) {
            char name[SIG_NAME_MAX];
            sig_table_name(pr->children[c], name, sizeof name);
            allowed = strcmp(name, f->table) == 0;
        }
        for (int k = 0; k < pr->ntables && !allowed && pr->state == SDAG_CHECKING; k++) {
            char name[SIG_NAME_MAX];
            sig_table_name(pr->tables[k], name, sizeof name);
            allowed = strcmp(name, f->table) == 0;
        }
    }
    if (!allowed) {
        snprintf(err, sizeof err, "%.40s: not a table of your task", f->table);
        server_reply_error(self, &p->id, MSG_CODE_TABLE, err);
        return;
    }
    if (xfer_serve(s->dir, f, &chunk, err, sizeof err) != 0) {
        server_reply_error(self, &p->id, MSG_CODE_TABLE, err);
        return;
    }
    server_send(self, &p->id, &chunk);
}

static void s_on_verified(server_t *self, peer_t *p, const msg_verified_t *v)
{
    ssolve_t *s = s_of(self);
    char err[600], text[MSG_TEXT_MAX];
    int i = s_answered(self, p, v->job_id, v->task_id, SDAG_CHECKING, "VERIFIED for a pair not being verified by it");
    if (i < 0)
        return;
    sdag_pair_t *pr = &s->g.pairs[i];
    const char *maker = peers_name_of(self->peers, (uint16_t)pr->maker);
    if (!v->ok) {
        s->failed_checks++;
        server_error(self, "pair %s made by worker %s FAILED verification by worker %s: %llu inconsistencies in "
                     "%llu records: %s; files kept as .rejected, pair solved again elsewhere", pr->name, maker,
                     p->name, (unsigned long long)v->failures, (unsigned long long)v->records,
                     log_clean(v->first_error, text, sizeof text));
        ssolve_reject_files(s, i);
        pr->bad_maker = pr->maker; /* it may still verify the next copy */
        pr->state = SDAG_READY;
        pr->serial = 0;
        return;
    }
    if (ssolve_record_verified(s, i, p->name, err, sizeof err) != 0) {
        server_fail(self, "%s", err);
        return;
    }
    s->verified_nb++;
    sdag_done(&s->g, i);
    self->last_result_ms = server_now_ms();
    server_log(self, "pair %s verified by worker %s (made by worker %s): %llu records, 0 inconsistencies; %d of %d "
               "pairs done", pr->name, p->name, maker, (unsigned long long)v->records, s->g.done, s->g.n);
}

static void s_on_refuse(server_t *self, peer_t *p, const msg_refuse_t *r)
{
    ssolve_t *s = s_of(self);
    char text[MSG_TEXT_MAX];
    int i = r->job_id == s->job_id ? sdag_by_task(&s->g, r->task_id, p->serial) : -1;
    if (i < 0) {
        server_drop(self, DROP_NOT_LEASED, "REFUSE for a pair not leased to that worker");
        return;
    }
    s->refused++;
    sdag_avoid(&s->g, i, p->name_id);
    s_requeue(self, i);
    log_clean(r->reason, text, sizeof text);
    server_error(self, "worker %s refused pair %s (code %u): %s", p->name, s->g.pairs[i].name, r->code, text);
    snprintf(s->last_refusal, sizeof s->last_refusal, "worker %.63s: %.200s", p->name, text);
    size_t alive = 0, avoiding = 0;
    for (size_t k = 0; k < peers_cap(self->peers); k++) {
        peer_t *q = peers_at(self->peers, k);
        if (q->used) {
            alive++;
            avoiding += !sdag_allowed(&s->g.pairs[i], q->name_id);
        }
    }
    if (self->opts->bind == NULL && avoiding >= alive)
        server_fail(self, "no worker accepts pair %s: %s", s->g.pairs[i].name, text);
}

static void s_on_handback(server_t *self, peer_t *p, const msg_handback_t *h)
{
    ssolve_t *s = s_of(self);
    for (uint32_t k = 0; k < h->n_task_ids; k++) {
        int i = sdag_by_task(&s->g, h->task_ids[k], p->serial);
        if (i >= 0) {
            server_log(self, "worker %s handed back pair %s", p->name, s->g.pairs[i].name);
            s_requeue(self, i);
        }
    }
}

/* A session's leased count is what the graph says it holds (a SOLVE or VERIFY it has not
 * answered), whatever became of the leases meanwhile (expired, taken late by another
 * session, dropped answers): a session holds at most one, and is offered a task only
 * when it holds none. */
static void s_sync_leased(server_t *self, peer_t *p)
{
    const sdag_t *g = &s_of(self)->g;
    uint32_t n = 0;
    for (int i = 0; i < g->n; i++)
        n += g->pairs[i].serial == p->serial &&
             (g->pairs[i].state == SDAG_SOLVING || g->pairs[i].state == SDAG_CHECKING);
    p->leased = n;
}

bool ssolve_message(server_t *self, void *job, peer_t *p, const msg_t *m)
{
    (void)job;
    switch (m->type) {
    case MSG_SOLVED: s_on_solved(self, p, &m->u.solved); break;
    case MSG_VERIFIED: s_on_verified(self, p, &m->u.verified); break;
    case MSG_CHUNK: s_on_chunk(self, p, &m->u.chunk); return true;
    case MSG_FETCH: s_on_fetch(self, p, &m->u.fetch); return true;
    case MSG_REFUSE: s_on_refuse(self, p, &m->u.refuse); break;
    case MSG_HANDBACK: s_on_handback(self, p, &m->u.handback); break;
    case MSG_ERROR:
        if (m->u.error.code == MSG_CODE_TABLE) /* a file it made cannot be served: its pair goes elsewhere */
            for (int i = 0; i < s_of(self)->g.n; i++)
                if (s_of(self)->g.pairs[i].serial == p->serial && s_of(self)->g.pairs[i].state == SDAG_PULLING)
                    s_requeue(self, i);
        return false; /* logged by the caller too */
    default: return false;
    }
    s_sync_leased(self, p); /* an answer, a refusal or a handback: the session may be free */
    return true;
}

void ssolve_renew(server_t *self, void *job, const peer_t *p, int64_t now)
{
    (void)job;
    sdag_renew(&s_of(self)->g, p->serial, now + self->opts->lease_ms);
}

static void s_progress(server_t *self, int64_t now)
{
    ssolve_t *s = s_of(self);
    if (self->opts->quiet || now < self->next_progress_ms)
        return;
    bool tty = report_is_tty();
    self->next_progress_ms = now + (tty ? TTY_PROGRESS_MS : LOG_PROGRESS_MS);
    double sec = (double)(now - self->start_ms) / 1000.0;
    double rate = sec > 0 ? (double)s->positions / sec : 0;
    char eta[48] = "ETA unknown";
    if (s->g.weight_done_run > 0 && s->g.weight_total > 0) {
        double left = s->g.weight_total - s->g.weight_done_run;
        snprintf(eta, sizeof eta, "ETA %.0f s", sec * (left > 0 ? left : 0) / s->g.weight_done_run);
    }
    char line[300];
    snprintf(line, sizeof line, "solve: %d/%d pairs done (%d already there), %llu positions, %.2f M/s, %s, "
             "%zu workers", s->g.done, s->g.n, s->g.preloaded, (unsigned long long)s->positions, rate / 1e6, eta,
             peers_count(self->peers));
    report_status_line(line, tty);
}

/* --stall-timeout: pairs are left, workers are connected, and none of them
 * holds or can take one (all refused it, or --verify waits for a second worker). */
static void s_stall(server_t *self, int64_t now, bool busy)
{
    ssolve_t *s = s_of(self);
    if (busy || ssolve_finished(s) || peers_count(self->peers) == 0 || self->opts->stall_ms == 0) {
        self->stall_since = 0;
        return;
    }
    if (self->stall_since == 0)
        self->stall_since = now, self->stall_said_ms = 0;
    int64_t stalled = now - self->stall_since;
    if (stalled >= LEASE_STALL_SAY_MS && stalled < (int64_t)self->opts->stall_ms
        && (self->stall_said_ms == 0 || now - self->stall_said_ms >= LEASE_STALL_REPEAT_MS)) {
        server_error(self, "solve: %d pairs left and no connected worker can take one (%zu connected; refused, "
                     "bad files, or --verify needs another worker than the maker)%s%s; waiting for another "
                     "worker; the job ends in %lld s (--stall-timeout)", s->g.n - s->g.done,
                     peers_count(self->peers), s->last_refusal[0] ? "; last: " : "", s->last_refusal,
                     (long long)((int64_t)self->opts->stall_ms - stalled) / 1000);
        self->stall_said_ms = now;
    }
    if (stalled >= (int64_t)self->opts->stall_ms)
        server_fail(self, "no connected worker can take the %d pairs left (refused, or --verify needs another "
                    "worker than the maker) for %u ms (--stall-timeout)%s%s", s->g.n - s->g.done, self->opts->stall_ms,
                    s->last_refusal[0] ? "; last refusal: " : "", s->last_refusal);
}

void ssolve_expire(server_t *self, void *job, int64_t now)
{
    ssolve_t *s = job;
    size_t n = 0;
    for (int i = 0; i < s->g.n; i++)
        if (s_leased(s->g.pairs[i].state) && s->g.pairs[i].lease_until < now) {
            s_requeue_as(self, i, true);
            n++;
        }
    if (n > 0)
        server_log(self, "%zu leases expired; pairs back in the queue", n);
}

void ssolve_timers(server_t *self, void *job, int64_t now)
{
    ssolve_t *s = job;
    bool busy = false;
    for (int i = 0; i < s->g.n && !busy; i++)
        busy = s_leased(s->g.pairs[i].state);
    s_stall(self, now, busy);
    s_progress(self, now);
}
