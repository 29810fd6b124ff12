/* job.c: splitting a perft job into tasks and adding up their counts (see job.h). */
#include "job.h"

#include "count.h"
#include "hash.h"

#include <stdio.h>
#include <string.h>

#include "perft_run.h"

enum { AUTO_MIN_TASKS = 256, AUTO_TASKS_PER_THREAD = 32, AUTO_MAX_PLY = 6 };

static void s_make_key(job_t *self)
{
    char key[GAME_TEXT_MAX];
    game_format_key(&self->root, key, sizeof key);
    snprintf(self->job_key, sizeof self->job_key,
             "octad-cluster job v1; variant=%s; root=%s; depth=%d; stats=%d; min_tasks=%zu; max_ply=%d; "
             "tasks=%zu%s%s",
             game_variant_name(self->root.variant), key, self->depth, self->stats ? 1 : 0, self->min_tasks,
             self->max_ply, self->task_nb, self->verify ? "; verify" : "", self->bench ? "; bench" : "");
    self->job_id = hash_job_id(self->job_key);
}

size_t job_auto_tasks(int local_threads, bool shared_table)
{
    size_t want = (size_t)(local_threads > 0 ? local_threads : 1) * AUTO_TASKS_PER_THREAD;
    return shared_table || want > AUTO_MIN_TASKS ? want : AUTO_MIN_TASKS;
}

int job_new(job_t *self, const game_pos_t *root, int depth, bool stats, int split_depth,
            size_t auto_tasks, char *err, size_t errlen)
{
    memset(self, 0, sizeof *self);
    self->root = *root;
    self->depth = depth;
    self->stats = stats;
    if (split_depth >= 0) {
        self->min_tasks = SIZE_MAX; /* expand until the frontier reaches max_ply */
        self->max_ply = split_depth;
    } else {
        self->min_tasks = auto_tasks > 0 ? auto_tasks : 1;
        self->max_ply = AUTO_MAX_PLY;
    }
    if (split_new(root, depth, self->min_tasks, self->max_ply, &self->split) != 0) {
        snprintf(err, errlen, "split: out of memory");
        return -1;
    }
    self->task_nb = self->split.task_nb;
    s_make_key(self);
    return 0;
}

void job_set_verify(job_t *self)
{
    self->verify = true;
    s_make_key(self);
}

int job_new_bench(job_t *self, const game_pos_t *root, uint64_t n)
{
    memset(self, 0, sizeof *self);
    self->root = *root;
    self->bench = true;
    self->task_nb = (size_t)n;
    s_make_key(self);
    return 0;
}

void job_free(job_t *self)
{
    if (!self->bench)
        split_free(&self->split);
    self->task_nb = 0;
}

void job_task_text(const job_t *self, size_t i, char *buf, size_t len)
{
    game_format(self->bench ? &self->root : &self->split.tasks[i].pos, buf, len);
}

int job_task_depth(const job_t *self, size_t i)
{
    return self->bench ? 0 : self->split.tasks[i].depth;
}

void job_task_key(const job_t *self, size_t i, char *buf, size_t len)
{
    if (self->bench)
        snprintf(buf, len, "bench %zu", i);
    else
        snprintf(buf, len, "%s; depth %d", self->split.tasks[i].key, self->split.tasks[i].depth);
}

count_t job_task_weight(const job_t *self, size_t i)
{
    return self->bench ? 1 : split_task_paths(&self->split.tasks[i]);
}

void job_total(const job_t *self, const count_t *counts, const perft_stats_t *stats, job_total_t *out)
{
    memset(out, 0, sizeof *out);
    if (!self->bench) {
        out->root_nb = self->split.root_nb;
        memcpy(out->root_uoi, self->split.root_uoi, sizeof out->root_uoi);
    }
    for (size_t i = 0; i < self->task_nb; i++) {
        count_t w = job_task_weight(self, i);
        out->nodes += counts[i] * w;
        if (self->stats && stats != NULL)
            perft_stats_add(&out->stats, &stats[i], w);
        if (self->bench)
            continue;
        const split_task_t *t = &self->split.tasks[i];
        for (int r = 0; r < t->ref_nb; r++)
            if (t->refs[r].root >= 0)
                out->root_nodes[t->refs[r].root] += counts[i] * t->refs[r].paths;
    }
}

/* b * GAME_MOVES_MAX^k, saturating at 2^128 - 1. */
static count_t s_bound(count_t b, int k)
{
    const count_t max = ~(count_t)0;
    for (int e = 0; e < k && b != 0; e++)
        b = b > max / GAME_MOVES_MAX ? max : b * GAME_MOVES_MAX;
    return b;
}

static bool s_stats_plausible(count_t nodes, const perft_stats_t *st)
{
    count_t kinds = 0;
    for (int k = 0; k < CASTLE_KIND_NB; k++)
        kinds += st->castle_kind[k];
    return st->nodes == nodes && st->captures <= nodes && st->en_passant <= st->captures && st->castles <= nodes &&
           kinds <= st->castles && st->promotions <= nodes && st->checks <= nodes && st->mates <= st->checks &&
           st->discovered_checks <= st->checks && st->double_checks <= st->checks &&
           st->mates + st->stalemates <= nodes;
}

bool job_task_plausible(const job_t *self, size_t i, count_t nodes, const perft_stats_t *stats, char *why,
                        size_t len)
{
    char a[COUNT_TEXT_MAX], b[COUNT_TEXT_MAX];
    const game_pos_t *pos = self->bench ? &self->root : &self->split.tasks[i].pos;
    int depth = job_task_depth(self, i);
    count_t near = depth == 0 ? 1 : game_perft(pos, depth < 2 ? depth : 2, NULL);
    if (depth <= 2 && nodes != near) {
        snprintf(why, len, "%s leaves at depth %d, where the position has exactly %s", count_format(nodes, a), depth,
                 count_format(near, b));
        return false;
    }
    count_t bound = s_bound(near, depth - 2);
    if (depth > 2 && nodes > bound) {
        snprintf(why, len, "%s leaves at depth %d, above the bound %s", count_format(nodes, a), depth,
                 count_format(bound, b));
        return false;
    }
    if (stats != NULL && !s_stats_plausible(nodes, stats)) {
        snprintf(why, len, "counts by kind that exceed their totals");
        return false;
    }
    return true;
}
