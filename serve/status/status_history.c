/* status_history.c: the rate now and the chart's points (status_history.h). */
#include "status_history.h"

#include <string.h>

void history_init(history_t *h)
{
    memset(h, 0, sizeof *h);
    h->step = 1.0;
}

/* Keeps every other point, so the chart spans twice the time at the same size. */
static void s_halve(history_t *h)
{
    size_t n = 0;
    for (size_t k = 0; k < h->point_nb; k += 2)
        h->points[n++] = h->points[k];
    h->point_nb = n;
    h->step *= 2;
}

void history_add(history_t *h, double t, double amount)
{
    history_sample_t s = {.t = t, .amount = amount};
    if (h->recent_nb < HISTORY_RECENT_NB) {
        h->recent[h->recent_nb++] = s;
    } else {
        h->recent[h->recent_at] = s;
        h->recent_at = (h->recent_at + 1) % HISTORY_RECENT_NB;
    }
    if (h->point_nb > 0 && t < h->points[h->point_nb - 1].t + h->step)
        return;
    if (h->point_nb == HISTORY_POINTS_MAX)
        s_halve(h);
    h->points[h->point_nb++] = s;
}

history_sample_t history_newest(const history_t *h)
{
    if (h->recent_nb == 0)
        return (history_sample_t){0};
    return h->recent[(h->recent_at + h->recent_nb - 1) % h->recent_nb];
}

double history_rate_now(const history_t *h)
{
    if (h->recent_nb < 2)
        return 0.0;
    size_t newest = (h->recent_at + h->recent_nb - 1) % h->recent_nb;
    const history_sample_t *last = &h->recent[newest], *first = NULL;
    for (size_t k = 0; k < h->recent_nb; k++) { /* oldest first */
        const history_sample_t *s = &h->recent[(h->recent_at + k) % h->recent_nb];
        if (last->t - s->t <= HISTORY_WINDOW_S) {
            first = s;
            break;
        }
    }
    if (first == NULL || last->t <= first->t)
        return 0.0;
    return (last->amount - first->amount) / (last->t - first->t);
}
