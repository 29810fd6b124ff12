/* journal.c: the coordinator's crash-safe record of finished tasks (file format in journal.h). */
#include "journal.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hash.h"
#include "journal_line.h"

enum { NO_STATS = UINT32_MAX };

/* One finished task. The key is kept as a 64-bit hash: it is compared, and
 * 100k+ tasks must stay small in memory; its text only when the journal was
 * opened with journal_open_keys (a few hundred analysis records). */
typedef struct {
    uint64_t task_id;
    uint64_t key_hash;
    char *key;          /* escaped key text, or NULL */
    count_t nodes;
    uint32_t stats_idx; /* index into stats[], or NO_STATS */
} s_entry_t;

struct journal_s {
    char *path;
    int fd;
    off_t size;          /* bytes of complete, checked lines */
    s_entry_t *entries;
    size_t entry_nb, entry_cap;
    perft_stats_t *stats;
    size_t stats_nb, stats_cap;
    uint32_t *slots;     /* open addressing, linear probing: entry index + 1, 0 = empty */
    size_t slot_cap;     /* power of two, at least twice entry_nb */
    bool keep_keys;      /* entries keep their key text (journal_open_keys) */
    journal_credit_t *credits; /* C records, in file order */
    size_t credit_nb, credit_cap;
};

static uint64_t s_hash_id(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull; /* splitmix64 finaliser */
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Slot holding task_id, or the empty slot where it would go. */
static size_t s_find_slot(const journal_t *self, uint64_t task_id)
{
    size_t mask = self->slot_cap - 1;
    size_t i = (size_t)s_hash_id(task_id) & mask;
    while (self->slots[i] != 0 && self->entries[self->slots[i] - 1].task_id != task_id)
        i = (i + 1) & mask;
    return i;
}

static s_entry_t *s_find(const journal_t *self, uint64_t task_id)
{
    uint32_t slot = self->slots[s_find_slot(self, task_id)];
    return slot ? &self->entries[slot - 1] : NULL;
}

/* Makes room for one more entry (and its stats); -1 with errno ENOMEM. */
static int s_reserve(journal_t *self)
{
    if (self->entry_nb == self->entry_cap) {
        size_t cap = self->entry_cap ? self->entry_cap * 2 : 1024;
        s_entry_t *e = cap < UINT32_MAX ? realloc(self->entries, cap * sizeof *e) : NULL;
        if (!e)
            return errno = ENOMEM, -1;
        self->entries = e;
        self->entry_cap = cap;
    }
    if (self->stats_nb == self->stats_cap) {
        size_t cap = self->stats_cap ? self->stats_cap * 2 : 256;
        perft_stats_t *s = realloc(self->stats, cap * sizeof *s);
        if (!s)
            return errno = ENOMEM, -1;
        self->stats = s;
        self->stats_cap = cap;
    }
    if ((self->entry_nb + 1) * 2 <= self->slot_cap)
        return 0;
    size_t cap = self->slot_cap ? self->slot_cap * 2 : 2048;
    uint32_t *old = self->slots;
    self->slots = calloc(cap, sizeof *self->slots);
    if (!self->slots) {
        self->slots = old;
        return errno = ENOMEM, -1;
    }
    self->slot_cap = cap;
    for (size_t i = 0; i < self->entry_nb; i++)
        self->slots[s_find_slot(self, self->entries[i].task_id)] = (uint32_t)i + 1;
    free(old);
    return 0;
}

/* Adds a new entry (task_id not present); -1 with errno ENOMEM. */
static int s_insert(journal_t *self, uint64_t task_id, uint64_t key_hash, const char *key, count_t nodes,
                    const perft_stats_t *stats)
{
    char *copy = NULL;
    if (s_reserve(self) != 0 || (self->keep_keys && (copy = strdup(key)) == NULL))
        return errno = ENOMEM, -1;
    s_entry_t *e = &self->entries[self->entry_nb];
    *e = (s_entry_t){ .task_id = task_id, .key_hash = key_hash, .key = copy, .nodes = nodes, .stats_idx = NO_STATS };
    if (stats) {
        e->stats_idx = (uint32_t)self->stats_nb;
        self->stats[self->stats_nb++] = *stats;
    }
    self->slots[s_find_slot(self, task_id)] = (uint32_t)self->entry_nb + 1;
    self->entry_nb++;
    return 0;
}

/* Whether a second record of e's task agrees with it (stats compared only if both have them). */
static bool s_agrees(const journal_t *self, const s_entry_t *e, uint64_t key_hash, count_t nodes,
                     const perft_stats_t *stats)
{
    if (e->key_hash != key_hash || e->nodes != nodes)
        return false;
    if (!stats || e->stats_idx == NO_STATS)
        return true;
    return memcmp(&self->stats[e->stats_idx], stats, sizeof *stats) == 0;
}

/* A record of a known task that carries stats the first one lacked: keep them. */
static int s_upgrade_stats(journal_t *self, s_entry_t *e, const perft_stats_t *stats)
{
    if (!stats || e->stats_idx != NO_STATS)
        return 0;
    if (s_reserve(self) != 0)
        return -1;
    e->stats_idx = (uint32_t)self->stats_nb;
    self->stats[self->stats_nb++] = *stats;
    return 0;
}

/* Loads one complete task line (line_no for messages). */
static int s_load_entry(journal_t *self, char *line, size_t line_no, char *err, size_t errlen)
{
    char why[256];
    jline_entry_t in;
    if (jline_parse_entry(line, &in, why, sizeof why) != 0) {
        snprintf(err, errlen, "journal %s:%zu: %s", self->path, line_no, why);
        return -1;
    }
    const perft_stats_t *stats = in.has_stats ? &in.stats : NULL;
    uint64_t key_hash = hash_fnv1a(in.key);
    s_entry_t *e = s_find(self, in.task_id);
    if (!e) {
        if (s_insert(self, in.task_id, key_hash, in.key, in.nodes, stats) == 0)
            return 0;
        snprintf(err, errlen, "journal %s:%zu: out of memory", self->path, line_no);
        return -1;
    }
    if (!s_agrees(self, e, key_hash, in.nodes, stats)) {
        snprintf(err, errlen, "journal %s:%zu: task %llu is recorded twice with different %s",
                 self->path, line_no, (unsigned long long)in.task_id,
                 e->key_hash != key_hash ? "task keys" : "counts");
        return -1;
    }
    if (s_upgrade_stats(self, e, stats) == 0)
        return 0;
    snprintf(err, errlen, "journal %s:%zu: out of memory", self->path, line_no);
    return -1;
}

/* Keeps a credit; -1 with errno ENOMEM. */
static int s_keep_credit(journal_t *self, const journal_credit_t *c)
{
    if (self->credit_nb == self->credit_cap) {
        size_t cap = self->credit_cap ? self->credit_cap * 2 : 256;
        journal_credit_t *n = realloc(self->credits, cap * sizeof *n);
        if (n == NULL)
            return errno = ENOMEM, -1;
        self->credits = n;
        self->credit_cap = cap;
    }
    self->credits[self->credit_nb++] = *c;
    return 0;
}

/* Loads one complete credit line: it must follow its task's record. */
static int s_load_credit(journal_t *self, char *line, size_t line_no, uint64_t last_task, char *err, size_t errlen)
{
    char why[256];
    journal_credit_t c;
    if (jline_parse_credit(line, &c, why, sizeof why) != 0) {
        snprintf(err, errlen, "journal %s:%zu: %s", self->path, line_no, why);
        return -1;
    }
    if (c.task_id != last_task) {
        snprintf(err, errlen, "journal %s:%zu: credit of task %llu does not follow that task's record", self->path,
                 line_no, (unsigned long long)c.task_id);
        return -1;
    }
    if (s_keep_credit(self, &c) == 0)
        return 0;
    snprintf(err, errlen, "journal %s:%zu: out of memory", self->path, line_no);
    return -1;
}

/* Checks the header line against job_key. */
static int s_load_header(journal_t *self, char *line, const char *job_key, char *err, size_t errlen)
{
    char why[256];
    const char *found;
    if (jline_parse_header(line, &found, why, sizeof why) != 0) {
        snprintf(err, errlen, "journal %s:1: %s", self->path, why);
        return -1;
    }
    char want[JLINE_MAX];
    if (jline_escape(job_key, want, sizeof want) == SIZE_MAX || strcmp(found, want) != 0) {
        snprintf(err, errlen, "journal %s belongs to another job (\"%.200s\", not \"%.200s\"): "
                 "use another journal file or remove this one", self->path, found, want);
        return -1;
    }
    return 0;
}

/* Whether an unterminated first line is a torn copy of the header we would write. */
static bool s_is_torn_header(const char *buf, size_t len, const char *job_key)
{
    char want[JLINE_MAX];
    size_t n = jline_format_header(job_key, want, sizeof want);
    return n > 0 && len < n && memcmp(buf, want, len) == 0;
}

/* Parses buf (the whole file, len bytes, NUL-terminated); sets self->size to
 * the end of the last complete line (0 if the header must be written). */
static int s_load(journal_t *self, char *buf, size_t len, const char *job_key, char *err, size_t errlen)
{
    size_t pos = 0, line_no = 0;
    uint64_t last_task = 0; /* the task of the previous line (a credit follows it) */
    self->size = 0;
    while (pos < len) {
        char *nl = memchr(buf + pos, '\n', len - pos);
        line_no++;
        if (!nl) { /* torn last line: ignored, cut off by the caller */
            if (line_no == 1 && !s_is_torn_header(buf, len, job_key)) {
                snprintf(err, errlen, "journal %s: not an octad journal (one line without a newline)", self->path);
                return -1;
            }
            return 0;
        }
        *nl = '\0';
        if ((size_t)(nl - (buf + pos)) + 2 > JLINE_MAX) {
            snprintf(err, errlen, "journal %s:%zu: line longer than %d bytes", self->path, line_no, JLINE_MAX);
            return -1;
        }
        char *line = buf + pos;
        int rc;
        if (line_no == 1) {
            rc = s_load_header(self, line, job_key, err, errlen);
        } else if (jline_is_credit(line)) {
            rc = s_load_credit(self, line, line_no, last_task, err, errlen);
            last_task = 0;
        } else {
            /* the task a credit may follow; the line itself is checked by s_load_entry */
            last_task = line[0] == 'T' && line[1] == '\t' ? strtoull(line + 2, NULL, 10) : 0;
            rc = s_load_entry(self, line, line_no, err, errlen);
        }
        if (rc != 0)
            return -1;
        pos = (size_t)(nl - buf) + 1;
        self->size = (off_t)pos;
    }
    return 0;
}

/* Reads the whole file into a NUL-terminated buffer the caller frees. */
static char *s_read_all(int fd, size_t *len)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return NULL;
    size_t size = (size_t)st.st_size, got = 0;
    char *buf = malloc(size + 1);
    while (buf && got < size) {
        ssize_t n = pread(fd, buf + got, size - got, (off_t)got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            free(buf);
            return NULL;
        }
        got += (size_t)n;
    }
    if (buf) {
        buf[got] = '\0';
        *len = got;
    }
    return buf;
}

/* Writes len bytes at self->size and syncs; on failure cuts the file back, keeps errno. */
static int s_write_synced(journal_t *self, const char *data, size_t len)
{
    size_t done = 0;
    while (done < len) {
        ssize_t n = pwrite(self->fd, data + done, len - done, self->size + (off_t)done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    if (done == len && fdatasync(self->fd) == 0) {
        self->size += (off_t)len;
        return 0;
    }
    int saved = errno ? errno : EIO;
    if (ftruncate(self->fd, self->size) != 0) {
        /* the torn line stays; the next open ignores or reports it */
    }
    errno = saved;
    return -1;
}

/* Makes a new journal's directory entry durable (best effort: some file systems refuse). */
static void s_sync_dir(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    int n = slash ? snprintf(dir, sizeof dir, "%.*s", (int)(slash - path + (slash == path)), path)
                  : snprintf(dir, sizeof dir, ".");
    if (n < 0 || (size_t)n >= sizeof dir)
        return;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

/* Cuts a torn tail and writes the header of a new journal. */
static int s_prepare_tail(journal_t *self, off_t file_size, const char *job_key, char *err, size_t errlen)
{
    if (self->size < file_size && (ftruncate(self->fd, self->size) != 0 || fdatasync(self->fd) != 0)) {
        snprintf(err, errlen, "journal %s: cannot cut off the torn last line: %s", self->path, strerror(errno));
        return -1;
    }
    if (self->size > 0)
        return 0;
    char line[JLINE_MAX];
    size_t n = jline_format_header(job_key, line, sizeof line);
    if (n == 0 || s_write_synced(self, line, n) != 0) {
        snprintf(err, errlen, "journal %s: cannot write the header: %s", self->path,
                 n == 0 ? "job key too long" : strerror(errno));
        return -1;
    }
    s_sync_dir(self->path);
    return 0;
}

static journal_t *s_open(const char *path, const char *job_key, bool keep_keys, char *err, size_t errlen)
{
    assert(path && job_key && err);
    journal_t *self = calloc(1, sizeof *self);
    if (!self || !(self->path = strdup(path))) {
        snprintf(err, errlen, "journal %s: out of memory", path);
        free(self);
        return NULL;
    }
    self->keep_keys = keep_keys;
    self->fd = -1;
    char *buf = NULL;
    size_t len = 0;
    self->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (self->fd < 0) {
        snprintf(err, errlen, "journal %s: cannot open: %s", path, strerror(errno));
        goto err;
    }
    if (flock(self->fd, LOCK_EX | LOCK_NB) != 0) {
        snprintf(err, errlen, "journal %s: cannot lock (%s): is another coordinator using it?",
                 path, strerror(errno));
        goto err;
    }
    if (strlen(job_key) > JOURNAL_KEY_MAX) {
        snprintf(err, errlen, "journal %s: job key longer than %d bytes", path, JOURNAL_KEY_MAX);
        errno = EINVAL;
        goto err;
    }
    if (!(buf = s_read_all(self->fd, &len))) {
        snprintf(err, errlen, "journal %s: cannot read: %s", path, strerror(errno));
        goto err;
    }
    if (s_reserve(self) != 0) {
        snprintf(err, errlen, "journal %s: out of memory", path);
        goto err;
    }
    if (s_load(self, buf, len, job_key, err, errlen) != 0) {
        errno = EINVAL; /* the content is not this job's journal */
        goto err;
    }
    if (s_prepare_tail(self, (off_t)len, job_key, err, errlen) != 0)
        goto err;
    free(buf);
    return self;
err:;
    int saved = errno;
    free(buf);
    journal_destroy(&self);
    errno = saved;
    return NULL;
}

journal_t *journal_open(const char *path, const char *job_key, char *err, size_t errlen)
{
    return s_open(path, job_key, false, err, errlen);
}

journal_t *journal_open_keys(const char *path, const char *job_key, char *err, size_t errlen)
{
    return s_open(path, job_key, true, err, errlen);
}

const char *journal_key_text(const journal_t *self, uint64_t task_id)
{
    assert(self);
    const s_entry_t *e = s_find(self, task_id);
    return e ? e->key : NULL;
}

size_t journal_done_nb(const journal_t *self)
{
    assert(self);
    return self->entry_nb;
}

bool journal_lookup(const journal_t *self, uint64_t task_id, count_t *nodes, perft_stats_t *stats)
{
    assert(self && nodes);
    const s_entry_t *e = s_find(self, task_id);
    if (!e)
        return false;
    *nodes = e->nodes;
    if (stats) {
        if (e->stats_idx != NO_STATS)
            *stats = self->stats[e->stats_idx];
        else
            memset(stats, 0, sizeof *stats);
    }
    return true;
}

/* The hash of a task key as s_load_entry sees it: escaped, as between the 4th and last TAB. */
static uint64_t s_hash_task_key(const char *task_key)
{
    char escaped[JLINE_MAX];
    if (jline_escape(task_key, escaped, sizeof escaped) == SIZE_MAX)
        return 0;
    return hash_fnv1a(escaped);
}

bool journal_key_matches(const journal_t *self, uint64_t task_id, const char *task_key)
{
    assert(self && task_key);
    const s_entry_t *e = s_find(self, task_id);
    return e != NULL && e->key_hash == s_hash_task_key(task_key);
}

uint64_t journal_task_id_at(const journal_t *self, size_t k)
{
    assert(self && k < self->entry_nb);
    return self->entries[k].task_id;
}

bool journal_has_stats(const journal_t *self, uint64_t task_id)
{
    assert(self);
    const s_entry_t *e = s_find(self, task_id);
    return e && e->stats_idx != NO_STATS;
}

int journal_append(journal_t *self, uint64_t task_id, const char *task_key, count_t nodes,
                   const perft_stats_t *stats)
{
    return journal_append_credited(self, task_id, task_key, nodes, stats, NULL);
}

int journal_append_credited(journal_t *self, uint64_t task_id, const char *task_key, count_t nodes,
                            const perft_stats_t *stats, const journal_credit_t *credit)
{
    assert(self && task_key);
    assert(!stats || stats->nodes == nodes);
    assert(!credit || credit->task_id == task_id);
    if (strlen(task_key) > JOURNAL_KEY_MAX)
        return errno = EINVAL, -1;
    char line[2 * JLINE_MAX];
    size_t n = jline_format_entry(task_id, task_key, nodes, stats, line, JLINE_MAX);
    assert(n > 0); /* JLINE_MAX fits the longest key and stats */
    size_t c = credit != NULL ? jline_format_credit(credit, line + n, JLINE_MAX) : 0;
    if (credit != NULL && c == 0)
        return errno = EINVAL, -1;
    char escaped[JLINE_MAX];
    if (jline_escape(task_key, escaped, sizeof escaped) == SIZE_MAX)
        return errno = EINVAL, -1;
    uint64_t key_hash = hash_fnv1a(escaped);
    s_entry_t *e = s_find(self, task_id);
    if (e && !s_agrees(self, e, key_hash, nodes, stats))
        return errno = EEXIST, -1;
    if (e && (!stats || e->stats_idx != NO_STATS))
        return 0; /* already recorded, nothing new */
    if (e != NULL)
        c = 0; /* only stats added to a known task: its credit is the first record's */
    if (s_reserve(self) != 0 || s_write_synced(self, line, n + c) != 0)
        return -1;
    if (c > 0 && s_keep_credit(self, credit) != 0)
        return -1;
    return e ? s_upgrade_stats(self, e, stats) : s_insert(self, task_id, key_hash, escaped, nodes, stats);
}

size_t journal_credit_nb(const journal_t *self)
{
    return self->credit_nb;
}

const journal_credit_t *journal_credit_at(const journal_t *self, size_t k)
{
    assert(k < self->credit_nb);
    return &self->credits[k];
}

void journal_destroy(journal_t **self_p)
{
    assert(self_p);
    journal_t *self = *self_p;
    if (!self)
        return;
    if (self->fd >= 0)
        close(self->fd);
    free(self->path);
    for (size_t i = 0; i < self->entry_nb; i++)
        free(self->entries[i].key);
    free(self->entries);
    free(self->stats);
    free(self->slots);
    free(self->credits);
    free(self);
    *self_p = NULL;
}
