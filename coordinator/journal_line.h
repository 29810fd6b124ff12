/* journal_line.h: the cluster journal's T, C and S records as jfile records (private to journal.c
 * and its test). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jfile.h"
#include "journal.h"
#include "types.h"

/* One task record as parsed. key points into the record's field. */
typedef struct {
    uint64_t task_id;
    count_t nodes;
    bool has_stats;
    perft_stats_t stats;
    const char *key; /* escaped task key, NUL-terminated */
} jline_entry_t;

/* Formats a task record (with its CRC and '\n') into buf; stats may be NULL. Returns its
 * length, or 0 if it does not fit in cap bytes. */
size_t jline_format_entry(uint64_t task_id, const char *task_key, count_t nodes,
                          const perft_stats_t *stats, char *buf, size_t cap);

/* Formats a credit record (with its CRC and '\n') into buf; 0 if it does not fit in cap bytes. */
size_t jline_format_credit(const journal_credit_t *c, char *buf, size_t cap);

/* Parses a T record (its fields are modified in place) into *out. 0, or -1 with the field
 * and the problem in err. */
int jline_parse_entry(jfile_rec_t *rec, jline_entry_t *out, char *err, size_t errlen);

/* Parses a C record into *out. 0, or -1 with the field and the problem in err. */
int jline_parse_credit(jfile_rec_t *rec, journal_credit_t *out, char *err, size_t errlen);

/* Formats a start record (Unix seconds, with its CRC and '\n') into buf; 0 if it does not fit. */
size_t jline_format_start(int64_t started_at, char *buf, size_t cap);

/* Parses an S record into *started_at (Unix seconds, > 0). 0, or -1 with the field and the
 * problem in err. */
int jline_parse_start(jfile_rec_t *rec, int64_t *started_at, char *err, size_t errlen);
