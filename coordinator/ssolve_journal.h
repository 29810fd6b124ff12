/* ssolve_journal.h: DIR/solve.journal, the solve job's journal (docs/journal.md): which pairs
 * were made and by whom, which were verified and by whom, each with its files' size and
 * CRC-32C. The table files stay the job's durable output; a pair's completion is a record.
 *
 * A jfile of kind "solve" whose key is the directory's id (xfer_dir_id), with two records
 * (one table or two: a pair and its flip):
 *
 *   M <TAB> pair <TAB> maker <TAB> name <TAB> size <TAB> crc [<TAB> name <TAB> size <TAB> crc]
 *   V <TAB> pair <TAB> verifier <TAB> name <TAB> size <TAB> crc [...]
 *
 * `pair` is the pair's primary table name, `maker` and `verifier` the worker's principal (its
 * CURVE key, or its declared name without CURVE: what --verify tells apart), `size` decimal
 * bytes, `crc` the file's CRC-32C in 8 hex digits.
 *
 * DIR/VERIFIED, the list an earlier coordinator kept (`NAME SIZE CRC WORKER` lines, one per
 * file: version 1 of the V records), is converted when the journal is opened: a V record for
 * each pair whose files it all lists (unless the journal has one already), then the list is
 * renamed DIR/VERIFIED.old. It is read with the journal's damage rules (jfile_read_lines). */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "msg.h"
#include "sdag.h"

typedef struct ssolve_journal_s ssolve_journal_t;

enum { SSOLVE_PRINCIPAL_MAX = 64 };

/* Opens (or creates) DIR/solve.journal for the pairs of graph g (records of pairs of other
 * graphs, in the same directory, are kept on disk and ignored) and converts DIR/VERIFIED if
 * there is one. sig_init must have been called. NULL with a message naming the file, line and
 * field in err, errno as jfile_open's (EINVAL: a damaged line of either file). */
ssolve_journal_t *ssolve_journal_open(const char *dir, const char *dir_id, const sdag_t *g, char *err, size_t errlen);

/* The V records made from DIR/VERIFIED when the journal was opened; -1 when there was none. */
int ssolve_journal_converted(const ssolve_journal_t *self);

/* Whether pair k's files, as refs (n of them) say they are now, were verified: its last V
 * record (or DIR/VERIFIED's listing, converted) is of exactly those files. */
bool ssolve_journal_verified(const ssolve_journal_t *self, int k, const msg_tableref_t *refs, int n);

/* The principal that made pair k's files as refs say they are now (its last M record of
 * exactly those files), or NULL if no record says. Valid until the journal is destroyed. */
const char *ssolve_journal_maker(const ssolve_journal_t *self, int k, const msg_tableref_t *refs, int n);

/* Appends and syncs pair k's M (made, who = the maker) or V (verified, who = the verifier)
 * record. 0, or -1 with a message. */
int ssolve_journal_made(ssolve_journal_t *self, int k, const char *who, const msg_tableref_t *refs, int n, char *err,
                        size_t errlen);
int ssolve_journal_checked(ssolve_journal_t *self, int k, const char *who, const msg_tableref_t *refs, int n,
                           char *err, size_t errlen);

/* Closes the file (and its lock) and frees; NULLs *self_p. Idempotent. */
void ssolve_journal_destroy(ssolve_journal_t **self_p);
