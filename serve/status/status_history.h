/* status_history.h: the amount done over time, for the status server (docs/status.md): the
 * rate now (over the last few seconds) beside the run's average, and a bounded history of
 * the rate for the page's chart that covers the whole run however long it is. A plain value
 * (no heap): the event loop adds a sample at each status snapshot. */
#pragma once

#include <stddef.h>

enum {
    HISTORY_RECENT_NB = 64,  /* samples kept for the rate now (at 250 ms: 16 s) */
    HISTORY_POINTS_MAX = 240 /* points of the chart: when full, every other one is dropped */
};

/* The window of the rate now, in seconds. */
#define HISTORY_WINDOW_S 10.0

typedef struct {
    double t, amount; /* seconds since the run began; the amount done then */
} history_sample_t;

typedef struct {
    history_sample_t recent[HISTORY_RECENT_NB]; /* a ring, oldest at recent_at when full */
    size_t recent_nb, recent_at;
    history_sample_t points[HISTORY_POINTS_MAX]; /* the chart: one point every `step` seconds */
    size_t point_nb;
    double step;                                 /* seconds between points: 1, 2, 4, ... */
} history_t;

/* An empty history (its first chart step is 1 s). */
void history_init(history_t *h);

/* Adds the amount done at t seconds (t never goes back). */
void history_add(history_t *h, double t, double amount);

/* The newest sample (zeros when there is none): the chart ends there. */
history_sample_t history_newest(const history_t *h);

/* The rate over the last HISTORY_WINDOW_S seconds (or all the samples kept when fewer):
 * amount per second between the oldest sample in the window and the newest; 0 with fewer
 * than two samples or no time between them. */
double history_rate_now(const history_t *h);
