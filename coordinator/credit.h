/* credit.h: the contributors of a job: what each worker (by its declared name) did, added up
 * from the journal's credit records (journal.h) and this run's accepted answers, for the
 * final report (text and --json). A service object; names are compared exactly. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "journal.h"
#include "json_value.h"
#include "types.h"

typedef struct {
    char worker[JOURNAL_WORKER_MAX];
    uint64_t tasks;
    count_t amount;      /* what its tasks added to the total */
    uint64_t cpu_ms;     /* CPU its answers reported (those that reported it) */
    uint64_t cpu_tasks;  /* how many reported CPU time */
    uint64_t wall_ms;    /* wall time its answers reported */
} credit_row_t;

typedef struct credit_s credit_t;

/* An empty table; NULL when out of memory. */
credit_t *credit_new(void);

/* Frees *self_p and NULLs it; safe on NULL. */
void credit_destroy(credit_t **self_p);

/* Adds one credited task; -1 when out of memory (the table is unchanged). */
int credit_add(credit_t *self, const journal_credit_t *c);

/* Rows, most amount first (ties by name), valid until the next credit_add. */
size_t credit_nb(const credit_t *self);
const credit_row_t *credit_at(credit_t *self, size_t k);

/* The table as a JSON array of objects {worker, tasks, AMOUNT_NOUN (json_value_count),
 * cpu_seconds (null: none reported), wall_seconds}, the caller's; NULL when out of memory. */
json_t *credit_json(credit_t *self, const char *amount_noun);

/* The table as text lines ("contributors:" then one line a worker) or as credit_json's
 * array ("null" when out of memory). */
void credit_print_text(credit_t *self, const char *amount_noun, FILE *out);
void credit_print_json(credit_t *self, const char *amount_noun, FILE *out);

/* credit_print_text's lines as log lines (log_line.h: as they are in text, one JSON line each). */
void credit_log(credit_t *self, const char *amount_noun);
