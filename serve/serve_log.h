/* serve_log.h: failures logged once: a table that cannot be read is logged
 * the first time a request needs it, not at every request after. */
#pragma once

#include <stdio.h>

typedef struct serve_log serve_log_t;

/* A log writing to f (not closed). NULL out of memory. */
serve_log_t *serve_log_new(FILE *f);

/* Frees *self_p and sets it to NULL; safe on NULL. */
void serve_log_destroy(serve_log_t **self_p);

/* Writes "octad serve: WHAT: MESSAGE" the first time this message is seen
 * (up to SERVE_LOG_KEPT distinct messages remembered; later ones are all
 * written). Thread-safe. */
void serve_log_once(serve_log_t *self, const char *what, const char *message);

enum { SERVE_LOG_KEPT = 4096 };
