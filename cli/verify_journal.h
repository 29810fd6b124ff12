/* verify_journal.h: `octad verify-tables --journal FILE`, so that a long verification
 * resumes where it stopped. FILE is a journal (docs/journal.md) of kind `verify-tables`
 * whose key is the tables directory (its real path); after each table found consistent one
 * record is appended and synced:
 *
 *   V <TAB> name <TAB> size <TAB> mtime_ns
 *
 * (the table file's size in bytes and modification time in nanoseconds). A later run skips
 * a table only while its file still has that size and time; a rewritten table is checked
 * again. A file of the format before the journal (`NAME SIZE MTIME_NS ok` lines) is read
 * once and converted: its lines become V records of a new journal, and the old file is
 * kept as FILE.old. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

typedef struct verify_journal_s verify_journal_t;

/* Opens (or creates) the journal at path for the tables of dir, converting a file of the
 * old format. NULL with a message naming the file, the line and the field in err. */
verify_journal_t *verify_journal_open(const char *path, const char *dir, char *err, size_t errlen);

/* Whether the journal holds table `name` of directory `dir` as it is now. */
bool verify_journal_done(const verify_journal_t *self, const char *dir, const char *name);

/* Records table `name` of `dir` as consistent (appended and synced). 0, or -1 with a message. */
int verify_journal_add(verify_journal_t *self, const char *dir, const char *name, char *err, size_t errlen);

/* Closes *self_p and NULLs it; safe on NULL. */
void verify_journal_close(verify_journal_t **self_p);
