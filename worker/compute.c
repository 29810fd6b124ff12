/* compute.c: perft threads behind a mutex-protected queue (see compute.h). */
#include "compute.h"

#include "wanalyse.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct s_node {
    struct s_node *next;
    compute_job_t job;
} s_node_t;

typedef struct s_done_node {
    struct s_done_node *next;
    compute_done_t done;
} s_done_node_t;

typedef struct {
    compute_t *pool;
    pthread_t tid;
    bool started;
    bool busy;              /* guarded by pool->lock */
    compute_job_t current;  /* valid while busy */
} s_thread_t;

struct compute_s {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    s_node_t *head, *tail;     /* queued tasks */
    s_done_node_t *done_head, *done_tail;
    size_t queued;
    size_t done_nb;            /* finished and not yet taken */
    bool stop;
    int wake_fd;
    size_t low_water;          /* wake the I/O thread when this many tasks are left waiting */
    size_t hash_each;          /* bytes of each thread's own table (variants that cannot share) */
    game_tt_t *shared_tt;      /* octad table of every thread, or NULL (game_tt_shareable) */
    int thread_nb;
    s_thread_t *threads;
};

static uint64_t s_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Counts one task, with the shared table or this thread's own (re-made when the variant changes). */
static void s_count(const compute_t *self, const compute_job_t *job, game_tt_t **tt, variant_t *tt_variant,
                    compute_done_t *out)
{
    size_t hash_each = self->hash_each;
    uint64_t start = s_now_ms();
    memset(out, 0, sizeof *out);
    out->task_id = job->task_id;
    out->job_id = job->job_id;
    out->gen = job->gen;
    if (job->depth == 0) {
        out->nodes = 1;
        out->stats.nodes = 1;
    } else if (job->want_stats) {
        game_perft_stats(&job->pos, job->depth, &out->stats);
        out->nodes = out->stats.nodes;
    } else if (self->shared_tt != NULL && game_tt_shareable(job->pos.variant)) {
        out->nodes = game_perft(&job->pos, job->depth, self->shared_tt);
    } else {
        if (hash_each > 0 && (*tt == NULL || *tt_variant != job->pos.variant)) {
            game_tt_destroy(tt);
            *tt = game_tt_new(job->pos.variant, hash_each);
            *tt_variant = job->pos.variant;
        }
        out->nodes = game_perft(&job->pos, job->depth, *tt);
    }
    out->has_stats = job->want_stats;
    out->elapsed_ms = s_now_ms() - start;
}

static void s_free_node(s_node_t *node)
{
    free(node->job.game);
    free(node);
}

static void s_wake(compute_t *self)
{
    char b = 1;
    ssize_t rc = write(self->wake_fd, &b, 1); /* a full pipe already means "wake up" */
    (void)rc;
}

/* True when no thread is counting; the caller holds the lock. */
static bool s_idle(const compute_t *self)
{
    for (int i = 0; i < self->thread_nb; i++)
        if (self->threads[i].busy)
            return false;
    return true;
}

static void *s_thread_main(void *arg)
{
    s_thread_t *me = arg;
    compute_t *self = me->pool;
    game_tt_t *tt = NULL;
    variant_t tt_variant = VARIANT_OCTAD;
    engine_t *eng = NULL;   /* analyse tasks' engine, kept while the table size stays */
    uint32_t eng_mb = 0;
    pthread_mutex_lock(&self->lock);
    for (;;) {
        while (!self->stop && self->head == NULL)
            pthread_cond_wait(&self->cond, &self->lock);
        if (self->stop)
            break;
        s_node_t *node = self->head;
        self->head = node->next;
        if (self->head == NULL)
            self->tail = NULL;
        self->queued--;
        me->busy = true;
        me->current = node->job;
        pthread_mutex_unlock(&self->lock);

        s_done_node_t *d = malloc(sizeof *d);
        static _Thread_local compute_done_t result; /* a PV's texts: 2 KB */
        if (node->job.analyse) {
            uint64_t start = s_now_ms();
            memset(&result, 0, sizeof result);
            result.task_id = node->job.task_id;
            result.job_id = node->job.job_id;
            result.gen = node->job.gen;
            wanalyse_run(&node->job, &eng, &eng_mb, &result);
            result.elapsed_ms = s_now_ms() - start;
        } else {
            s_count(self, &node->job, &tt, &tt_variant, &result);
        }
        s_free_node(node);

        pthread_mutex_lock(&self->lock);
        me->busy = false;
        if (d != NULL) {
            d->done = result;
            d->next = NULL;
            if (self->done_tail)
                self->done_tail->next = d;
            else
                self->done_head = d;
            self->done_tail = d;
            self->done_nb++;
        }
        /* Results pile up and go out together (one wake-up, one batch on the
         * wire): see compute.h. */
        if (self->queued == self->low_water || (self->queued == 0 && s_idle(self)))
            s_wake(self);
    }
    pthread_mutex_unlock(&self->lock);
    game_tt_destroy(&tt);
    engine_destroy(&eng);
    return NULL;
}

compute_t *compute_new(int threads, size_t hash_bytes, int wake_fd, size_t low_water, char *err, size_t errlen)
{
    compute_t *self = calloc(1, sizeof *self);
    if (self == NULL || (self->threads = calloc((size_t)threads, sizeof *self->threads)) == NULL) {
        free(self);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&self->lock, NULL);
    pthread_cond_init(&self->cond, NULL);
    self->wake_fd = wake_fd;
    self->low_water = low_water;
    self->hash_each = hash_bytes / (size_t)threads;
    self->thread_nb = threads;
    /* One table for every thread where that stays exact: no thread recomputes
     * what another has stored. Its pages are taken only as the search reaches them. */
    if (hash_bytes > 0 && game_tt_shareable(VARIANT_OCTAD) &&
        (self->shared_tt = game_tt_new(VARIANT_OCTAD, hash_bytes)) == NULL) {
        snprintf(err, errlen, "hash: cannot allocate %zu MiB", hash_bytes >> 20);
        compute_destroy(&self);
        return NULL;
    }
    for (int i = 0; i < threads; i++) {
        self->threads[i].pool = self;
        if (pthread_create(&self->threads[i].tid, NULL, s_thread_main, &self->threads[i]) != 0) {
            snprintf(err, errlen, "cannot start a compute thread");
            compute_destroy(&self);
            return NULL;
        }
        self->threads[i].started = true;
    }
    return self;
}

int compute_submit(compute_t *self, const compute_job_t *job)
{
    s_node_t *node = malloc(sizeof *node);
    if (node == NULL)
        return -1;
    node->job = *job;
    node->next = NULL;
    pthread_mutex_lock(&self->lock);
    if (self->tail)
        self->tail->next = node;
    else
        self->head = node;
    self->tail = node;
    self->queued++;
    pthread_cond_signal(&self->cond);
    pthread_mutex_unlock(&self->lock);
    return 0;
}

bool compute_take(compute_t *self, compute_done_t *out)
{
    pthread_mutex_lock(&self->lock);
    s_done_node_t *d = self->done_head;
    if (d != NULL) {
        self->done_head = d->next;
        if (self->done_head == NULL)
            self->done_tail = NULL;
        self->done_nb--;
    }
    pthread_mutex_unlock(&self->lock);
    if (d == NULL)
        return false;
    *out = d->done;
    free(d);
    return true;
}

size_t compute_drop_queued(compute_t *self)
{
    pthread_mutex_lock(&self->lock);
    s_node_t *node = self->head;
    size_t n = self->queued;
    self->head = self->tail = NULL;
    self->queued = 0;
    pthread_mutex_unlock(&self->lock);
    while (node) {
        s_node_t *next = node->next;
        s_free_node(node);
        node = next;
    }
    return n;
}

size_t compute_ids(compute_t *self, uint32_t gen, uint64_t *ids, size_t cap)
{
    size_t n = 0;
    pthread_mutex_lock(&self->lock);
    for (int i = 0; i < self->thread_nb && n < cap; i++)
        if (self->threads[i].busy && self->threads[i].current.gen == gen)
            ids[n++] = self->threads[i].current.task_id;
    for (s_node_t *node = self->head; node && n < cap; node = node->next)
        if (node->job.gen == gen)
            ids[n++] = node->job.task_id;
    pthread_mutex_unlock(&self->lock);
    return n;
}

size_t compute_busy(compute_t *self)
{
    size_t n;
    pthread_mutex_lock(&self->lock);
    n = self->queued + self->done_nb;
    for (int i = 0; i < self->thread_nb; i++)
        n += self->threads[i].busy;
    pthread_mutex_unlock(&self->lock);
    return n;
}

void compute_destroy(compute_t **self_p)
{
    compute_t *self = *self_p;
    if (self == NULL)
        return;
    pthread_mutex_lock(&self->lock);
    self->stop = true;
    pthread_cond_broadcast(&self->cond);
    pthread_mutex_unlock(&self->lock);
    for (int i = 0; i < self->thread_nb; i++)
        if (self->threads[i].started)
            pthread_join(self->threads[i].tid, NULL);
    compute_drop_queued(self);
    compute_done_t d;
    while (compute_take(self, &d))
        ;
    pthread_cond_destroy(&self->cond);
    pthread_mutex_destroy(&self->lock);
    game_tt_destroy(&self->shared_tt);
    free(self->threads);
    free(self);
    *self_p = NULL;
}
