/* split.c: cutting a perft tree into independent tasks at a frontier ply (see split.h). */
#include "split.h"

#include <stdlib.h>
#include <string.h>

/* Appends the refs of `from` into `to`, adding paths of equal roots. */
static int s_merge_refs(split_task_t *to, const split_task_t *from)
{
    for (int i = 0; i < from->ref_nb; i++) {
        int j = 0;
        while (j < to->ref_nb && to->refs[j].root != from->refs[i].root)
            j++;
        if (j < to->ref_nb) {
            to->refs[j].paths += from->refs[i].paths;
            continue;
        }
        split_ref_t *grown = realloc(to->refs, sizeof *grown * (size_t)(to->ref_nb + 1));
        if (grown == NULL)
            return -1;
        to->refs = grown;
        to->refs[to->ref_nb++] = from->refs[i];
    }
    return 0;
}

static int s_cmp_key(const void *a, const void *b)
{
    return strcmp(((const split_task_t *)a)->key, ((const split_task_t *)b)->key);
}

static void s_free_tasks(split_task_t *tasks, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(tasks[i].refs);
    free(tasks);
}

/* Sorts by key and merges equal positions; returns the new count or -1. */
static long s_dedupe(split_task_t *tasks, size_t n)
{
    size_t out = 0;
    qsort(tasks, n, sizeof *tasks, s_cmp_key);
    for (size_t i = 0; i < n; i++) {
        if (out > 0 && strcmp(tasks[out - 1].key, tasks[i].key) == 0) {
            if (s_merge_refs(&tasks[out - 1], &tasks[i]) != 0)
                return -1;
            free(tasks[i].refs);
            tasks[i].refs = NULL;
            continue;
        }
        if (out != i) {
            tasks[out] = tasks[i];
            tasks[i].refs = NULL;
        }
        out++;
    }
    return (long)out;
}

/* Children of one frontier task, appended to next[*next_nb]; refs copied
 * (root moves take their own index at ply 0). */
static int s_expand_one(const split_task_t *task, int ply, game_child_t *kids,
                        split_task_t *next, size_t *next_nb)
{
    int n = game_children(&task->pos, kids);
    for (int k = 0; k < n; k++) {
        split_task_t *t = &next[(*next_nb)++];
        memset(t, 0, sizeof *t);
        t->pos = kids[k].child;
        t->depth = task->depth - 1;
        game_format_key(&t->pos, t->key, sizeof t->key);
        t->ref_nb = task->ref_nb;
        t->refs = malloc(sizeof *t->refs * (size_t)(task->ref_nb ? task->ref_nb : 1));
        if (t->refs == NULL)
            return -1;
        if (ply == 0) {
            t->ref_nb = 1;
            t->refs[0] = (split_ref_t){.root = k, .paths = 1};
        } else {
            memcpy(t->refs, task->refs, sizeof *t->refs * (size_t)task->ref_nb);
        }
    }
    return 0;
}

/* Makes room for GAME_MOVES_MAX more tasks in *next; returns 0 or -1. */
static int s_reserve(split_task_t **next, size_t next_nb, size_t *cap)
{
    if (next_nb + GAME_MOVES_MAX <= *cap)
        return 0;
    size_t grown_cap = (*cap * 2 > next_nb + GAME_MOVES_MAX) ? *cap * 2 : next_nb + GAME_MOVES_MAX;
    split_task_t *grown = realloc(*next, sizeof *grown * grown_cap);
    if (grown == NULL)
        return -1;
    *next = grown;
    *cap = grown_cap;
    return 0;
}

/* Replaces the frontier by its children, merged. Returns 0 or -1. */
static int s_expand(split_t *split, game_child_t *kids)
{
    size_t cap = 0, next_nb = 0;
    split_task_t *next = NULL;
    for (size_t i = 0; i < split->task_nb; i++)
        if (s_reserve(&next, next_nb, &cap) != 0 ||
            s_expand_one(&split->tasks[i], split->ply, kids, next, &next_nb) != 0) {
            s_free_tasks(next, next_nb);
            return -1;
        }
    split->paths_nb = 0;
    for (size_t i = 0; i < next_nb; i++)
        split->paths_nb += split_task_paths(&next[i]);
    long merged = s_dedupe(next, next_nb);
    if (merged < 0) {
        s_free_tasks(next, next_nb);
        return -1;
    }
    s_free_tasks(split->tasks, split->task_nb);
    split_task_t *shrunk = merged ? realloc(next, sizeof *next * (size_t)merged) : NULL;
    split->tasks = shrunk ? shrunk : next;
    split->task_nb = (size_t)merged;
    split->ply++;
    return 0;
}

int split_new(const game_pos_t *root, int depth, size_t min_tasks, int max_ply, split_t *out)
{
    game_child_t *kids = malloc(sizeof *kids * GAME_MOVES_MAX);
    memset(out, 0, sizeof *out);
    out->tasks = calloc(1, sizeof *out->tasks);
    if (kids == NULL || out->tasks == NULL || depth < 1)
        goto err;
    out->root_nb = game_children(root, kids);
    for (int i = 0; i < out->root_nb; i++)
        memcpy(out->root_uoi[i], kids[i].uoi, MOVE_TEXT_MAX);
    out->task_nb = 1;
    out->paths_nb = 1;
    out->tasks[0].pos = *root;
    out->tasks[0].depth = depth;
    game_format_key(root, out->tasks[0].key, sizeof out->tasks[0].key);
    while (out->task_nb > 0 && out->task_nb < min_tasks && out->ply < depth - 1 && out->ply < max_ply)
        if (s_expand(out, kids) != 0)
            goto err;
    free(kids);
    return 0;
err:
    free(kids);
    split_free(out);
    return -1;
}

void split_free(split_t *split)
{
    s_free_tasks(split->tasks, split->task_nb);
    split->tasks = NULL;
    split->task_nb = 0;
}

count_t split_task_paths(const split_task_t *task)
{
    count_t sum = 0;
    if (task->ref_nb == 0)
        return 1;
    for (int i = 0; i < task->ref_nb; i++)
        sum += task->refs[i].paths;
    return sum;
}
