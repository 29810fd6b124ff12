/* jfile.h: the one journal file of the project (docs/journal.md): a header naming the job's
 * kind and key, then typed records, every line sealed by a CRC-32; appends that are on disk
 * when they return; one process at a time. The cluster's perft and analyse jobs, the solve
 * job's DIR/solve.journal and `octad verify-tables --journal` each read and write their
 * records through it and know nothing of the file. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* The format this build writes; a version-1 file (the cluster journal before version 2) is
 * read when the caller accepts it (jfile_spec_t.accept_v1). Longest line (with its '\n'),
 * most fields after a record's letter, longest key before escaping. */
enum { JFILE_VERSION = 2, JFILE_LINE_MAX = 4096, JFILE_FIELD_MAX = 16, JFILE_KEY_MAX = 1024 };

typedef struct jfile_s jfile_t;

/* One complete, checked record as read: its letter and its fields (the text between TABs
 * after the letter, CRC field removed, still %XX-escaped as in the file: jfile_unescape). The
 * fields point into the loaded file and may be modified; they live until the visitor returns. */
typedef struct {
    size_t line_no;                /* 1 is the header: records start at 2 */
    char type;                     /* 'A'..'Z' */
    int field_nb;
    char *field[JFILE_FIELD_MAX];
} jfile_rec_t;

/* Called once for every record, in file order, while jfile_open reads the file. 0 to go on;
 * -1 with a message naming the field in err (jfile_open then fails with "journal PATH:LINE:
 * message" and errno EINVAL). */
typedef int (*jfile_visit_fn)(void *ctx, jfile_rec_t *rec, char *err, size_t errlen);

/* What a caller expects of the file. */
typedef struct {
    const char *kind;      /* the job kind: a word of [a-z0-9-], e.g. "perft", "verify-tables" */
    const char *key;       /* the job's key: any text up to JFILE_KEY_MAX bytes */
    bool accept_v1;        /* a version-1 file (it names no kind) is read too; only its key is checked */
    bool fresh;            /* whatever the file holds is discarded once it is locked (a conversion) */
    jfile_visit_fn visit;  /* may be NULL when the file holds no records yet (fresh) */
    void *ctx;
} jfile_spec_t;

/* Opens path (created if missing, mode 0644), takes an exclusive flock on it (another
 * process holding it: refused), reads every line, checks each line's CRC, the header's
 * version, kind and key, and calls spec->visit for each record. A last line without '\n'
 * (an append torn by a crash) is cut off, never a complete line. A missing or empty file
 * (or one whose only content is a torn header) gets its header, written and synced. Returns
 * NULL with a message naming the file, the line and the field in err, and errno: EINVAL when
 * the content is at fault (not a journal, another kind or key, a bad CRC, a record the
 * visitor refused), EWOULDBLOCK when another process holds the lock, else the system's error
 * (ENOSPC, EIO, EACCES ...). The caller destroys the result. */
jfile_t *jfile_open(const char *path, const jfile_spec_t *spec, char *err, size_t errlen);

/* The file's format version: JFILE_VERSION, or 1 for an accepted version-1 file (appended
 * with the same records: see docs/journal.md). */
int jfile_version(const jfile_t *self);

/* Whether jfile_open wrote the header (the file was missing, empty or held a torn header): no
 * earlier run left anything in it. */
bool jfile_created(const jfile_t *self);

/* The path the journal was opened (or renamed) under. */
const char *jfile_path(const jfile_t *self);

/* Formats one record (type 'A'..'Z', field_nb fields, each %XX-escaped) with its CRC and
 * '\n' into buf; returns its length, or 0 if it does not fit in cap bytes or in a line. */
size_t jfile_format(char *buf, size_t cap, char type, int field_nb, const char *const *field);

/* Appends len bytes of complete lines (jfile_format's) in one write and fdatasync: 0 once
 * they are on disk. -1 with errno kept on an I/O error, after cutting the file back to its
 * last complete line when possible. */
int jfile_append(jfile_t *self, const char *lines, size_t len);

/* Gives the file a new name (rename(2), the directory synced), keeping it open and locked:
 * a converted journal written under a temporary name takes its place. 0, or -1 with errno. */
int jfile_rename(jfile_t *self, const char *path);

/* Writes src with bytes below 0x20, 0x7f and '%' as %XX into dst (cap bytes, NUL-terminated);
 * returns the escaped length, or SIZE_MAX if it does not fit. */
size_t jfile_escape(const char *src, char *dst, size_t cap);

/* Undoes jfile_escape into out (cap bytes, NUL-terminated). 0, or -1 on a bad %XX or when it
 * does not fit. */
int jfile_unescape(const char *in, char *out, size_t cap);

/* Called once for every complete line of a file of a format before the journal (line without
 * its '\n', NUL-terminated, modifiable; line_no from 1). 0 to go on; -1 with a message naming
 * the field in err. */
typedef int (*jfile_line_fn)(void *ctx, char *line, size_t line_no, char *err, size_t errlen);

/* Reads a line file of a format before the journal (read as that format's version 1, e.g.
 * solve's DIR/VERIFIED) with the journal's damage rules: visit sees every complete line in
 * order; a last line without '\n' (an append torn by a crash) is ignored. No lock is taken
 * (the caller holds its journal's). 0 when read, 1 when the file does not exist; -1 with a
 * message in err and errno: EINVAL when the content is at fault ("PATH:LINE: message": a line
 * visit refused, a line longer than JFILE_LINE_MAX, a NUL byte), else the system's error. */
int jfile_read_lines(const char *path, jfile_line_fn visit, void *ctx, char *err, size_t errlen);

/* Closes the file (its lock goes with it) and frees the journal; NULLs *self_p. Idempotent. */
void jfile_destroy(jfile_t **self_p);
