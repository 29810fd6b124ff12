/* wsolve.c: the worker's SOLVE and VERIFY tasks, an exclusive row of the pool kinds (see wsolve.h). */
#include "wsolve.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "solve.h"
#include "wsolve_run.h"
#include "xfer.h"

enum { SERVED_MAX = 8 };

/* The kind's state on the I/O thread: the table directory, the transfer of the task held,
 * the files this worker made that the coordinator may FETCH. */
typedef struct {
    wkind_io_t io;
    uint64_t memory;               /* bytes a pair may take at its peak (--memory, or 3/4 of RAM) */
    char dir[XFER_PATH_MAX];       /* the cache (or the shared directory) */
    char dir_id[MSG_TABLE_NAME_MAX];
    bool temp_dir;                 /* made by us, removed at the end */
    xfer_t xfer;
    bool xfer_on;
    char served[SERVED_MAX][MSG_TABLE_NAME_MAX];
    uint8_t chunk_data[MSG_CHUNK_MAX]; /* the bytes of the CHUNK being served (s_on_fetch) */
    uint32_t nserved;
    uint64_t chunks_served;
    uint64_t pairs_made;
} s_state_t;

/* The pool-wide state: the store over the directory, kept across pairs (only an exclusive task touches it). */
typedef struct {
    store_t *store;
} s_shared_t;

static void s_logf(s_state_t *self, bool always, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void s_logf(s_state_t *self, bool always, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    self->io.log(self->io.ctx, always, text);
}

static int s_open(const wkind_io_t *io, void **state, char *err, size_t errlen)
{
    s_state_t *self = calloc(1, sizeof *self);
    *state = self;
    if (self == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    self->io = *io;
    self->memory = io->opts->memory ? io->opts->memory : solve_default_memory();
    if (io->opts->tables != NULL) {
        snprintf(self->dir, sizeof self->dir, "%s", io->opts->tables);
        if (mkdir(self->dir, 0755) != 0 && errno != EEXIST) {
            snprintf(err, errlen, "--tables %s: %s", self->dir, strerror(errno));
            return -1;
        }
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(self->dir, sizeof self->dir, "%s/octad-worker-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (mkdtemp(self->dir) == NULL) {
            snprintf(err, errlen, "cannot make a table cache in %s: %s", self->dir, strerror(errno));
            return -1;
        }
        self->temp_dir = true;
    }
    char ierr[256];
    if (xfer_dir_id(self->dir, false, self->dir_id, sizeof self->dir_id, ierr, sizeof ierr) < 0)
        self->dir_id[0] = '\0';
    wsolve_run_init();
    return 0;
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

static void s_close(void **state, bool running)
{
    s_state_t *self = *state;
    *state = NULL;
    if (self == NULL)
        return;
    if (self->xfer_on)
        xfer_abort(&self->xfer);
    if (self->temp_dir && !running) /* a running solve cannot be interrupted: it ends with the process */
        s_remove_temp(self->dir);
    free(self);
}

/* The tables a task reads or checks that are not here as the coordinator has them, added to its fetch list. */
static int s_plan(const s_state_t *self, wsolve_task_t *t, const msg_tableref_t *refs, uint32_t n, char *err,
                  size_t errlen)
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
        if (t->shared) {
            snprintf(err, errlen, "%s: not in the shared directory %.300s with the coordinator's size and CRC",
                     refs[k].name, self->dir);
            return -1;
        }
        t->fetch[t->nfetch++] = refs[k];
    }
    return 0;
}

/* Reads the task, checks its memory against --memory and lists the tables to fetch. */
static int s_read(s_state_t *self, const msg_t *m, wsolve_task_t *t, char *reason, size_t len)
{
    bool solve = m->type == MSG_SOLVE;
    if (wsolve_run_prepare(t, m, self->dir, reason, len) != 0)
        return MSG_CODE_BAD_MESSAGE;
    const char *dir_id = solve ? m->u.solve.dir_id : m->u.verify.dir_id;
    t->shared = dir_id[0] != '\0' && strcmp(dir_id, self->dir_id) == 0;
    uint64_t need = solve_pair_memory(t->pair);
    if (solve && need > self->memory) {
        snprintf(reason, len, "%s needs about %.3g GB at its peak; this worker may use %.3g GB (--memory)",
                 m->u.solve.pair, (double)need / 1e9, (double)self->memory / 1e9);
        return MSG_CODE_MEMORY;
    }
    if ((!solve && s_plan(self, t, m->u.verify.tables, m->u.verify.n_tables, reason, len) != 0) ||
        s_plan(self, t, solve ? m->u.solve.needs : m->u.verify.needs, solve ? m->u.solve.n_needs : m->u.verify.n_needs,
               reason, len) != 0)
        return MSG_CODE_TABLE;
    return 0;
}

static int s_prepare(void *state, const msg_t *m, unsigned delay_ms, compute_job_t *job, char *reason, size_t len)
{
    bool solve = m->type == MSG_SOLVE;
    job->task_id = solve ? m->u.solve.task_id : m->u.verify.task_id;
    job->job_id = solve ? m->u.solve.job_id : m->u.verify.job_id;
    wsolve_task_t *t = malloc(sizeof *t);
    if (t == NULL) {
        snprintf(reason, len, "out of memory");
        return MSG_CODE_INTERNAL;
    }
    int code = s_read(state, m, t, reason, len);
    if (code != 0) {
        free(t);
        return code;
    }
    t->delay_ms = delay_ms;
    job->arg = t;
    return 0;
}

static int s_send_cb(void *ctx, const msg_t *m)
{
    s_state_t *self = ctx;
    self->io.send(self->io.ctx, m);
    return 0;
}

/* Starts the next transfer (WKIND_HOLD), or, every table here, makes the task ready (0). */
static int s_next_fetch(s_state_t *self, wsolve_task_t *t, char *reason, size_t len)
{
    if (t->ifetch < t->nfetch) {
        if (xfer_start(&self->xfer, self->dir, &t->fetch[t->ifetch], true, reason, len) != 0)
            return MSG_CODE_TABLE;
        self->xfer_on = true;
        xfer_pump(&self->xfer, s_send_cb, self);
        return WKIND_HOLD;
    }
    self->pairs_made += !t->verify;
    t->corrupt = !t->verify && self->io.opts->spoil > 0 && self->pairs_made % self->io.opts->spoil == 0;
    t->damage = !t->verify && self->io.opts->damage > 0 && self->pairs_made % self->io.opts->damage == 0;
    return 0;
}

static int s_fetch(void *state, compute_job_t *job, char *reason, size_t len)
{
    s_state_t *self = state;
    wsolve_task_t *t = job->arg;
    s_logf(self, false, "%s %s: %u tables to fetch%s", t->verify ? "verifying" : "solving", t->name, t->nfetch,
           t->shared ? " (shared directory)" : "");
    return s_next_fetch(self, t, reason, len);
}

/* A CHUNK of the held task's transfer (anything else is a stale answer). */
static int s_on_chunk(s_state_t *self, const msg_chunk_t *c, compute_job_t *held, char *reason, size_t len)
{
    if (held == NULL || !self->xfer_on || strcmp(c->table, self->xfer.ref.name) != 0)
        return WKIND_HOLD;
    xfer_status_t st = xfer_on_chunk(&self->xfer, c, s_send_cb, self, reason, len);
    if (st == XFER_MORE)
        return WKIND_HOLD;
    self->xfer_on = false;
    if (st == XFER_FAILED)
        return MSG_CODE_TABLE;
    if (self->xfer.rejected > 0)
        s_logf(self, true, "%s: %llu corrupt chunks rejected and fetched again", self->xfer.ref.name,
               (unsigned long long)self->xfer.rejected);
    wsolve_task_t *t = held->arg;
    t->ifetch++;
    return s_next_fetch(self, t, reason, len);
}

/* Whether the coordinator may fetch this file: one this worker made lately. */
static bool s_served(const s_state_t *self, const char *name)
{
    for (uint32_t k = 0; k < self->nserved; k++)
        if (strcmp(self->served[k], name) == 0)
            return true;
    return false;
}

static void s_on_fetch(s_state_t *self, const msg_fetch_t *f)
{
    msg_t chunk;
    char err[600];
    if (!s_served(self, f->table)) {
        snprintf(err, sizeof err, "%s: this worker made no such table for you", f->table);
    } else if (xfer_serve(self->dir, f, &chunk, self->chunk_data, err, sizeof err) == 0) {
        if (self->io.opts->inject_fault > 0 && ++self->chunks_served % self->io.opts->inject_fault == 0 &&
            chunk.u.chunk.n_data > 0)
            self->chunk_data[0] ^= 1; /* a deliberately corrupt chunk, for the transfer tests */
        self->io.send(self->io.ctx, &chunk);
        return;
    }
    msg_t m;
    msg_init(&m, MSG_ERROR);
    m.u.error.code = MSG_CODE_TABLE;
    snprintf(m.u.error.text, sizeof m.u.error.text, "%.255s", err);
    self->io.send(self->io.ctx, &m);
}

static int s_message(void *state, const msg_t *m, compute_job_t *held, char *reason, size_t len)
{
    if (m->type == MSG_CHUNK)
        return s_on_chunk(state, &m->u.chunk, held, reason, len);
    s_on_fetch(state, &m->u.fetch);
    return WKIND_HOLD;
}

static void s_reset(void *state)
{
    s_state_t *self = state;
    if (self->xfer_on)
        xfer_abort(&self->xfer); /* its good prefix is kept */
    self->xfer_on = false;
    self->nserved = 0;
}

static int s_shared_new(size_t hash_bytes, void **shared, char *err, size_t errlen)
{
    (void)hash_bytes;
    if ((*shared = calloc(1, sizeof(s_shared_t))) == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

static void s_shared_free(void **shared)
{
    s_shared_t *sh = *shared;
    if (sh != NULL)
        store_destroy(&sh->store);
    free(sh);
    *shared = NULL;
}

static void *s_run(const compute_job_t *job, const wkind_env_t *env)
{
    const wsolve_task_t *t = job->arg;
    s_shared_t *sh = env->shared;
    if (t->delay_ms > 0) {
        struct timespec d = {t->delay_ms / 1000, (long)(t->delay_ms % 1000) * 1000000L};
        nanosleep(&d, NULL);
    }
    wsolve_result_t *out = malloc(sizeof *out);
    if (out != NULL)
        wsolve_run(t, &sh->store, env->threads, out);
    return out;
}

static void s_remember_served(s_state_t *self, const msg_solved_t *s)
{
    for (uint32_t k = 0; k < s->n_tables; k++) {
        if (s_served(self, s->tables[k].name))
            continue;
        if (self->nserved == SERVED_MAX) {
            memmove(self->served[0], self->served[1], sizeof self->served[0] * (SERVED_MAX - 1));
            self->nserved--;
        }
        memcpy(self->served[self->nserved++], s->tables[k].name, MSG_TABLE_NAME_MAX); /* NUL-terminated (made here) */
    }
}

static int s_answer(void *state, const compute_done_t *d, bool perturb, msg_t *m, char *reason, size_t len)
{
    s_state_t *self = state;
    wsolve_result_t *r = d->result;
    (void)perturb;
    if (r == NULL || r->failed) {
        snprintf(reason, len, "%s", r ? r->err : "out of memory");
        return MSG_CODE_INTERNAL;
    }
    *m = r->answer;
    if (m->type == MSG_SOLVED) {
        m->u.solved.in_shared = r->in_shared;
        s_remember_served(self, &m->u.solved);
        s_logf(self, false, "solved %s: %llu positions in %.1f s", r->name,
               (unsigned long long)m->u.solved.positions, (double)m->u.solved.elapsed_ms / 1000.0);
    } else {
        s_logf(self, !m->u.verified.ok, "verified %s: %llu records, %llu inconsistencies%s%s", r->name,
               (unsigned long long)m->u.verified.records,
               (unsigned long long)m->u.verified.failures, m->u.verified.ok ? "" : ": ", m->u.verified.first_error);
    }
    return 0;
}

const wkind_t WSOLVE_KIND = {
    .name = "solve", .tasks = {MSG_SOLVE, MSG_VERIFY}, .others = {MSG_FETCH, MSG_CHUNK}, .version = 2,
    .exclusive = true, .open = s_open, .close = s_close, .prepare = s_prepare, .fetch = s_fetch,
    .message = s_message, .reset = s_reset, .shared_new = s_shared_new, .shared_free = s_shared_free,
    .run = s_run, .answer = s_answer,
};
