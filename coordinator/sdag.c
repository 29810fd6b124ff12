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

int sdag_done(sdag_t *g, int i, int *ready)
{
    sdag_pair_t *p = &g->pairs[i];
    int n = 0;
    if (p->state == SDAG_DONE)
        return 0;
    p->state = SDAG_DONE;
    g->done++;
    for (int j = i + 1; j < g->n; j++)
        for (int k = 0; k < g->pairs[j].ndeps; k++)
            if (g->pairs[j].deps[k] == i) {
                g->pairs[j].undone--;
                if (g->pairs[j].undone == 0 && g->pairs[j].state == SDAG_WAITING) {
                    g->pairs[j].state = SDAG_READY;
                    if (ready != NULL)
                        ready[n] = j;
                    n++;
                }
            }
    return n;
}

void sdag_preload(sdag_t *g, int i)
{
    g->pairs[i].preloaded = true;
    g->preloaded++;
    sdag_done(g, i, NULL);
}

void sdag_settle(sdag_t *g)
{
    for (int i = 0; i < g->n; i++)
        if (g->pairs[i].state == SDAG_WAITING && g->pairs[i].undone == 0)
            g->pairs[i].state = SDAG_READY;
}
