/* solve.c: solving pairs in order, in parallel by unit, resumably. */
#include "solve.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "index.h"
#include "sig.h"
#include "tbfile.h"

int gen_pair_children(int pair, int *out)
{
    int n = 0, t0 = sig_pair_table(pair);
    int tabs[2] = {t0, sig_table_flip(t0)};
    for (int k = 0; k < 2; k++) {
        sig_side_t x = sig_side(sig_table_stm(tabs[k])), y = sig_side(sig_table_opp(tabs[k]));
        /* The side to move x captures one of y's pieces, promotes, or both. */
        for (int cap = -1; cap < 5; cap++)
            for (int pro = 0; pro < 5; pro++) {
                sig_side_t yy = y, xx = x;
                if (cap >= 0 && yy.count[cap]-- == 0)
                    continue;
                if (pro > 0 && (xx.count[0]-- == 0))
                    continue;
                if (pro > 0)
                    xx.count[pro]++;
                if (cap < 0 && pro == 0)
                    continue;
                int a = sig_side_id(&yy), b = sig_side_id(&xx);
                if (a < 0 || b < 0)
                    continue;
                int t = sig_table(a, b);
                if (sig_table_dead(t))
                    continue;
                bool seen = false;
                for (int i = 0; i < n; i++)
                    seen |= out[i] == t;
                if (!seen && n < 64)
                    out[n++] = t;
            }
    }
    return n;
}

typedef struct {
    store_t *store;
    const layout_pair_t *pair;
    rec_t **recs;
    int next, end, failed;
    int unit_threads;  /* threads each unit may use (spare ones when units are few) */
    pthread_mutex_t lock;
    gen_stats_t st;
    char err[256];
} s_work_t;

static void *s_worker(void *arg)
{
    s_work_t *w = arg;
    for (;;) {
        pthread_mutex_lock(&w->lock);
        int i = w->failed ? w->end : w->next++;
        pthread_mutex_unlock(&w->lock);
        if (i >= w->end)
            return NULL;
        gen_stats_t st = {0};
        char err[256];
        int rc = gen_unit(w->store, w->pair, &w->pair->units[i], w->recs, w->unit_threads, &st, err, sizeof err);
        pthread_mutex_lock(&w->lock);
        if (rc < 0 && !w->failed) {
            w->failed = 1;
            snprintf(w->err, sizeof w->err, "%s", err);
        }
        gen_stats_add(&w->st, &st);
        pthread_mutex_unlock(&w->lock);
    }
}

/* Solves units [begin, end) (one key) with up to `threads` threads. */
static int s_run_units(s_work_t *w, int begin, int end, int threads)
{
    w->next = begin;
    w->end = end;
    int nt = threads < end - begin ? threads : end - begin;
    w->unit_threads = nt > 0 ? threads / nt : 1;
    if (nt <= 1) {
        s_worker(w);
        return w->failed ? -1 : 0;
    }
    pthread_t tid[64];
    int started = 0;
    for (; started < nt && started < 64; started++)
        if (pthread_create(&tid[started], NULL, s_worker, w) != 0)
            break;
    if (started == 0)
        s_worker(w);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    return w->failed ? -1 : 0;
}

int solve_pair(store_t *store, int pair, const solve_opts_t *opts, gen_stats_t *st, char *err, size_t errlen)
{
    index_init();
    int children[64], acquired = 0;
    int nc = gen_pair_children(pair, children);
    for (; acquired < nc; acquired++)
        if (store_acquire(store, children[acquired], err, errlen) < 0)
            break;
    layout_pair_t lp;
    if (acquired < nc || layout_pair_build(pair, &lp) < 0) {
        if (acquired == nc)
            snprintf(err, errlen, "out of memory building the layout of pair %d", pair);
        for (int i = 0; i < acquired; i++)
            store_release(store, children[i]);
        return -1;
    }
    rec_t *recs[2] = {NULL, NULL};
    int rc = -1;
    for (int t = 0; t < lp.ntables; t++) {
        recs[t] = malloc(sizeof(rec_t) * (lp.tables[t].size ? lp.tables[t].size : 1));
        if (!recs[t]) {
            snprintf(err, errlen, "out of memory for %llu records", (unsigned long long)lp.tables[t].size);
            goto done;
        }
        for (uint64_t i = 0; i < lp.tables[t].size; i++)
            recs[t][i] = REC_INVALID;
        store_put(store, lp.tables[t].table, &lp.tables[t], recs[t]);
    }
    s_work_t w = {.store = store, .pair = &lp, .recs = recs};
    pthread_mutex_init(&w.lock, NULL);
    for (int b = 0; b < lp.nunits;) {
        int e = b;
        while (e < lp.nunits && lp.units[e].key == lp.units[b].key)
            e++;
        if (s_run_units(&w, b, e, opts->threads > 0 ? opts->threads : 1) < 0) {
            snprintf(err, errlen, "%s", w.err);
            pthread_mutex_destroy(&w.lock);
            goto done;
        }
        b = e;
    }
    pthread_mutex_destroy(&w.lock);
    for (int t = 0; t < lp.ntables; t++) {
        tbfile_info_t info;
        if (tbfile_write(opts->dir, &lp.tables[t], recs[t], &info, err, errlen) < 0)
            goto done;
    }
    gen_stats_add(st, &w.st);
    rc = 0;
done:
    /* The store reads the files from now on. */
    for (int t = 0; t < lp.ntables; t++)
        store_put(store, lp.tables[t].table, NULL, NULL);
    free(recs[0]);
    free(recs[1]);
    layout_pair_free(&lp);
    for (int i = 0; i < nc; i++)
        store_release(store, children[i]);
    return rc;
}

/* Slots of pair i's tables and of its largest unit. */
static void s_pair_sizes(int pair, uint64_t *slots, uint64_t *unit, uint64_t table_slots[2])
{
    layout_pair_t lp;
    *slots = *unit = 0;
    table_slots[0] = table_slots[1] = 0;
    if (layout_pair_build(pair, &lp) < 0)
        return;
    for (int k = 0; k < lp.ntables; k++) {
        *slots += lp.tables[k].size;
        table_slots[k] = lp.tables[k].size;
    }
    for (int u = 0; u < lp.nunits; u++) {
        uint64_t n = 0;
        for (int k = 0; k < lp.units[u].n; k++)
            n += lp.tables[lp.units[u].tab[k]].slices[lp.units[u].slice[k]].size;
        if (n > *unit)
            *unit = n;
    }
    layout_pair_free(&lp);
}

uint64_t solve_pair_memory(int pair)
{
    index_init();
    uint64_t slots, unit, ts[2], total;
    s_pair_sizes(pair, &slots, &unit, ts);
    /* records 4 B a slot; a unit's work arrays 9 B a slot and its level lists
     * about 8 B more; the tables its exits read 4 B a slot. */
    total = 4 * slots + 17 * unit;
    int ch[64], n = gen_pair_children(pair, ch);
    for (int i = 0; i < n; i++) {
        uint64_t cs, cu, cts[2];
        int cp = sig_pair_of(ch[i]);
        s_pair_sizes(cp, &cs, &cu, cts);
        total += 4 * (sig_pair_table(cp) == ch[i] ? cts[0] : cts[1]);
    }
    return total;
}

bool solve_pair_done(const char *dir, int pair)
{
    int t0 = sig_pair_table(pair);
    int tabs[2] = {t0, sig_table_flip(t0)};
    for (int k = 0; k < (tabs[0] == tabs[1] ? 1 : 2); k++) {
        char name[64], path[4096];
        tbfile_name(tabs[k], name, sizeof name);
        snprintf(path, sizeof path, "%s/%s", dir, name);
        if (!tbfile_complete(path, tabs[k]))
            return false;
    }
    return true;
}

static double s_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Pairs with the same pieces and pawns never depend on each other (every
 * exit removes a piece or a pawn), so each such group is solved by a pool of
 * threads taking whole pairs; a group smaller than the pool gives its pairs
 * the spare threads for their units. */
typedef struct {
    const solve_opts_t *opts;
    store_t *store;
    const int *pairs;
    int n, next, done_before, total, failed;
    uint64_t slots_total, slots_done;
    double t0;
    gen_stats_t *st;
    const bool *skip;       /* pairs already solved when the run started */
    const uint64_t *slots;  /* index slots of each pair */
    const uint64_t *mem;    /* peak bytes of each pair (solve_pair_memory) */
    uint64_t mem_used, mem_budget;
    pthread_mutex_t lock;
    pthread_cond_t freed;   /* a pair finished: its memory is free again */
    char err[512];
} s_group_t;

static double s_now(void);

static void *s_group_worker(void *arg)
{
    s_group_t *g = arg;
    for (;;) {
        pthread_mutex_lock(&g->lock);
        int k = g->failed ? g->n : g->next++;
        pthread_mutex_unlock(&g->lock);
        if (k >= g->n)
            return NULL;
        int i = g->pairs[k];
        solve_opts_t o = *g->opts;
        int spare = g->opts->threads - (g->n - k - 1);
        o.threads = spare > 1 ? spare : 1;
        bool skipped = g->skip[i];
        gen_stats_t st = {0};
        char err[512];
        /* A pair waits until the running ones leave room for it (or run alone). */
        pthread_mutex_lock(&g->lock);
        while (!skipped && g->mem_used > 0 && g->mem_used + g->mem[i] > g->mem_budget)
            pthread_cond_wait(&g->freed, &g->lock);
        if (!skipped)
            g->mem_used += g->mem[i];
        pthread_mutex_unlock(&g->lock);
        int rc = skipped ? 0 : solve_pair(g->store, i, &o, &st, err, sizeof err);
        pthread_mutex_lock(&g->lock);
        if (!skipped) {
            g->mem_used -= g->mem[i];
            pthread_cond_broadcast(&g->freed);
        }
        if (rc < 0 && !g->failed) {
            g->failed = 1;
            snprintf(g->err, sizeof g->err, "%s", err);
        }
        gen_stats_add(g->st, &st);
        if (!skipped)
            g->slots_done += g->slots[i];
        if (rc == 0 && g->opts->progress) {
            char name[SIG_NAME_MAX];
            sig_table_name(sig_pair_table(i), name, sizeof name);
            double el = s_now() - g->t0;
            solve_progress_t p = {.pair = i, .pairs_done = ++g->done_before, .pairs_total = g->total, .name = name,
                                  .positions = g->st->positions, .slots_done = g->slots_done,
                                  .slots_total = g->slots_total, .seconds = el, .skipped = skipped, .eta = -1};
            if (g->slots_done > 0 && el > 0)
                p.eta = (double)(g->slots_total - g->slots_done) * el / (double)g->slots_done;
            g->opts->progress(g->opts->ctx, &p);
        }
        pthread_mutex_unlock(&g->lock);
    }
}

static int s_solve_group(s_group_t *g)
{
    int nt = g->opts->threads < g->n ? g->opts->threads : g->n;
    pthread_t tid[64];
    int started = 0;
    for (; nt > 1 && started < nt && started < 64; started++)
        if (pthread_create(&tid[started], NULL, s_group_worker, g) != 0)
            break;
    if (started == 0)
        s_group_worker(g);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    return g->failed ? -1 : 0;
}

uint64_t solve_default_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size / 4 * 3 : (uint64_t)8 << 30;
}

static int s_group_key(int pair)
{
    int t = sig_pair_table(pair);
    return sig_table_pieces(t) * 16 + sig_side_pawns(sig_table_stm(t)) + sig_side_pawns(sig_table_opp(t));
}

int solve_all(const solve_opts_t *opts, gen_stats_t *st, char *err, size_t errlen)
{
    index_init();
    store_t *store = store_new(opts->dir);
    int *pairs = malloc(sizeof *pairs * (size_t)sig_pair_nb());
    if (!store || !pairs) {
        store_destroy(&store);
        free(pairs);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int n = 0, np = sig_pair_nb();
    bool *skip = calloc((size_t)np, sizeof *skip);
    uint64_t *slots = calloc((size_t)np, sizeof *slots), *mem = calloc((size_t)np, sizeof *mem);
    uint64_t total = 0;
    for (int i = 0; i < np && skip && slots && mem; i++) {
        int t = sig_pair_table(i);
        if (sig_table_pieces(t) > opts->max_pieces || sig_table_dead(t))
            continue;
        pairs[n++] = i;
        skip[i] = solve_pair_done(opts->dir, i);
        if (!skip[i]) {
            uint64_t unit, ts[2];
            s_pair_sizes(i, &slots[i], &unit, ts);
            mem[i] = solve_pair_memory(i);
            total += slots[i];
        }
    }
    s_group_t g = {.opts = opts, .store = store, .total = n, .t0 = s_now(), .st = st, .skip = skip,
                   .slots = slots, .slots_total = total, .mem = mem,
                   .mem_budget = opts->memory ? opts->memory : solve_default_memory()};
    if (!skip || !slots || !mem) {
        free(skip);
        free(slots);
        free(mem);
        free(pairs);
        store_destroy(&store);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    pthread_mutex_init(&g.lock, NULL);
    pthread_cond_init(&g.freed, NULL);
    int rc = 0;
    for (int b = 0; b < n && rc == 0;) {
        int e = b;
        while (e < n && s_group_key(pairs[e]) == s_group_key(pairs[b]))
            e++;
        g.pairs = pairs + b;
        g.n = e - b;
        g.next = 0;
        rc = s_solve_group(&g);
        b = e;
    }
    if (rc < 0)
        snprintf(err, errlen, "%s", g.err);
    pthread_mutex_destroy(&g.lock);
    pthread_cond_destroy(&g.freed);
    free(pairs);
    free(skip);
    free(slots);
    free(mem);
    store_destroy(&store);
    return rc;
}

int solve_closure(int table, int *out)
{
    int np = sig_pair_nb();
    char *need = calloc((size_t)np, 1);
    if (!need)
        return 0;
    need[sig_pair_of(table)] = 1;
    /* Children always come earlier in pair order: one backward sweep. */
    for (int i = np - 1; i >= 0; i--) {
        if (!need[i])
            continue;
        int ch[64], n = gen_pair_children(i, ch);
        for (int k = 0; k < n; k++)
            need[sig_pair_of(ch[k])] = 1;
    }
    int n = 0;
    for (int i = 0; i < np; i++)
        if (need[i] && !sig_table_dead(sig_pair_table(i)))
            out[n++] = i;
    free(need);
    return n;
}

static int s_name_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int solve_write_summary(const char *dir, char *err, size_t errlen)
{
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "%s: cannot open the table directory", dir);
        return -1;
    }
    char *names[SIG_TABLE_NB];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < SIG_TABLE_NB) {
        size_t l = strlen(e->d_name);
        if (l > 4 && strcmp(e->d_name + l - 4, ".otb") == 0)
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], s_name_cmp);
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/SUMMARY", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, errlen, "%s: cannot write", tmp);
        for (int i = 0; i < n; i++)
            free(names[i]);
        return -1;
    }
    fprintf(f, "# octad tables: name records loss blessed-loss draw cursed-win win invalid max-dtz max-dtm crc32c\n");
    for (int i = 0; i < n; i++) {
        tbfile_info_t info;
        char fp[4200], why[256];
        snprintf(fp, sizeof fp, "%s/%s", dir, names[i]);
        if (tbfile_read_info(fp, &info, why, sizeof why) == 0) {
            names[i][strlen(names[i]) - 4] = '\0';
            fprintf(f, "%s %llu %llu %llu %llu %llu %llu %llu %u %u %08x\n", names[i],
                    (unsigned long long)info.nrecords, (unsigned long long)info.counts[0],
                    (unsigned long long)info.counts[1], (unsigned long long)info.counts[2],
                    (unsigned long long)info.counts[3], (unsigned long long)info.counts[4],
                    (unsigned long long)info.counts[7], info.max_dtz, info.max_dtm, info.crc);
        }
        free(names[i]);
    }
    int rc = fclose(f) == 0 && rename(tmp, path) == 0 ? 0 : -1;
    if (rc < 0)
        snprintf(err, errlen, "%s: cannot write", path);
    return rc;
}
