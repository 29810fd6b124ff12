/* sdag.c: the solve job's dependency graph (see sdag.h). */
#include "sdag.h"

#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "sig.h"
#include "solve.h"

/* Placements of a table's pieces on 16 squares: 16!/(16-k)! over the
 * permutations of equal pieces (of one colour and type). */
static double s_placements(int table)
{
    sig_side_t a = sig_side(sig_table_stm(table)), b = sig_side(sig_table_opp(table));
    int k = sig_table_pieces(table);
    double n = 1;
    for (int i = 0; i < k; i++)
        n *= 16 - i;
    for (int t = 0; t < 5; t++)
        for (int c = 2; c <= a.count[t]; c++)
            n /= c;
    for (int t = 0; t < 5; t++)
        for (int c = 2; c <= b.count[t]; c++)
            n /= c;
    return n;
}

int sdag_find_table(const sdag_t *g, int table)
{
    for (int i = 0; i < g->n; i++)
        if (g->pairs[i].tables[0] == table || g->pairs[i].tables[1] == table)
            return i;
    return -1;
}

/* The graph of the pairs with at most max_pieces pieces, and (keep not NULL)
 * only those keep marks, by sig pair index. */
static int s_build(sdag_t *g, int max_pieces, const char *keep)
{
    memset(g, 0, sizeof *g);
    g->pairs = calloc((size_t)sig_pair_nb(), sizeof *g->pairs);
    if (g->pairs == NULL)
        return -1;
    g->next_task_id = 1;
    for (int i = 0; i < sig_pair_nb(); i++) {
        int t = sig_pair_table(i);
        if (sig_table_pieces(t) > max_pieces || sig_table_dead(t) || (keep && !keep[i]))
            continue;
        sdag_pair_t *p = &g->pairs[g->n++];
        p->pair = i;
        p->tables[0] = t;
        p->tables[1] = sig_table_flip(t);
        p->ntables = p->tables[1] == t ? 1 : 2;
        sig_table_name(t, p->name, sizeof p->name);
        p->maker = p->bad_maker = -1;
        for (int k = 0; k < p->ntables; k++)
            p->weight += s_placements(p->tables[k]);
        p->memory = solve_pair_memory(i);
        p->nchildren = gen_pair_children(i, p->children);
        /* Pairs come in solving order, so every child's pair is already in the graph. */
        for (int c = 0; c < p->nchildren; c++) {
            int d = sdag_find_table(g, p->children[c]);
            bool seen = false;
            for (int k = 0; k < p->ndeps; k++)
                seen |= p->deps[k] == d;
            if (d >= 0 && !seen && p->ndeps < SDAG_DEPS_MAX)
                p->deps[p->ndeps++] = d;
        }
        p->undone = p->ndeps;
    }
    for (int i = 0; i < g->n; i++)
        g->weight_total += g->pairs[i].weight;
    return 0;
}

int sdag_build(sdag_t *g, int max_pieces)
{
    sig_init();
    return s_build(g, max_pieces, NULL);
}

int sdag_build_for(sdag_t *g, const int *tables, int n)
{
    sig_init();
    int np = sig_pair_nb(), *pairs = malloc(sizeof *pairs * (size_t)np);
    char *keep = calloc((size_t)np, 1);
    int rc = -1;
    if (pairs && keep) {
        for (int k = 0; k < n; k++) {
            int m = solve_closure(tables[k], pairs);
            for (int i = 0; i < m; i++)
                keep[pairs[i]] = 1;
        }
        rc = s_build(g, 8, keep); /* octad has 8 pieces at most */
    }
    free(pairs);
    free(keep);
    return rc;
}

void sdag_free(sdag_t *g)
{
    free(g->pairs);
    g->pairs = NULL;
    g->n = 0;
}

void sdag_done(sdag_t *g, int i)
{
    sdag_pair_t *p = &g->pairs[i];
    if (p->state == SDAG_DONE)
        return;
    p->state = SDAG_DONE;
    p->serial = 0;
    lease_done(&p->mem);
    g->done++;
    if (!p->preloaded)
        g->weight_done_run += p->weight;
    for (int j = i + 1; j < g->n; j++)
        for (int k = 0; k < g->pairs[j].ndeps; k++)
            if (g->pairs[j].deps[k] == i) {
                g->pairs[j].undone--;
                if (g->pairs[j].undone == 0 && g->pairs[j].state == SDAG_WAITING)
                    g->pairs[j].state = SDAG_READY;
            }
}

void sdag_preload(sdag_t *g, int i)
{
    g->pairs[i].preloaded = true;
    g->preloaded++;
    g->weight_total -= g->pairs[i].weight;
    sdag_done(g, i);
}

void sdag_settle(sdag_t *g)
{
    for (int i = 0; i < g->n; i++)
        if (g->pairs[i].state == SDAG_WAITING && g->pairs[i].undone == 0)
            g->pairs[i].state = SDAG_READY;
}

bool sdag_allowed(const sdag_pair_t *p, int who)
{
    return lease_allowed(&p->mem, (uint16_t)who);
}

int sdag_pick(const sdag_t *g, int who, bool verify, uint64_t mem_free)
{
    int best = -1;
    for (int i = 0; i < g->n; i++) {
        const sdag_pair_t *p = &g->pairs[i];
        if (p->memory > mem_free)
            continue;
        if (verify && p->state == SDAG_CHECK_READY && p->maker != who && sdag_allowed(p, who))
            return i; /* a verification unblocks its dependants: first */
        if (p->state == SDAG_READY && sdag_allowed(p, who) && p->bad_maker != who &&
            (best < 0 || p->weight > g->pairs[best].weight))
            best = i;
    }
    return best;
}

uint64_t sdag_lease(sdag_t *g, int i, uint32_t serial, int64_t until)
{
    sdag_pair_t *p = &g->pairs[i];
    p->state = p->state == SDAG_CHECK_READY ? SDAG_CHECKING : SDAG_SOLVING;
    p->serial = serial;
    p->lease_until = until;
    p->task_id = g->next_task_id++;
    return p->task_id;
}

int sdag_by_task(const sdag_t *g, uint64_t task_id, uint32_t serial)
{
    for (int i = 0; i < g->n; i++) {
        const sdag_pair_t *p = &g->pairs[i];
        if (p->task_id == task_id && p->serial == serial &&
            (p->state == SDAG_SOLVING || p->state == SDAG_PULLING || p->state == SDAG_CHECKING))
            return i;
    }
    return -1;
}

uint64_t sdag_held(const sdag_t *g)
{
    uint64_t n = 0;
    for (int i = 0; i < g->n; i++)
        if (g->pairs[i].state == SDAG_SOLVING || g->pairs[i].state == SDAG_CHECKING)
            n += g->pairs[i].held;
    return n;
}

void sdag_release(sdag_t *g, int i)
{
    sdag_pair_t *p = &g->pairs[i];
    if (p->state == SDAG_CHECKING)
        p->state = SDAG_CHECK_READY;
    else if (p->state == SDAG_SOLVING || p->state == SDAG_PULLING)
        p->state = SDAG_READY;
    p->serial = 0;
}

void sdag_avoid(sdag_t *g, int i, int who)
{
    lease_refused(&g->pairs[i].mem, (uint16_t)who);
}

void sdag_expire(sdag_t *g, int i)
{
    sdag_pair_t *p = &g->pairs[i];
    if (p->state == SDAG_SOLVING || p->state == SDAG_CHECKING) /* its answer may still come */
        lease_expired(&p->mem, p->serial, p->task_id);
    sdag_release(g, i);
}

int sdag_take_late(sdag_t *g, uint64_t task_id, uint32_t serial, sdag_state_t want, int64_t until)
{
    for (int i = 0; i < g->n; i++) {
        sdag_pair_t *p = &g->pairs[i];
        bool phase = want == SDAG_SOLVING ? p->state == SDAG_READY || p->state == SDAG_SOLVING
                                          : p->state == SDAG_CHECK_READY || p->state == SDAG_CHECKING;
        if (!phase || !lease_take_late(&p->mem, serial, task_id))
            continue;
        p->state = want; /* a lease of another session ends here: its answer will be dropped */
        p->serial = serial;
        p->task_id = task_id;
        p->lease_until = until;
        return i;
    }
    return -1;
}

void sdag_renew(sdag_t *g, uint32_t serial, int64_t until)
{
    for (int i = 0; i < g->n; i++)
        if (g->pairs[i].serial == serial && g->pairs[i].state != SDAG_DONE)
            g->pairs[i].lease_until = until;
}
