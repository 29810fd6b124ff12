/* gen_par.c: the generator's parallel loop. */
#include "gen_par.h"

#include <pthread.h>
#include <stdbool.h>

typedef struct {
    gen_par_fn fn;
    void *ctx;
    uint32_t n, chunk, next;
    int failed;
} s_loop_t;

typedef struct {
    s_loop_t *loop;
    int worker;
} s_arg_t;

static void s_run(s_loop_t *l, int worker)
{
    for (;;) {
        if (__atomic_load_n(&l->failed, __ATOMIC_RELAXED))
            return;
        uint32_t from = __atomic_fetch_add(&l->next, l->chunk, __ATOMIC_RELAXED);
        if (from >= l->n)
            return;
        uint32_t to = l->n - from < l->chunk ? l->n : from + l->chunk;
        if (l->fn(l->ctx, worker, from, to) < 0)
            __atomic_store_n(&l->failed, 1, __ATOMIC_RELAXED);
    }
}

static void *s_thread(void *arg)
{
    s_arg_t *a = arg;
    s_run(a->loop, a->worker);
    return NULL;
}

int gen_par_for(int threads, uint32_t n, uint32_t chunk, gen_par_fn fn, void *ctx)
{
    s_loop_t l = {.fn = fn, .ctx = ctx, .n = n, .chunk = chunk ? chunk : 1};
    int nt = threads < GEN_PAR_MAX ? threads : GEN_PAR_MAX;
    pthread_t tid[GEN_PAR_MAX];
    s_arg_t args[GEN_PAR_MAX];
    int started = 1;
    for (; started < nt; started++) {
        args[started] = (s_arg_t){&l, started};
        if (pthread_create(&tid[started], NULL, s_thread, &args[started]) != 0)
            break;
    }
    s_run(&l, 0);
    for (int i = 1; i < started; i++)
        pthread_join(tid[i], NULL);
    return l.failed ? -1 : 0;
}
