/* ssolve_server.c: what the solve kind adds to the one task life cycle (tasks.h; the row
 * is kind_solve.c's; proto/PROTOCOL.md section 11): its tasks (make pair k, and under
 * --verify check pair k once made), which task fits a worker (memory, never the maker's
 * own check), the SOLVE and VERIFY messages, fetching a made pair's files (CHUNK) and
 * serving tables (FETCH), and committing a pair. Leases, renewal, expiry, late answers,
 * refusals, handbacks, the stall check and the progress line are tasks.c's, as for every
 * kind. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log_line.h"
#include "server_priv.h"
#include "sig.h"
#include "ssolve.h"

static ssolve_t *s_sv(tasks_t *t)
{
    return (ssolve_t *)t;
}

/* Task i's pair, and whether it is the pair's check (--verify). */
static int s_pair(const ssolve_t *sv, size_t i)
{
    return (int)(i % (size_t)sv->g.n);
}

static bool s_is_check(const ssolve_t *sv, size_t i)
{
    return i >= (size_t)sv->g.n;
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

/* Fills refs (capacity MSG_NEEDS_MAX) with pair k's child tables as they are in DIR. */
static int s_needs(server_t *s, ssolve_t *sv, int k, msg_tableref_t *refs, uint32_t *n)
{
    const sdag_pair_t *p = &sv->g.pairs[k];
    char err[600];
    *n = 0;
    for (int c = 0; c < p->nchildren && *n < MSG_NEEDS_MAX; c++) {
        char name[SIG_NAME_MAX];
        sig_table_name(p->children[c], name, sizeof name);
        if (xfer_file_ref(sv->dir, name, &refs[(*n)++], err, sizeof err) != 0) {
            server_fail(s, "pair %s needs %s, whose pair is done, but: %s", p->name, name, err);
            return -1;
        }
    }
    return 0;
}

/* The pair's own files as they are in DIR (VERIFY's tables). */
static int s_own(server_t *s, ssolve_t *sv, int k, msg_tableref_t *refs, uint32_t *n)
{
    const sdag_pair_t *p = &sv->g.pairs[k];
    char err[600];
    *n = 0;
    for (int c = 0; c < p->ntables; c++) {
        char name[SIG_NAME_MAX];
        sig_table_name(p->tables[c], name, sizeof name);
        if (xfer_file_ref(sv->dir, name, &refs[(*n)++], err, sizeof err) != 0) {
            server_fail(s, "pair %s: %s", p->name, err);
            return -1;
        }
    }
    return 0;
}

/* Whether p is one of this coordinator's own local workers (spawn.c names
 * them local-<i>-<coordinator pid>): they share this machine's memory. */
static bool s_local(server_t *s, const peer_t *p)
{
    const char *name = peers_name_of(s->peers, p->name_id);
    int index, end = 0;
    long pid;
    return sscanf(name, "local-%d-%ld%n", &index, &pid, &end) == 2 && name[end] == '\0' && pid == (long)getpid();
}

/* Bytes the leased pairs hold against the local workers' budget. */
static uint64_t s_held(const ssolve_t *sv)
{
    uint64_t n = 0;
    for (int k = 0; k < sv->g.n; k++)
        if (sv->g.pairs[k].held > 0)
            n += sv->g.pairs[k].held;
    return n;
}

/* A remote worker refuses what its --memory cannot hold (REFUSE MEMORY); the local workers
 * together stay within this machine's budget (alone, any pair may run, as in octad solve).
 * A check goes first (it unblocks its dependants), never to the pair's maker; then the
 * heaviest pair, never to the worker whose copy of it failed verification. */
static long s_rank(server_t *s, tasks_t *t, size_t i, const peer_t *p)
{
    ssolve_t *sv = s_sv(t);
    const sdag_pair_t *pr = &sv->g.pairs[s_pair(sv, i)];
    if (s_local(s, p)) {
        uint64_t held = s_held(sv);
        if (held > 0 && pr->memory > (held < sv->local_memory ? sv->local_memory - held : 0))
            return -1;
    }
    if (s_is_check(sv, i))
        return strcmp(sv->makers[s_pair(sv, i)], peers_principal_of(s->peers, p->name_id)) == 0 ? -1 : LONG_MAX;
    return pr->bad_maker == (int)p->name_id ? -1 : (long)pr->weight;
}

static int s_task_msg(server_t *s, tasks_t *t, size_t i, const peer_t *p, msg_t *m)
{
    ssolve_t *sv = s_sv(t);
    int k = s_pair(sv, i);
    sdag_pair_t *pr = &sv->g.pairs[k];
    bool check = s_is_check(sv, i);
    msg_init(m, check ? MSG_VERIFY : MSG_SOLVE);
    int rc = check ? s_needs(s, sv, k, sv->needs, &m->u.verify.n_needs) |
                         s_own(s, sv, k, m->u.verify.tables, &m->u.verify.n_tables)
                   : s_needs(s, sv, k, sv->needs, &m->u.solve.n_needs);
    if (check)
        m->u.verify.needs = sv->needs;
    else
        m->u.solve.needs = sv->needs;
    if (rc != 0)
        return -1;
    pr->held = s_local(s, p) ? pr->memory : 0;
    uint64_t id = (uint64_t)i + 1;
    if (check) {
        m->u.verify.task_id = id, m->u.verify.job_id = t->job_id, m->u.verify.lease_ms = s->opts->lease_ms;
        snprintf(m->u.verify.pair, sizeof m->u.verify.pair, "%s", pr->name);
        snprintf(m->u.verify.dir_id, sizeof m->u.verify.dir_id, "%s", sv->dir_id);
    } else {
        m->u.solve.task_id = id, m->u.solve.job_id = t->job_id, m->u.solve.lease_ms = s->opts->lease_ms;
        snprintf(m->u.solve.pair, sizeof m->u.solve.pair, "%s", pr->name);
        snprintf(m->u.solve.dir_id, sizeof m->u.solve.dir_id, "%s", sv->dir_id);
    }
    server_log(s, "%s %s on worker %s (task %llu)", check ? "verifying" : "solving", pr->name,
               peers_name_of(s->peers, p->name_id), (unsigned long long)id);
    return 0;
}

/* Pair k's pull (if any) stops. */
static void s_drop_pull(ssolve_t *sv, int k)
{
    if (sv->pulls[k] == NULL)
        return;
    if (sv->pulls[k]->on)
        xfer_abort(&sv->pulls[k]->x);
    free(sv->pulls[k]);
    sv->pulls[k] = NULL;
}

/* A lease ended without an answer taken (sched_on_end): its fetch stops, its memory is free. */
static void s_lease_ended(void *ctx, size_t i, uint32_t serial)
{
    ssolve_t *sv = ctx;
    int k = s_pair(sv, i);
    if (!s_is_check(sv, i) && sv->pulls[k] != NULL && sv->pulls[k]->serial == serial)
        s_drop_pull(sv, k);
    if (!sched_leased(sv->t.sched, i))
        sv->g.pairs[k].held = 0;
}

/* Pair k is done: the pairs that became ready are queued. */
static void s_pair_done(ssolve_t *sv, int k)
{
    int n = sdag_done(&sv->g, k, sv->ready);
    for (int j = 0; j < n; j++)
        sched_ready(sv->t.sched, (size_t)sv->ready[j]);
}

static void s_task_text(const tasks_t *t, size_t i, char *buf, size_t len)
{
    const ssolve_t *sv = (const ssolve_t *)t;
    snprintf(buf, len, "%s pair %s", s_is_check(sv, i) ? "check" : "make", sv->g.pairs[s_pair(sv, i)].name);
}

/* A make task's answer is its files' CRC-32Cs (s_digest), a check's the records it checked. */
static void s_answer_text(const tasks_t *t, size_t i, sched_answer_t v, char *buf, size_t len)
{
    if (s_is_check((const ssolve_t *)t, i))
        snprintf(buf, len, "%llu records checked, 0 inconsistencies", (unsigned long long)v);
    else
        snprintf(buf, len, "files with CRC-32C %016llx", (unsigned long long)v);
}

/* Who made pair k's files, for logs: the session's name, else the principal its journal
 * record names (a pair made before a restart), else "?". */
static const char *s_maker_label(server_t *s, const ssolve_t *sv, int k)
{
    int maker = sv->g.pairs[k].maker;
    return maker >= 0 ? peers_name_of(s->peers, (uint16_t)maker) : sv->makers[k][0] != '\0' ? sv->makers[k] : "?";
}

/* An accepted task: a made pair waits for its check (--verify), else it is done. */
static bool s_commit(server_t *s, tasks_t *t, size_t i, sched_answer_t v)
{
    ssolve_t *sv = s_sv(t);
    int k = s_pair(sv, i);
    sdag_pair_t *pr = &sv->g.pairs[k];
    const char *maker = s_maker_label(s, sv, k);
    (void)v;
    pr->held = 0;
    if (!s_is_check(sv, i) && s->opts->verify) {
        pr->state = SDAG_MADE;
        sched_ready(t->sched, (size_t)sv->g.n + (size_t)k);
        server_log(s, "pair %s made by worker %s; waiting for its verification", pr->name, maker);
        return true;
    }
    s_pair_done(sv, k);
    if (!s_is_check(sv, i))
        server_log(s, "pair %s done (made by worker %s); %d of %d pairs", pr->name, maker, sv->g.done, sv->g.n);
    return true;
}

static const tasks_ops_t s_tasks_ops = {
    .answer_noun = "pair", .amount_noun = "positions", .exclusive = true, .task_msg = s_task_msg,
    .rank = s_rank, .commit = s_commit, .task_text = s_task_text, .answer_text = s_answer_text};

int ssolve_schedule(ssolve_t *self)
{
    size_t n = (size_t)self->g.n, task_nb = self->opts->verify ? 2 * n : n;
    self->t.ops = &s_tasks_ops;
    self->t.task_nb = task_nb;
    self->t.sched = sched_new_held(task_nb);
    if (self->t.sched == NULL)
        return -1;
    sched_on_end(self->t.sched, s_lease_ended, self);
    for (size_t k = 0; k < n; k++) {
        sdag_state_t st = self->g.pairs[k].state;
        if (st == SDAG_DONE || st == SDAG_MADE) {
            sched_preload(self->t.sched, k, 0, NULL);
            self->t.loaded++;
        }
        if (st == SDAG_DONE && self->opts->verify) {
            sched_preload(self->t.sched, n + k, 0, NULL);
            self->t.loaded++;
        }
        if (st == SDAG_READY)
            sched_ready(self->t.sched, k);
        else if (st == SDAG_MADE)
            sched_ready(self->t.sched, n + k);
    }
    return 0;
}

/* The result digest of a pair's files: their CRC-32Cs. */
static sched_answer_t s_digest(const msg_tableref_t *refs, int n)
{
    sched_answer_t v = 0;
    for (int c = 0; c < n; c++)
        v = (v << 32) | refs[c].crc;
    return v;
}

/* Pair k's files made by p are in DIR as refs say: its M record is written (who made it,
 * for --verify after a restart too), then its task is answered. */
static void s_arrived(server_t *s, ssolve_t *sv, peer_t *p, int k, const msg_tableref_t *refs, int n)
{
    char err[600];
    const char *principal = peers_principal_of(s->peers, p->name_id);
    sched_answer_t v = s_digest(refs, n);
    int rc = ssolve_journal_made(sv->journal, k, principal, refs, n, err, sizeof err);
    s_drop_pull(sv, k); /* refs may be the pull's: used before */
    if (rc != 0) {
        server_fail(s, "%s", err);
        return;
    }
    sv->solved++;
    sv->g.pairs[k].maker = p->name_id;
    snprintf(sv->makers[k], sizeof sv->makers[k], "%s", principal);
    tasks_accept(s, &sv->t, p, (size_t)k, v);
}

/* The kind refuses p's copy of pair k (bad files, a failed transfer): to another worker. */
static void s_refuse_copy(server_t *s, ssolve_t *sv, peer_t *p, int k, const char *err)
{
    char why[MSG_TEXT_MAX + 80];
    snprintf(why, sizeof why, "bad files of pair %.40s from worker %.63s: %.150s", sv->g.pairs[k].name, p->name,
             err);
    tasks_refuse_answer(s, &sv->t, p, (size_t)k, why);
}

/* Starts pulling the next file of pair k, or it has arrived. */
static void s_pull_next(server_t *s, ssolve_t *sv, peer_t *p, int k)
{
    ssolve_pull_t *pl = sv->pulls[k];
    char err[600];
    s_link_t link = {s, &p->id};
    if (pl->cur == pl->n) {
        if (ssolve_check_files(sv, k, pl->refs, pl->n, err, sizeof err) != 0) {
            server_error(s, "pair %s from worker %s refused (its files are set aside as .rejected): %s",
                         sv->g.pairs[k].name, p->name, err);
            ssolve_reject_files(sv, k); /* a later run must not take them for done */
            s_refuse_copy(s, sv, p, k, err);
            return;
        }
        s_arrived(s, sv, p, k, pl->refs, pl->n);
        return;
    }
    if (xfer_start(&pl->x, sv->dir, &pl->refs[pl->cur], false, err, sizeof err) != 0 ||
        xfer_pump(&pl->x, s_link_send, &link) != 0) {
        server_error(s, "pair %s from worker %s: %s", sv->g.pairs[k].name, p->name, err);
        if (sched_handback(sv->t.sched, (size_t)k, p->serial))
            s->sum.requeued++;
        return;
    }
    pl->on = true;
}

/* The task an answer names: its index if it is this job's and of that phase, else
 * dropped (SIZE_MAX). p computed it: it is free for another task. */
static size_t s_answered(server_t *s, ssolve_t *sv, peer_t *p, uint64_t job_id, uint64_t task_id, bool check,
                         const char *what)
{
    size_t n = (size_t)sv->g.n, lo = check ? n : 0, hi = check && sv->opts->verify ? 2 * n : check ? 0 : n;
    if (p->leased > 0)
        p->leased--;
    if (job_id != sv->t.job_id) {
        server_drop(s, DROP_OTHER_JOB, what);
        return SIZE_MAX;
    }
    size_t i = task_id >= 1 ? (size_t)(task_id - 1) : SIZE_MAX;
    /* A late answer (lease.h, rule 1) is taken as one under lease. */
    if (i < lo || i >= hi || !sched_take(sv->t.sched, i, p->serial, p->name_id, server_now_ms() + s->opts->lease_ms)) {
        server_drop(s, DROP_NOT_LEASED, what);
        return SIZE_MAX;
    }
    return i;
}

/* Whether SOLVED names pair pr's own tables with plausible sizes. */
static bool s_tables_match(const sdag_pair_t *pr, const msg_solved_t *r)
{
    bool ok = (int)r->n_tables == pr->ntables;
    for (int c = 0; ok && c < pr->ntables; c++) {
        char name[SIG_NAME_MAX];
        sig_table_name(pr->tables[c], name, sizeof name);
        ok = strcmp(name, r->tables[c].name) == 0 && r->tables[c].size > 0 && r->tables[c].size <= XFER_FILE_MAX;
    }
    return ok;
}

/* Task i (a make or a check) answered by p in elapsed_ms, adding `amount` positions: credited
 * to p in the contributors and the --dump-tasks book, its CPU and wall time with it. false
 * after server_fail (out of memory). */
static bool s_credit(server_t *s, ssolve_t *sv, peer_t *p, size_t i, uint64_t elapsed_ms, uint64_t amount)
{
    tasks_by(&sv->t, p, i, elapsed_ms);
    sv->t.by.amount = amount;
    if (!tasks_credit_by(s, &sv->t, i))
        return false;
    p->cpu_credited_ms = p->cpu_ms;
    p->wall_s += (double)elapsed_ms / 1000.0;
    s->sum.worker_seconds += (double)elapsed_ms / 1000.0;
    return true;
}

static void s_on_solved(server_t *s, ssolve_t *sv, peer_t *p, const msg_solved_t *r)
{
    char err[600];
    size_t i = s_answered(s, sv, p, r->job_id, r->task_id, false, "SOLVED for a pair not being solved by it");
    if (i == SIZE_MAX)
        return;
    int k = (int)i;
    sdag_pair_t *pr = &sv->g.pairs[k];
    if (sv->pulls[k] != NULL) { /* a late answer's files are being fetched already */
        sched_withdraw(sv->t.sched, i, p->serial);
        server_drop(s, DROP_UNEXPECTED, "SOLVED for a pair whose files are fetched from another worker");
        return;
    }
    if (!s_tables_match(pr, r)) {
        server_error(s, "worker %s: SOLVED for %s names other tables or sizes; pair back in the queue", p->name,
                     pr->name);
        if (sched_handback(sv->t.sched, i, p->serial))
            s->sum.requeued++;
        return;
    }
    sv->t.nodes_done += r->positions;
    p->amount += r->positions;
    if (!s_credit(s, sv, p, i, r->elapsed_ms, r->positions)) /* as nodes_done counts what p solved */
        return;
    if (r->in_shared) {
        if (ssolve_check_files(sv, k, r->tables, (int)r->n_tables, err, sizeof err) == 0) {
            s_arrived(s, sv, p, k, r->tables, (int)r->n_tables);
            return;
        }
        server_error(s, "pair %s from worker %s: not in the shared directory as announced (%s); fetching it",
                     pr->name, p->name, err);
    }
    ssolve_pull_t *pl = calloc(1, sizeof *pl);
    if (pl == NULL) {
        server_fail(s, "out of memory");
        return;
    }
    memcpy(pl->refs, r->tables, sizeof pl->refs);
    pl->n = (int)r->n_tables;
    pl->serial = p->serial;
    sv->pulls[k] = pl;
    s_pull_next(s, sv, p, k);
}

static void s_on_chunk(server_t *s, ssolve_t *sv, peer_t *p, const msg_chunk_t *c)
{
    char err[600];
    for (int k = 0; k < sv->g.n; k++) {
        ssolve_pull_t *pl = sv->pulls[k];
        if (pl == NULL || !pl->on || pl->serial != p->serial || strcmp(pl->x.ref.name, c->table) != 0)
            continue;
        s_link_t link = {s, &p->id};
        uint64_t before = pl->x.rejected;
        xfer_status_t st = xfer_on_chunk(&pl->x, c, s_link_send, &link, err, sizeof err);
        if (pl->x.rejected == before && st != XFER_FAILED)
            s->sum.table_bytes_received += c->n_data;
        if (pl->x.rejected > before || st == XFER_FAILED) {
            sv->rejected_chunks += pl->x.rejected - before;
            server_error(s, "%s from worker %s: chunk at offset %llu rejected (CRC-32C, size or length "
                         "wrong)%s", c->table, p->name, (unsigned long long)c->offset,
                         st == XFER_FAILED ? "; giving up on it" : "; asked for again");
        }
        if (st == XFER_FAILED) { /* that worker is not given the pair again */
            server_error(s, "%s; pair %s goes to another worker", err, sv->g.pairs[k].name);
            s_refuse_copy(s, sv, p, k, err);
        } else if (st == XFER_DONE) {
            pl->on = false;
            pl->cur++;
            s_pull_next(s, sv, p, k);
        }
        return;
    }
    server_drop(s, DROP_UNEXPECTED, "CHUNK of no transfer from that worker");
}

/* Whether table is one p may fetch: a child of the pair it makes or checks, or (check) its own. */
static bool s_may_fetch(const ssolve_t *sv, const peer_t *p, const char *table)
{
    size_t n = (size_t)sv->g.n;
    for (int k = 0; k < sv->g.n; k++) {
        const sdag_pair_t *pr = &sv->g.pairs[k];
        bool check = sv->opts->verify && sched_holds(sv->t.sched, n + (size_t)k, p->serial);
        if (!check && !sched_holds(sv->t.sched, (size_t)k, p->serial))
            continue;
        char name[SIG_NAME_MAX];
        for (int c = 0; c < pr->nchildren; c++) {
            sig_table_name(pr->children[c], name, sizeof name);
            if (strcmp(name, table) == 0)
                return true;
        }
        for (int c = 0; check && c < pr->ntables; c++) {
            sig_table_name(pr->tables[c], name, sizeof name);
            if (strcmp(name, table) == 0)
                return true;
        }
    }
    return false;
}

static void s_on_fetch(server_t *s, ssolve_t *sv, peer_t *p, const msg_fetch_t *f)
{
    msg_t chunk;
    char err[600];
    if (!s_may_fetch(sv, p, f->table)) {
        snprintf(err, sizeof err, "%.40s: not a table of your task", f->table);
        server_reply_error(s, &p->id, MSG_CODE_TABLE, err);
        return;
    }
    if (xfer_serve(sv->dir, f, &chunk, sv->chunk_data, err, sizeof err) != 0) {
        server_reply_error(s, &p->id, MSG_CODE_TABLE, err);
        return;
    }
    if (server_send(s, &p->id, &chunk) == 0)
        s->sum.table_bytes_sent += chunk.u.chunk.n_data;
}

static void s_on_verified(server_t *s, ssolve_t *sv, peer_t *p, const msg_verified_t *v)
{
    char err[600], text[MSG_TEXT_MAX];
    size_t i = s_answered(s, sv, p, v->job_id, v->task_id, true, "VERIFIED for a pair not being verified by it");
    if (i == SIZE_MAX)
        return;
    int k = s_pair(sv, i);
    sdag_pair_t *pr = &sv->g.pairs[k];
    const char *maker = s_maker_label(s, sv, k);
    if (!v->ok) {
        sv->failed_checks++;
        server_error(s, "pair %s made by worker %s FAILED verification by worker %s: %llu inconsistencies in "
                     "%llu records: %s; files kept as .rejected, pair solved again elsewhere", pr->name, maker,
                     p->name, (unsigned long long)v->failures, (unsigned long long)v->records,
                     log_clean(v->first_error, text, sizeof text));
        ssolve_reject_files(sv, k);
        pr->bad_maker = pr->maker; /* it may still verify the next copy */
        pr->state = SDAG_READY;
        pr->held = 0;
        sched_withdraw(sv->t.sched, i, p->serial); /* the check waits for the next copy */
        sched_reopen(sv->t.sched, (size_t)k);
        return;
    }
    if (ssolve_record_verified(sv, k, peers_principal_of(s->peers, p->name_id), err, sizeof err) != 0) {
        server_fail(s, "%s", err);
        return;
    }
    sv->verified_nb++;
    if (!s_credit(s, sv, p, i, v->elapsed_ms, 0)) /* p checked it: no position solved */
        return;
    tasks_accept(s, &sv->t, p, i, v->records);
    server_log(s, "pair %s verified by worker %s (made by worker %s): %llu records, 0 inconsistencies; %d of %d "
               "pairs done", pr->name, p->name, maker, (unsigned long long)v->records, sv->g.done, sv->g.n);
}

/* ERROR TABLE: a file p made cannot be served; its pair goes elsewhere. */
static void s_on_table_error(server_t *s, ssolve_t *sv, peer_t *p)
{
    for (int k = 0; k < sv->g.n; k++)
        if (sv->pulls[k] != NULL && sv->pulls[k]->serial == p->serial &&
            sched_handback(sv->t.sched, (size_t)k, p->serial))
            s->sum.requeued++;
}

bool ssolve_message(server_t *s, void *job, peer_t *p, const msg_t *m)
{
    ssolve_t *sv = job;
    switch (m->type) {
    case MSG_SOLVED: s_on_solved(s, sv, p, &m->u.solved); return true;
    case MSG_VERIFIED: s_on_verified(s, sv, p, &m->u.verified); return true;
    case MSG_CHUNK: s_on_chunk(s, sv, p, &m->u.chunk); return true;
    case MSG_FETCH: s_on_fetch(s, sv, p, &m->u.fetch); return true;
    case MSG_ERROR:
        if (m->u.error.code == MSG_CODE_TABLE)
            s_on_table_error(s, sv, p);
        return false; /* logged by the caller too */
    default: return tasks_message(s, job, p, m);
    }
}
