/* store.c: tables by id, loaded on demand (whole, or by blocks under a
 * memory budget); lookups with e.p. look-ahead. */
#include "store.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "index.h"
#include "octad/make.h"
#include "octad/octad.h"
#include "sig.h"
#include "tbfile.h"
#include "tbsource.h"

typedef struct {
    const layout_table_t *layout;
    const rec_t *recs;
    tbfile_t *file;  /* owned when loaded from a file */
    tbsource_t *src; /* bounded store: the file, read by blocks */
    int users;       /* store_acquire calls not yet released */
    bool failed;     /* its file could not be read: not tried again before retry_at */
    double retry_at; /* monotonic seconds */
    char why[192];
} s_entry_t;

struct store {
    char *dir;
    pthread_mutex_t lock;
    s_entry_t tables[SIG_TABLE_NB];
    char last_error[256];
    double retry_s;             /* store_set_retry */
    blockcache_t *cache;        /* bounded store: the blocks read */
    tbsource_check_t check;     /* bounded store: how a file is checked at open (store_set_check) */
    tbsource_t **retired;       /* sources that failed while lookups might still use them */
    int nretired;
    void *aux;                  /* store_aux_set */
    void (*aux_release)(void *);
};

/* The calling thread's last failure (store_error, store_retry_in). */
static _Thread_local struct {
    const store_t *store;
    char msg[256];
    double retry_at;
} s_last;

static double s_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Notes a failure for the calling thread and as the store's last. Lock held. */
static void s_note(store_t *self, const char *msg, double retry_at)
{
    snprintf(self->last_error, sizeof self->last_error, "%s", msg);
    s_last.store = self;
    snprintf(s_last.msg, sizeof s_last.msg, "%s", msg);
    s_last.retry_at = retry_at;
}

/* Table e could not be read: not tried again for retry_s seconds. Lock held. */
static void s_fail(store_t *self, s_entry_t *e, const char *why)
{
    e->failed = true;
    e->retry_at = s_now() + self->retry_s;
    snprintf(e->why, sizeof e->why, "%s", why);
    s_note(self, e->why, e->retry_at);
}

store_t *store_new(const char *dir)
{
    index_init();
    store_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    if (dir && !(self->dir = strdup(dir))) {
        free(self);
        return NULL;
    }
    self->retry_s = STORE_RETRY_DEFAULT;
    pthread_mutex_init(&self->lock, NULL);
    return self;
}

store_t *store_new_bounded(const char *dir, size_t budget)
{
    store_t *self = store_new(dir);
    if (self && budget && !(self->cache = blockcache_new(budget, TBSOURCE_BLOCK)))
        store_destroy(&self);
    if (self)
        self->check = TBSOURCE_CHECK_QUICK;
    return self;
}

void store_set_check(store_t *self, tbsource_check_t check) { self->check = check; }

void store_set_retry(store_t *self, double seconds) { self->retry_s = seconds; }

double store_retry_in(const store_t *self)
{
    if (s_last.store != self || s_last.retry_at == 0)
        return 0;
    double left = s_last.retry_at - s_now();
    return left > 0 ? left : 0;
}

bool store_memory(store_t *self, blockcache_stats_t *out)
{
    if (!self->cache)
        return false;
    *out = blockcache_stats(self->cache);
    return true;
}

store_tables_t store_tables(store_t *self)
{
    store_tables_t out = {0, 0};
    pthread_mutex_lock(&self->lock);
    for (int t = 0; t < SIG_TABLE_NB; t++) {
        const s_entry_t *e = &self->tables[t];
        if (e->src) {
            out.open++;
            out.bytes += tbsource_bytes(e->src);
        } else if (e->file) {
            out.open++;
            out.bytes += sizeof *e->file + layout_table_bytes(&e->file->layout) + e->file->map_len
                         + (e->file->owned ? e->file->info.nrecords * sizeof(rec_t) : 0);
        }
    }
    for (int i = 0; i < self->nretired; i++)
        out.bytes += tbsource_bytes(self->retired[i]);
    pthread_mutex_unlock(&self->lock);
    return out;
}

void store_destroy(store_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    store_t *self = *self_p;
    for (int t = 0; t < SIG_TABLE_NB; t++) {
        if (self->tables[t].file) {
            tbfile_close(self->tables[t].file);
            free(self->tables[t].file);
        }
        tbsource_close(&self->tables[t].src);
    }
    for (int i = 0; i < self->nretired; i++)
        tbsource_close(&self->retired[i]);
    free(self->retired);
    blockcache_destroy(&self->cache);
    if (self->aux_release)
        self->aux_release(self->aux);
    pthread_mutex_destroy(&self->lock);
    free(self->dir);
    free(self);
    *self_p = NULL;
}

const char *store_dir(const store_t *self) { return self->dir; }

const char *store_error(store_t *self)
{
    if (s_last.store == self && s_last.msg[0])
        return s_last.msg;
    return self->last_error[0] ? self->last_error : "no such table";
}

void store_set_error(store_t *self, const char *msg)
{
    pthread_mutex_lock(&self->lock);
    s_note(self, msg, 0);
    pthread_mutex_unlock(&self->lock);
}

void *store_aux(const store_t *self) { return self->aux; }

void store_aux_set(store_t *self, void *aux, void (*release)(void *))
{
    self->aux = aux;
    self->aux_release = release;
}

void store_put(store_t *self, int table, const layout_table_t *layout, const rec_t *recs)
{
    pthread_mutex_lock(&self->lock);
    self->tables[table].layout = layout;
    __atomic_store_n(&self->tables[table].recs, recs, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&self->lock);
}

bool store_has(store_t *self, int table)
{
    return sig_table_dead(table) || __atomic_load_n(&self->tables[table].recs, __ATOMIC_ACQUIRE) != NULL
           || __atomic_load_n(&self->tables[table].src, __ATOMIC_ACQUIRE) != NULL;
}

int store_need(store_t *self, int table, char *err, size_t errlen)
{
    if (store_has(self, table))
        return 0;
    char name[SIG_NAME_MAX];
    sig_table_name(table, name, sizeof name);
    if (!self->dir) {
        snprintf(err, errlen, "table %s is needed and no table directory was given", name);
        return -1;
    }
    pthread_mutex_lock(&self->lock);
    s_entry_t *e = &self->tables[table];
    int rc = 0;
    if (e->recs || e->src) {
        /* loaded by another thread meanwhile */
    } else if (e->failed && s_now() < e->retry_at) {
        snprintf(err, errlen, "%s", e->why);
        s_note(self, e->why, e->retry_at);
        rc = -1;
    } else if (self->cache) {
        tbsource_t *src = tbsource_open(self->dir, table, self->check, err, errlen);
        if (!src) {
            s_fail(self, e, err);
            rc = -1;
        } else {
            e->failed = false;
            __atomic_store_n(&e->src, src, __ATOMIC_RELEASE);
        }
    } else {
        tbfile_t *f = calloc(1, sizeof *f);
        if (!f) {
            snprintf(err, errlen, "out of memory");
            rc = -1;
        } else if (tbfile_read(self->dir, table, f, err, errlen) < 0) {
            free(f);
            rc = -1;
            s_fail(self, e, err);
        } else {
            e->failed = false;
            e->file = f;
            e->layout = &f->layout;
            __atomic_store_n(&e->recs, f->recs, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&self->lock);
    return rc;
}

int store_acquire(store_t *self, int table, char *err, size_t errlen)
{
    if (store_need(self, table, err, errlen) < 0)
        return -1;
    pthread_mutex_lock(&self->lock);
    if (self->tables[table].file)
        self->tables[table].users++;
    pthread_mutex_unlock(&self->lock);
    return 0;
}

void store_release(store_t *self, int table)
{
    pthread_mutex_lock(&self->lock);
    s_entry_t *e = &self->tables[table];
    if (e->file && e->users > 0 && --e->users == 0) {
        __atomic_store_n(&e->recs, NULL, __ATOMIC_RELEASE);
        e->layout = NULL;
        tbfile_close(e->file);
        free(e->file);
        e->file = NULL;
    }
    pthread_mutex_unlock(&self->lock);
}

/* A block of src could not be read: the table fails (tried again after
 * retry_s, the file opened anew); src is kept, as other lookups may be in it. */
static void s_block_failed(store_t *self, int table, tbsource_t *src, const char *why)
{
    pthread_mutex_lock(&self->lock);
    s_entry_t *e = &self->tables[table];
    tbsource_t **grown = e->src == src ? realloc(self->retired, (size_t)(self->nretired + 1) * sizeof *grown) : NULL;
    if (grown) {
        self->retired = grown;
        self->retired[self->nretired++] = src;
        __atomic_store_n(&e->src, NULL, __ATOMIC_RELEASE);
        s_fail(self, e, why);
    } else {
        s_note(self, why, e->retry_at);
    }
    pthread_mutex_unlock(&self->lock);
}

/* Record gi of the table src reads: from the cache, or its block read. */
static rec_t s_block_record(store_t *self, int table, tbsource_t *src, uint64_t gi)
{
    uint64_t b = gi / TBSOURCE_BLOCK;
    uint32_t i = (uint32_t)(gi % TBSOURCE_BLOCK);
    rec_t r;
    if (blockcache_get(self->cache, table, b, i, &r))
        return r;
    char err[256] = "out of memory";
    rec_t *block = blockcache_buffer(self->cache);
    int64_t n = block ? tbsource_read(src, b, block, err, sizeof err) : -1;
    if (n < 0) {
        free(block);
        s_block_failed(self, table, src, err);
        return REC_INVALID;
    }
    r = block[i];
    blockcache_put(self->cache, table, b, block, (uint32_t)n);
    return r;
}

rec_t store_record(store_t *self, const octad_pos_t *p)
{
    if (octad_insufficient_material(p))
        return rec_make(REC_DRAW, 0, 0);
    octad_pos_t w;
    if (p->side != OCTAD_WHITE) {
        index_flip(p, &w);
        p = &w;
    }
    int table = index_table_of(p);
    if (table < 0)
        return REC_INVALID;
    if (sig_table_dead(table))
        return rec_make(REC_DRAW, 0, 0);
    s_entry_t *e = &self->tables[table];
    const rec_t *recs = __atomic_load_n(&e->recs, __ATOMIC_ACQUIRE);
    tbsource_t *src = recs ? NULL : __atomic_load_n(&e->src, __ATOMIC_ACQUIRE);
    if (!recs && !src && self->dir) {
        char err[256];
        if (store_need(self, table, err, sizeof err) < 0)
            return REC_INVALID; /* (store_need noted the failure) */
        recs = __atomic_load_n(&e->recs, __ATOMIC_ACQUIRE);
        src = recs ? NULL : __atomic_load_n(&e->src, __ATOMIC_ACQUIRE);
    }
    if (!recs && !src)
        return REC_INVALID;
    const layout_table_t *lt = recs ? e->layout : tbsource_layout(src);
    uint32_t idx;
    int sl = index_locate(lt, p, &idx);
    if (sl < 0)
        return REC_INVALID;
    uint64_t gi = lt->slices[sl].offset + idx;
    return recs ? recs[gi] : s_block_record(self, table, src, gi);
}

/* Whether p (with an e.p. square) has a legal e.p. capture. */
static bool s_ep_matters(const octad_pos_t *p, octad_move_t *moves, int n)
{
    (void)p;
    for (int i = 0; i < n; i++)
        if (octad_move_kind(moves[i]) == OCTAD_MK_EN_PASSANT)
            return true;
    return false;
}

/* One-ply look-ahead: the value of p from the values of its children. */
static int s_lookahead(store_t *self, const octad_pos_t *p, const octad_move_t *moves, int n, rec_t *out)
{
    int best50 = -2, bestinf = -2;
    int dtm_win = REC_DTM_MAX, dtm_loss = 0, dtz_win = REC_DTZ_MAX, dtz_loss = 0, dtz_cw = REC_DTZ_MAX, dtz_bl = 0;
    octad_pos_t q = *p;
    q.halfmove = 1;
    for (int i = 0; i < n; i++) {
        octad_pos_t c;
        rec_t r;
        make_move(&q, moves[i], &c);
        bool zeroing = c.halfmove == 0;
        if (store_value(self, &c, &r) < 0)
            return -1;
        int s50 = -rec_sign_rule(r, zeroing ? 0 : 1), sinf = -rec_sign_inf(rec_wdl(r));
        int dz = zeroing ? 1 : rec_dtz(r) + 1, dm = rec_dtm(r) + 1;
        if (s50 > best50)
            best50 = s50;
        if (sinf > bestinf)
            bestinf = sinf;
        if (s50 == 1 && dz < dtz_win)
            dtz_win = dz;
        if (sinf == 1 && dm < dtm_win)
            dtm_win = dm;
        if (sinf == 1 && dz < dtz_cw)
            dtz_cw = dz;
        if (dm > dtm_loss)
            dtm_loss = dm;
        if (dz > dtz_loss)
            dtz_loss = dz;
        if (dz > dtz_bl)
            dtz_bl = dz;
    }
    if (best50 == 1)
        *out = rec_make(REC_WIN, dtz_win, dtm_win);
    else if (best50 == -1)
        *out = rec_make(REC_LOSS, dtz_loss, dtm_loss);
    else if (bestinf == 1)
        *out = rec_make(REC_CURSED, dtz_cw, dtm_win);
    else if (bestinf == -1)
        *out = rec_make(REC_BLESSED, dtz_bl, dtm_loss);
    else
        *out = rec_make(REC_DRAW, 0, 0);
    return 0;
}

int store_value(store_t *self, const octad_pos_t *p, rec_t *out)
{
    if (p->ep != OCTAD_SQ_NONE && !octad_insufficient_material(p)) {
        octad_move_t moves[GAME_MOVES_MAX];
        int n = octad_gen_legal(p, moves);
        if (s_ep_matters(p, moves, n))
            return s_lookahead(self, p, moves, n, out);
    }
    octad_pos_t q = *p;
    q.ep = OCTAD_SQ_NONE;
    *out = store_record(self, &q);
    return rec_wdl(*out) == REC_INVALID ? -1 : 0;
}
