/* sched_range.c: the scheduler's affinity ranges: each worker session takes fresh tasks in
 * order from its own range and steals half of another's when it runs dry (see sched_priv.h). */
#include "sched_priv.h"

/* The range of a session, or NULL. */
s_range_t *sched_range_of(sched_t *self, uint32_t serial)
{
    for (size_t k = 0; k < self->range_nb; k++)
        if (self->ranges[k].serial == serial)
            return &self->ranges[k];
    return NULL;
}

/* Gives `serial` a range by stealing: an orphan range whole, else the upper
 * half of the largest one. Returns NULL if no fresh task is left. */
static s_range_t *s_steal(sched_t *self, uint32_t serial)
{
    s_range_t *best = NULL, *mine = sched_range_of(self, serial);
    for (size_t k = 0; k < self->range_nb; k++) {
        s_range_t *r = &self->ranges[k];
        if (r->next < r->end && (best == NULL || (r->orphan && !best->orphan) ||
                                 (r->orphan == best->orphan && r->end - r->next > best->end - best->next)))
            best = r;
    }
    if (best == NULL)
        return NULL;
    if (best->orphan) {
        if (mine != NULL && mine != best)
            *mine = (s_range_t){0};
        best->serial = serial;
        best->orphan = false;
        return best;
    }
    if (mine == NULL) {
        for (size_t k = 0; k < self->range_nb && mine == NULL; k++)
            if (self->ranges[k].next >= self->ranges[k].end)
                mine = &self->ranges[k];
        if (mine == NULL && self->range_nb < RANGES_MAX)
            mine = &self->ranges[self->range_nb++];
        if (mine == NULL)
            mine = best; /* table full: share the range */
    }
    size_t mid = best->next + (best->end - best->next) / 2;
    if (mine != best) {
        *mine = (s_range_t){.serial = serial, .next = mid, .end = best->end};
        best->end = mid;
    }
    return mine;
}

/* The next fresh task for a session: in order from its own range, for table
 * locality (neighbouring tasks share subtrees), stealing when it runs dry. -1 if none. */
long sched_range_next_fresh(sched_t *self, uint32_t serial)
{
    s_range_t *r = sched_range_of(self, serial);
    while (self->fresh_nb > 0) {
        if (r == NULL || r->next >= r->end)
            r = s_steal(self, serial);
        if (r == NULL)
            return -1;
        size_t i = r->next++;
        if (!self->tasks[i].done) {
            self->fresh_nb--;
            return (long)i;
        }
    }
    return -1;
}
