/* smp.c: lazy SMP. Helper threads search the same root as the main thread,
 * each on its own copy of the search state and its own ordering statistics,
 * sharing only the transposition table (whose slots are safe to race on) and
 * a stop flag. Odd helpers run one ply ahead of the main thread's depths, so
 * the threads diverge and fill the table with different subtrees that the
 * main thread then finds. Only the main thread reports and decides the
 * result; with one thread nothing here runs and the search is deterministic. */
#include <stdlib.h>
#include <string.h>

#include "search.h"

typedef struct {
    search_shared_t shared; /* first: smp_start hands out its address */
    engine_limits_t lim;    /* the helpers' limits: only the searchmoves */
    int n;                  /* helpers started */
    pthread_t *tids;
    search_t **helpers;
} s_smp_t;

/* A helper: iterative deepening on a single line until the main thread stops it. */
static void *s_helper(void *arg)
{
    search_t *s = arg;
    for (int depth = 1 + (s->helper & 1); depth < ENGINE_DEPTH_MAX && !s->stopped; depth++) {
        s->pv_index = 0;
        search_aspire(s, depth, s->root[0].score, NULL, NULL);
    }
    atomic_fetch_add_explicit(&s->shared->nodes, s->nodes & 1023, memory_order_relaxed);
    return NULL;
}

/* Helper k: a copy of the set-up main search with its own limits, statistics and stop. */
static search_t *s_helper_new(const search_t *main, s_smp_t *smp, int k)
{
    search_t *h = malloc(sizeof *h);
    if (h == NULL)
        return NULL;
    memcpy(h, main, sizeof *h);
    h->helper = k;
    h->shared = &smp->shared;
    h->own_order = main->eng->order;
    h->order = &h->own_order;
    h->lim = &smp->lim;
    h->ctl = NULL;
    h->stoppable = true;
    h->nodes = 0;
    h->seldepth = 0;
    timeman_start(&h->tm, &smp->lim, main->ops->side(&main->stack[0].pos), engine_now_ms());
    return h;
}

search_shared_t *smp_start(search_t *s)
{
    int want = s->eng->threads - 1;
    if (want < 1)
        return NULL;
    s_smp_t *smp = calloc(1, sizeof *smp);
    if (smp == NULL || (smp->tids = calloc((size_t)want, sizeof *smp->tids)) == NULL
        || (smp->helpers = calloc((size_t)want, sizeof *smp->helpers)) == NULL) {
        if (smp)
            free(smp->tids);
        free(smp);
        return NULL;
    }
    atomic_init(&smp->shared.stop, false);
    atomic_init(&smp->shared.nodes, 0);
    smp->lim = (engine_limits_t){ .multipv = 1, .nsearchmoves = s->lim->nsearchmoves };
    memcpy(smp->lim.searchmoves, s->lim->searchmoves, sizeof smp->lim.searchmoves);
    for (int k = 1; k <= want; k++) {
        search_t *h = s_helper_new(s, smp, k);
        if (h == NULL)
            break;
        if (pthread_create(&smp->tids[smp->n], NULL, s_helper, h) != 0) {
            free(h);
            break;
        }
        smp->helpers[smp->n++] = h;
    }
    if (smp->n == 0) {
        smp_finish(&smp->shared, NULL);
        return NULL;
    }
    return &smp->shared;
}

void smp_finish(search_shared_t *shared, uint64_t *nodes)
{
    if (shared == NULL)
        return;
    s_smp_t *smp = (s_smp_t *)shared;
    atomic_store(&shared->stop, true);
    for (int i = 0; i < smp->n; i++) {
        pthread_join(smp->tids[i], NULL);
        free(smp->helpers[i]);
    }
    if (nodes != NULL)
        *nodes += atomic_load(&shared->nodes);
    free(smp->tids);
    free(smp->helpers);
    free(smp);
}
