/* journal.h: the coordinator's crash-safe record of finished tasks, so a restarted job resumes. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "types.h"

/* The file is a jfile (core/base/jfile.h; the format, its header and its checksums in
 * docs/journal.md) of kind "perft" or "analyse" whose key is the job key, with three records
 * (fields separated by one TAB, each line ending in its CRC):
 *
 *   S <TAB> started_at
 *   T <TAB> task_id <TAB> nodes <TAB> stats <TAB> task_key
 *   C <TAB> task_id <TAB> worker <TAB> amount <TAB> cpu_ms <TAB> wall_ms
 *
 * - the `S` record (start) is the job's first start, Unix seconds in decimal, written once,
 *   right after the header, by the run that creates the file; a journal written before start
 *   records (before 2026-12-05, and every version-1 one) has none: its start is unknown;
 * - `task_id` and `nodes` are decimal;
 * - `stats` is `-` (none) or the 13 counts of perft_stats_t in struct order
 *   (nodes, captures, en_passant, castles, near, center, far, promotions,
 *   checks, mates, discovered, double checks, stalemates), comma-separated, decimal; its
 *   first count equals `nodes`;
 * - `task_key` is free text, %XX-escaped as every jfile field;
 * - a `C` record (credit) says who did the task of the `T` record just before it, in the
 *   same write: the worker's declared name, the amount the task added to the job's total
 *   (perft: its nodes times its weight; analyse: nodes searched), the CPU and wall
 *   milliseconds the worker reported (`cpu_ms` is `-` when it reports none). A journal
 *   written before credits has none: its tasks have no known worker.
 * A version-1 journal (header `OCTAD-JOURNAL 1 job_key`, written before 2026-12-05) holds the
 * same T and C records: it resumes, and is appended to as it is (no S record is added to it,
 * so the coordinator that wrote it can still read it). A coordinator older than S records
 * refuses a journal that has one, naming its line ("record type S is not ..."). */

typedef struct journal_s journal_t;

/* Longest job or task key accepted, in bytes before escaping; longest worker name. */
enum { JOURNAL_KEY_MAX = 1024, JOURNAL_WORKER_MAX = 64 };

/* Who did a task (a `C` record). */
typedef struct {
    uint64_t task_id;
    char worker[JOURNAL_WORKER_MAX]; /* its declared name (NUL-terminated, at most 63 bytes) */
    count_t amount;                  /* what the task added to the job's total */
    int64_t cpu_ms;                  /* CPU milliseconds it reported, -1 when none */
    uint64_t wall_ms;                /* wall milliseconds it reported */
} journal_credit_t;

/* Opens the journal of a job of `kind` ("perft", "analyse") at `path`, creating it (header
 * and start record written and synced) if it is missing or empty. Loads every finished task. Returns NULL
 * with a message naming the file (and line) in err when: the file cannot be opened or
 * locked (another coordinator has it), its header is not a version-2 journal of that kind
 * or a version-1 journal, its job key differs from `job_key`, a complete line is malformed or fails its
 * checksum, or two records of one task id disagree. A torn last line is
 * ignored and truncated away. On NULL, errno is EINVAL when the content (or
 * the key) is at fault, else the system's error (ENOSPC, EIO, EACCES ...).
 * The caller destroys the result. */
journal_t *journal_open(const char *path, const char *kind, const char *job_key, char *err, size_t errlen);

/* journal_open, and every record's task key text is kept for
 * journal_key_text (for a few hundred records, e.g. an analysis whose key
 * carries the result: docs/cluster-design.md, PROTOCOL.md 12.6). */
journal_t *journal_open_keys(const char *path, const char *kind, const char *job_key, char *err, size_t errlen);

/* The task key of task_id as written in the file (%XX-escaped, see above),
 * or NULL if it is not recorded or the journal was not opened with
 * journal_open_keys. Valid until the journal is destroyed. */
const char *journal_key_text(const journal_t *self, uint64_t task_id);

/* Number of distinct finished tasks in the journal. */
size_t journal_done_nb(const journal_t *self);

/* True if task_id is finished: sets *nodes, and if stats is not NULL copies
 * its counts by kind (all zero if none were recorded, see journal_has_stats). */
bool journal_lookup(const journal_t *self, uint64_t task_id, count_t *nodes, perft_stats_t *stats);

/* True if task_id is recorded with exactly this task key (as journal_append
 * was given it). A record whose key is another task's is a journal of another
 * split, or a forged one: the caller refuses it. */
bool journal_key_matches(const journal_t *self, uint64_t task_id, const char *task_key);

/* The task id of the k-th distinct record (k < journal_done_nb), in file order. */
uint64_t journal_task_id_at(const journal_t *self, size_t k);

/* True if task_id is finished and was recorded with counts by kind. */
bool journal_has_stats(const journal_t *self, uint64_t task_id);

/* Records a finished task (stats may be NULL; if given, stats->nodes must
 * equal nodes). Returns 0 once the line is written and fdatasync'ed. If
 * task_id is already recorded with the same key and counts, nothing is
 * written and 0 is returned; if it is recorded with a different key or
 * different counts, nothing is written and -1 is returned with errno EEXIST.
 * -1 with errno EINVAL for a key longer than JOURNAL_KEY_MAX. On an I/O error
 * -1 with errno kept; the partial line is cut off again when possible. */
int journal_append(journal_t *self, uint64_t task_id, const char *task_key, count_t nodes,
                   const perft_stats_t *stats);

/* journal_append, and when credit is not NULL (credit->task_id == task_id) its `C` record
 * in the same write and sync, so the two are on disk together or not at all (a torn `C`
 * line leaves the task done and unattributed). Nothing is written, and 0 returned, when
 * the task is already recorded. */
int journal_append_credited(journal_t *self, uint64_t task_id, const char *task_key, count_t nodes,
                            const perft_stats_t *stats, const journal_credit_t *credit);

/* Unix seconds the job first started (its S record, written by the run that created the file),
 * or 0 when unknown: the file was written before start records. */
int64_t journal_started_at(const journal_t *self);

/* Whether the file was there before this open: an earlier run of the job left it, and this run
 * resumes it (even if that run finished no task). */
bool journal_resumed(const journal_t *self);

/* The credits loaded from the file and appended since, in file order (k < journal_credit_nb). */
size_t journal_credit_nb(const journal_t *self);
const journal_credit_t *journal_credit_at(const journal_t *self, size_t k);

/* Closes the file and frees the journal; NULLs *self_p. Idempotent. */
void journal_destroy(journal_t **self_p);
