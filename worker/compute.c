/* compute.c: the compute threads behind a mutex-protected queue, running every kind through its
 * row, an exclusive one alone on the whole pool (see compute.h). */
#include "compute.h"

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

enum { KIND_MAX = 8 };

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
    size_t exclusive_nb;       /* exclusive tasks queued or running (at most one: compute_submit) */
    size_t done_nb;            /* finished and not yet taken */
    bool stop;
    int wake_fd;
    size_t low_water;          /* wake the I/O thread when this many tasks are left waiting */
    size_t hash_each;          /* bytes of a table a thread makes for itself */
    const wkind_t *kinds[KIND_MAX];
    void *shared[KIND_MAX];    /* each kind's pool-wide state (wkind_t.shared_new) */
    int kind_nb;
    int thread_nb;
    s_thread_t *threads;
};

static uint64_t s_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void s_free_node(s_node_t *node)
{
    free(node->job.arg);
    free(node);
}

/* Runs one task through its kind's row, with this thread's state of that kind. */
static void s_run(const compute_t *self, const compute_job_t *job, void **state, compute_done_t *out)
{
    int k = 0;
    while (k < self->kind_nb - 1 && self->kinds[k] != job->kind)
        k++;
    wkind_env_t env = {.shared = self->shared[k], .hash_each = self->hash_each, .thread = &state[k],
                       .threads = self->thread_nb};
    uint64_t start = s_now_ms();
    *out = (compute_done_t){.kind = job->kind, .task_id = job->task_id, .job_id = job->job_id, .gen = job->gen};
    out->result = job->kind->run(job, &env);
    out->elapsed_ms = s_now_ms() - start;
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

/* Whether a thread may take the task at the head of the queue now: an exclusive one only
 * once no thread is busy. (Nothing queues behind an exclusive task: compute_submit.) The
 * caller holds the lock. */
static bool s_can_take(const compute_t *self)
{
    return self->head != NULL && (!self->head->job.kind->exclusive || s_idle(self));
}

static void *s_thread_main(void *arg)
{
    s_thread_t *me = arg;
    compute_t *self = me->pool;
    void *state[KIND_MAX] = {0}; /* each kind's state on this thread (its tables, its engine) */
    pthread_mutex_lock(&self->lock);
    for (;;) {
        while (!self->stop && !s_can_take(self))
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
        bool exclusive = node->job.kind->exclusive;
        pthread_mutex_unlock(&self->lock);

        s_done_node_t *d = malloc(sizeof *d);
        compute_done_t result;
        s_run(self, &node->job, state, &result);
        s_free_node(node);

        pthread_mutex_lock(&self->lock);
        me->busy = false;
        self->exclusive_nb -= exclusive;
        if (self->head != NULL && self->head->job.kind->exclusive) /* it may be waiting for this thread */
            pthread_cond_broadcast(&self->cond);
        if (d == NULL) {
            free(result.result);
        } else {
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
    for (int k = 0; k < self->kind_nb; k++)
        if (self->kinds[k]->thread_free)
            self->kinds[k]->thread_free(&state[k]);
    return NULL;
}

compute_t *compute_new(const wkind_t *const *kinds, int kind_nb, int threads, size_t hash_bytes, int wake_fd,
                       size_t low_water, char *err, size_t errlen)
{
    if (kind_nb < 1 || kind_nb > KIND_MAX) {
        snprintf(err, errlen, "compute pool: %d kinds (1..%d)", kind_nb, KIND_MAX);
        return NULL;
    }
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
    self->kind_nb = kind_nb;
    for (int k = 0; k < kind_nb; k++) {
        self->kinds[k] = kinds[k];
        if (kinds[k]->shared_new && kinds[k]->shared_new(hash_bytes, &self->shared[k], err, errlen) != 0) {
            compute_destroy(&self);
            return NULL;
        }
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
    if (self->exclusive_nb > 0) {
        pthread_mutex_unlock(&self->lock);
        free(node);
        return -2;
    }
    self->exclusive_nb += job->kind->exclusive;
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
    for (s_node_t *q = node; q; q = q->next)
        self->exclusive_nb -= q->job.kind->exclusive;
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

bool compute_exclusive(compute_t *self)
{
    pthread_mutex_lock(&self->lock);
    bool on = self->exclusive_nb > 0;
    pthread_mutex_unlock(&self->lock);
    return on;
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
        free(d.result);
    pthread_cond_destroy(&self->cond);
    pthread_mutex_destroy(&self->lock);
    for (int k = 0; k < self->kind_nb; k++)
        if (self->kinds[k]->shared_free)
            self->kinds[k]->shared_free(&self->shared[k]);
    free(self->threads);
    free(self);
    *self_p = NULL;
}
