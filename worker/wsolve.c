/* wsolve.c: the worker's SOLVE and VERIFY tasks (see wsolve.h). */
#include "wsolve.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "log_line.h"
#include "solve.h"
#include "wsolve_run.h"
#include "xfer.h"

enum { SERVED_MAX = 8 };

typedef enum { T_NONE, T_FETCHING, T_RUNNING } s_phase_t;

struct wsolve_s {
    wsolve_opts_t o;
    char dir[XFER_PATH_MAX];       /* the cache (or the shared directory) */
    char dir_id[MSG_TABLE_NAME_MAX];
    bool temp_dir;                 /* made by us, removed at the end */
    s_phase_t phase;
    msg_t task;                    /* the SOLVE or VERIFY held */
    bool shared;
    msg_tableref_t fetch[MSG_NEEDS_MAX + MSG_PAIR_TABLES_MAX];
    uint32_t nfetch, ifetch;
    xfer_t xfer;
    bool xfer_on;
    wsolve_run_t run;              /* the thread's job and result */
    pthread_t thread;
    atomic_bool thread_on;         /* a thread exists (running or ended, not joined) */
    uint32_t gen;                  /* bumped by wsolve_reset */
    char served[SERVED_MAX][MSG_TABLE_NAME_MAX]; /* files this worker made, that the coordinator may FETCH */
    uint32_t nserved;
    uint64_t chunks_served;
    uint64_t pairs_made;
};

static void s_logf(wsolve_t *self, bool always, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void s_logf(wsolve_t *self, bool always, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    self->o.log(self->o.ctx, always, text);
}

wsolve_t *wsolve_new(const wsolve_opts_t *opts, char *err, size_t errlen)
{
    wsolve_t *self = calloc(1, sizeof *self);
    if (self == NULL) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    self->o = *opts;
    if (self->o.memory == 0)
        self->o.memory = solve_default_memory();
    if (opts->tables != NULL) {
        snprintf(self->dir, sizeof self->dir, "%s", opts->tables);
        if (mkdir(self->dir, 0755) != 0 && errno != EEXIST) {
            snprintf(err, errlen, "--tables %s: %s", self->dir, strerror(errno));
            free(self);
            return NULL;
        }
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(self->dir, sizeof self->dir, "%s/octad-worker-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (mkdtemp(self->dir) == NULL) {
            snprintf(err, errlen, "cannot make a table cache in %s: %s", self->dir, strerror(errno));
            free(self);
            return NULL;
        }
        self->temp_dir = true;
    }
    char ierr[256];
    if (xfer_dir_id(self->dir, false, self->dir_id, sizeof self->dir_id, ierr, sizeof ierr) < 0)
        self->dir_id[0] = '\0';
    wsolve_run_init();
    return self;
}

bool wsolve_busy(const wsolve_t *self)
{
    return self->phase != T_NONE || atomic_load(&self->thread_on);
}

uint64_t wsolve_task_id(const wsolve_t *self)
{
    if (self->phase == T_NONE)
        return 0;
    return self->task.type == MSG_SOLVE ? self->task.u.solve.task_id : self->task.u.verify.task_id;
}

static void s_refuse_task(wsolve_t *self, const msg_t *task, uint32_t code, const char *reason)
{
    msg_t m;
    msg_init(&m, MSG_REFUSE);
    m.version = 2;
    m.u.refuse.task_id = task->type == MSG_SOLVE ? task->u.solve.task_id : task->u.verify.task_id;
    m.u.refuse.job_id = task->type == MSG_SOLVE ? task->u.solve.job_id : task->u.verify.job_id;
    m.u.refuse.code = code;
    snprintf(m.u.refuse.reason, sizeof m.u.refuse.reason, "%.255s", reason);
    s_logf(self, true, "refused task %llu: %s", (unsigned long long)m.u.refuse.task_id, reason);
    self->o.send(self->o.ctx, &m);
}

/* Refuses the task held, which is then dropped. */
static void s_refuse(wsolve_t *self, uint32_t code, const char *reason)
{
    s_refuse_task(self, &self->task, code, reason);
    self->phase = T_NONE;
}

static int s_send_cb(void *ctx, const msg_t *m)
{
    wsolve_t *self = ctx;
    self->o.send(self->o.ctx, m);
    return 0;
}

static void s_thread_start(wsolve_t *self);

/* Starts the next transfer, or the task's thread once every table is here. */
static void s_next_fetch(wsolve_t *self)
{
    char err[512];
    while (self->ifetch < self->nfetch) {
        const msg_tableref_t *r = &self->fetch[self->ifetch];
        if (xfer_start(&self->xfer, self->dir, r, true, err, sizeof err) != 0) {
            s_refuse(self, MSG_CODE_TABLE, err);
            return;
        }
        self->xfer_on = true;
        xfer_pump(&self->xfer, s_send_cb, self);
        return;
    }
    s_thread_start(self);
}

/* The tables a task reads or checks that are not here as the coordinator has them. */
static int s_plan(wsolve_t *self, const msg_tableref_t *refs, uint32_t n, char *err, size_t errlen)
{
    for (uint32_t k = 0; k < n; k++) {
        int table;
        msg_tableref_t have;
        char ferr[512];
        if (!xfer_table_name_ok(refs[k].name, &table)) {
            snprintf(err, errlen, "%s: not a table name", refs[k].name);
            return -1;
        }
        bool here = xfer_file_ref(self->dir, refs[k].name, &have, ferr, sizeof ferr) == 0 &&
                    have.size == refs[k].size && have.crc == refs[k].crc;
        if (here)
            continue;
        if (self->shared) {
            snprintf(err, errlen, "%s: not in the shared directory %.300s with the coordinator's size and CRC",
                     refs[k].name, self->dir);
            return -1;
        }
        self->fetch[self->nfetch++] = refs[k];
    }
    return 0;
}

static void s_on_task(wsolve_t *self, const msg_t *m)
{
    char err[600];
    bool solve = m->type == MSG_SOLVE;
    if (wsolve_busy(self)) {
        s_refuse_task(self, m, MSG_CODE_NO_CREDIT, "a task is already running here");
        return;
    }
    self->task = *m;
    self->phase = T_FETCHING;
    self->nfetch = self->ifetch = 0;
    const char *dir_id = solve ? m->u.solve.dir_id : m->u.verify.dir_id;
    self->shared = dir_id[0] != '\0' && strcmp(dir_id, self->dir_id) == 0;
    const char *pair = solve ? m->u.solve.pair : m->u.verify.pair;
    if (wsolve_run_prepare(&self->run, m, self->dir, self->o.threads, err, sizeof err) != 0) {
        s_refuse(self, MSG_CODE_BAD_MESSAGE, err);
        return;
    }
    uint64_t need = solve_pair_memory(self->run.pair);
    if (solve && need > self->o.memory) {
        snprintf(err, sizeof err, "%s needs about %.3g GB at its peak; this worker may use %.3g GB (--memory)", pair,
                 (double)need / 1e9, (double)self->o.memory / 1e9);
        s_refuse(self, MSG_CODE_MEMORY, err);
        return;
    }
    if ((!solve && s_plan(self, m->u.verify.tables, m->u.verify.n_tables, err, sizeof err) != 0) ||
        s_plan(self, solve ? m->u.solve.needs : m->u.verify.needs, solve ? m->u.solve.n_needs : m->u.verify.n_needs,
               err, sizeof err) != 0) {
        s_refuse(self, MSG_CODE_TABLE, err);
        return;
    }
    s_logf(self, false, "%s %s: %u tables to fetch%s", solve ? "solving" : "verifying", pair, self->nfetch,
           self->shared ? " (shared directory)" : "");
    s_next_fetch(self);
}

static void s_on_chunk(wsolve_t *self, const msg_chunk_t *c)
{
    char err[600];
    if (self->phase != T_FETCHING || !self->xfer_on || strcmp(c->table, self->xfer.ref.name) != 0)
        return; /* not asked for: a stale answer */
    xfer_status_t st = xfer_on_chunk(&self->xfer, c, s_send_cb, self, err, sizeof err);
    if (st == XFER_MORE)
        return;
    self->xfer_on = false;
    if (st == XFER_FAILED) {
        s_refuse(self, MSG_CODE_TABLE, err);
        return;
    }
    if (self->xfer.rejected > 0)
        s_logf(self, true, "%s: %llu corrupt chunks rejected and fetched again", self->xfer.ref.name,
               (unsigned long long)self->xfer.rejected);
    self->ifetch++;
    s_next_fetch(self);
}

/* Whether the coordinator may fetch this file: one this worker made lately. */
static bool s_served(const wsolve_t *self, const char *name)
{
    for (uint32_t k = 0; k < self->nserved; k++)
        if (strcmp(self->served[k], name) == 0)
            return true;
    return false;
}

static void s_on_fetch(wsolve_t *self, const msg_fetch_t *f)
{
    static msg_t chunk; /* 33 KiB: off the I/O thread's stack */
    char err[600];
    if (!s_served(self, f->table)) {
        snprintf(err, sizeof err, "%s: this worker made no such table for you", f->table);
    } else if (xfer_serve(self->dir, f, &chunk, err, sizeof err) == 0) {
        chunk.version = 2;
        if (self->o.inject_fault > 0 && ++self->chunks_served % self->o.inject_fault == 0 && chunk.u.chunk.n_data > 0)
            chunk.u.chunk.data[0] ^= 1; /* a deliberately corrupt chunk, for the transfer tests */
        self->o.send(self->o.ctx, &chunk);
        return;
    }
    msg_t m;
    msg_init(&m, MSG_ERROR);
    m.version = 2;
    m.u.error.code = MSG_CODE_TABLE;
    snprintf(m.u.error.text, sizeof m.u.error.text, "%.255s", err);
    self->o.send(self->o.ctx, &m);
}

void wsolve_on_message(wsolve_t *self, const msg_t *m)
{
    switch (m->type) {
    case MSG_SOLVE:
    case MSG_VERIFY: s_on_task(self, m); break;
    case MSG_CHUNK: s_on_chunk(self, &m->u.chunk); break;
    case MSG_FETCH: s_on_fetch(self, &m->u.fetch); break;
    default: break;
    }
}

static void *s_thread_main(void *arg)
{
    wsolve_t *self = arg;
    if (self->o.delay_ms > 0) {
        struct timespec d = {self->o.delay_ms / 1000, (long)(self->o.delay_ms % 1000) * 1000000L};
        nanosleep(&d, NULL);
    }
    wsolve_run(&self->run);
    char b = 1;
    ssize_t n = write(self->o.wake_fd, &b, 1);
    (void)n;
    return NULL;
}

static void s_thread_start(wsolve_t *self)
{
    self->run.gen = self->gen;
    self->run.finished = false;
    self->pairs_made += !self->run.verify;
    self->run.corrupt = !self->run.verify && self->o.spoil > 0 && self->pairs_made % self->o.spoil == 0;
    self->run.damage = !self->run.verify && self->o.damage > 0 && self->pairs_made % self->o.damage == 0;
    self->phase = T_RUNNING;
    atomic_store(&self->thread_on, true);
    if (pthread_create(&self->thread, NULL, s_thread_main, self) != 0) {
        atomic_store(&self->thread_on, false);
        s_refuse(self, MSG_CODE_INTERNAL, "cannot start a thread");
    }
}

static void s_remember_served(wsolve_t *self, const msg_solved_t *s)
{
    for (uint32_t k = 0; k < s->n_tables; k++) {
        if (s_served(self, s->tables[k].name))
            continue;
        if (self->nserved == SERVED_MAX) {
            memmove(self->served[0], self->served[1], sizeof self->served[0] * (SERVED_MAX - 1));
            self->nserved--;
        }
        memcpy(self->served[self->nserved++], s->tables[k].name, MSG_TABLE_NAME_MAX); /* NUL-terminated (decoded or made here) */
    }
}

void wsolve_poll(wsolve_t *self)
{
    if (!atomic_load(&self->thread_on) || !atomic_load(&self->run.finished))
        return;
    pthread_join(self->thread, NULL);
    atomic_store(&self->thread_on, false);
    if (self->run.gen != self->gen || self->phase != T_RUNNING)
        return; /* the session it was for has ended */
    if (self->run.failed) {
        s_refuse(self, MSG_CODE_INTERNAL, self->run.err);
        return;
    }
    msg_t *m = &self->run.answer;
    m->version = 2;
    if (m->type == MSG_SOLVED) {
        m->u.solved.in_shared = self->shared;
        s_remember_served(self, &m->u.solved);
        s_logf(self, false, "solved %s: %llu positions in %.1f s", self->task.u.solve.pair,
               (unsigned long long)m->u.solved.positions, (double)m->u.solved.elapsed_ms / 1000.0);
    } else {
        s_logf(self, !m->u.verified.ok, "verified %s: %llu records, %llu inconsistencies%s%s",
               self->task.u.verify.pair, (unsigned long long)m->u.verified.records,
               (unsigned long long)m->u.verified.failures, m->u.verified.ok ? "" : ": ", m->u.verified.first_error);
    }
    self->o.send(self->o.ctx, m);
    self->phase = T_NONE;
}

void wsolve_reset(wsolve_t *self)
{
    if (self->xfer_on)
        xfer_abort(&self->xfer);
    self->xfer_on = false;
    self->phase = T_NONE;
    self->nserved = 0;
    self->gen++;
}

/* Removes the private cache: its table files, part files and id. */
static void s_remove_temp(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[XFER_PATH_MAX + 300];
    while (d != NULL && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    if (d != NULL)
        closedir(d);
    rmdir(dir);
}

void wsolve_destroy(wsolve_t **self_p)
{
    wsolve_t *self = *self_p;
    if (self == NULL)
        return;
    *self_p = NULL;
    if (self->xfer_on)
        xfer_abort(&self->xfer);
    if (atomic_load(&self->thread_on) && !atomic_load(&self->run.finished))
        return; /* a solve cannot be interrupted: it ends with the process */
    if (atomic_load(&self->thread_on))
        pthread_join(self->thread, NULL);
    store_destroy(&self->run.store);
    if (self->temp_dir)
        s_remove_temp(self->dir);
    free(self);
}
