/* report.h: the coordinator's progress display (stderr) and final result (stdout, text or JSON). */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "job.h"
#include "credit.h"
#include "server.h"

typedef struct {
    size_t done, total, loaded;
    count_t nodes;
    const char *noun;  /* what nodes counts: "nodes" (NULL), "positions" */
    double seconds;
    size_t workers;
    bool tty;
} report_progress_t;

/* How the total compares with a known value. */
typedef enum { REPORT_UNCHECKED, REPORT_MATCH, REPORT_MISMATCH } report_check_t;

typedef struct {
    const job_t *job;
    const job_total_t *total;
    const server_summary_t *sum;
    bool divide, stats, json, verify;
    const char *verify_by;      /* verify: "keys" (CURVE) or "names" (declared, not proven) */
    report_check_t check;
    count_t expected;
    const char *expected_from;  /* "reference" or "--expect" */
    credit_t *contributors;     /* who did the tasks (the journal's too), or NULL */
} report_final_t;

/* The counts by kind of perft_stats_t as --json names them, in its order. */
enum { REPORT_STAT_NB = 13 };
typedef struct {
    const char *name;   /* "captures" */
    size_t offset;      /* of its count_t in perft_stats_t */
} report_stat_t;
extern const report_stat_t REPORT_STATS[REPORT_STAT_NB];

/* Count k (REPORT_STATS[k]) of s. */
count_t report_stat(const perft_stats_t *s, size_t k);

/* True if stderr is a terminal (progress bar) rather than a log (a line every few seconds). */
bool report_is_tty(void);

/* Prints one progress update: a redrawn bar on a terminal, else one line. */
void report_progress(const report_progress_t *p);

/* Erases the progress bar, if one is shown, so a log line can be printed. */
void report_clear_line(void);

/* Prints the final result on stdout. */
void report_final(const report_final_t *r);
