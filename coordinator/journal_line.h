/* journal_line.h: encoding and checking one journal line (private to journal.c and its test). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "journal.h"
#include "types.h"

/* Longest line we write or accept, with its '\n' and NUL (keys escape to 3x). */
enum { JLINE_MAX = 3 * 1024 + 640 };

/* One task record as parsed from a line. key points into the parsed line. */
typedef struct {
    uint64_t task_id;
    count_t nodes;
    bool has_stats;
    perft_stats_t stats;
    const char *key; /* escaped task key, NUL-terminated */
} jline_entry_t;

/* Formats a credit line (with '\n') into buf; 0 if it does not fit in cap bytes. */
size_t jline_format_credit(const journal_credit_t *c, char *buf, size_t cap);

/* Whether a line is a credit record (starts "C\t"). */
bool jline_is_credit(const char *line);

/* Checks and parses a credit line (NUL-terminated, no '\n'; modified in place) into *out.
 * Returns 0, or -1 with the field and problem in err. */
int jline_parse_credit(char *line, journal_credit_t *out, char *err, size_t errlen);

/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32) of len bytes. */
uint32_t jline_crc32(const void *data, size_t len);

/* Writes src %XX-escaped into dst (cap bytes, NUL-terminated); returns the
 * escaped length, or SIZE_MAX if it does not fit. */
size_t jline_escape(const char *src, char *dst, size_t cap);

/* Formats the header line (with '\n') for job_key into buf; returns its
 * length, or 0 if it does not fit in cap bytes. */
size_t jline_format_header(const char *job_key, char *buf, size_t cap);

/* Formats a task line (with '\n') into buf; stats may be NULL. Returns its
 * length, or 0 if it does not fit in cap bytes. */
size_t jline_format_entry(uint64_t task_id, const char *task_key, count_t nodes,
                          const perft_stats_t *stats, char *buf, size_t cap);

/* Checks a header line (NUL-terminated, no '\n'; modified in place). Sets
 * *job_key to the escaped job key inside line. Returns 0, or -1 with the
 * problem in err. */
int jline_parse_header(char *line, const char **job_key, char *err, size_t errlen);

/* Checks and parses a task line (NUL-terminated, no '\n'; modified in place)
 * into *out. Returns 0, or -1 with the field and problem in err. */
int jline_parse_entry(char *line, jline_entry_t *out, char *err, size_t errlen);
