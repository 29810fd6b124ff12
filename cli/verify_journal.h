/* verify_journal.h: `octad verify-tables --journal FILE`, so that a long
 * verification resumes where it stopped. After each table found consistent
 * one line is appended and fsynced: `NAME SIZE MTIME_NS ok` (the table file's
 * size in bytes and modification time in nanoseconds). A later run skips a
 * table only while its file still has that size and time; a rewritten table
 * is checked again. Lines that do not parse (a torn last line) are ignored:
 * they only cost a second check. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

typedef struct verify_journal_s verify_journal_t;

/* Reads FILE (a missing file is an empty journal) and opens it to append.
 * NULL with a message in err. */
verify_journal_t *verify_journal_open(const char *path, char *err, size_t errlen);

/* Whether the journal holds table `name` of directory `dir` as it is now. */
bool verify_journal_done(const verify_journal_t *self, const char *dir, const char *name);

/* Records table `name` of `dir` as consistent (appended and fsynced). 0, or -1 with a message. */
int verify_journal_add(verify_journal_t *self, const char *dir, const char *name, char *err, size_t errlen);

/* Closes *self_p and NULLs it; safe on NULL. */
void verify_journal_close(verify_journal_t **self_p);
