/* journal.c: the coordinator's crash-safe record of finished tasks (file format in journal.h). */
#include "journal.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
    jfile_t *file;
    uint64_t last_task;  /* while loading: the task of the previous line (a credit follows it) */
    s_entry_t *entries;
    size_t entry_nb, entry_cap;
    perft_stats_t *stats;
    size_t stats_nb, stats_cap;
    uint32_t *slots;     /* open addressing, linear probing: entry index + 1, 0 = empty */
    size_t slot_cap;     /* power of two, at least twice entry_nb */
    bool keep_keys;      /* entries keep their key text (journal_open_keys) */
    journal_credit_t *credits; /* C records, in file order */
    size_t credit_nb, credit_cap;
    int64_t started_at;  /* the S record's Unix seconds, 0 when the file has none */
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

/* Loads one task record. */
static int s_load_entry(journal_t *self, jfile_rec_t *rec, char *err, size_t errlen)
{
    jline_entry_t in;
    if (jline_parse_entry(rec, &in, err, errlen) != 0)
        return -1;
    const perft_stats_t *stats = in.has_stats ? &in.stats : NULL;
    uint64_t key_hash = hash_fnv1a(in.key);
    s_entry_t *e = s_find(self, in.task_id);
    self->last_task = in.task_id;
    if (!e) {
        if (s_insert(self, in.task_id, key_hash, in.key, in.nodes, stats) == 0)
            return 0;
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (!s_agrees(self, e, key_hash, in.nodes, stats)) {
        snprintf(err, errlen, "task %llu is recorded twice with different %s", (unsigned long long)in.task_id,
                 e->key_hash != key_hash ? "task keys" : "counts");
        return -1;
    }
    if (s_upgrade_stats(self, e, stats) == 0)
        return 0;
    snprintf(err, errlen, "out of memory");
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

/* Loads one credit record: it must follow its task's record. */
static int s_load_credit(journal_t *self, jfile_rec_t *rec, char *err, size_t errlen)
{
    journal_credit_t c;
    uint64_t last_task = self->last_task;
    self->last_task = 0;
    if (jline_parse_credit(rec, &c, err, errlen) != 0)
        return -1;
    if (c.task_id != last_task) {
        snprintf(err, errlen, "credit of task %llu does not follow that task's record", (unsigned long long)c.task_id);
        return -1;
    }
    if (s_keep_credit(self, &c) == 0)
        return 0;
    snprintf(err, errlen, "out of memory");
    return -1;
}

/* Loads the start record: one per file. */
static int s_load_start(journal_t *self, jfile_rec_t *rec, char *err, size_t errlen)
{
    self->last_task = 0;
    if (self->started_at != 0) {
        snprintf(err, errlen, "a second start record (a job starts once)");
        return -1;
    }
    return jline_parse_start(rec, &self->started_at, err, errlen);
}

/* jfile's visitor: a T, a C or an S record. */
static int s_visit(void *ctx, jfile_rec_t *rec, char *err, size_t errlen)
{
    journal_t *self = ctx;
    if (rec->type == 'T')
        return s_load_entry(self, rec, err, errlen);
    if (rec->type == 'C')
        return s_load_credit(self, rec, err, errlen);
    if (rec->type == 'S')
        return s_load_start(self, rec, err, errlen);
    snprintf(err, errlen, "record type %c is not one of the cluster journal's (T, C, S)", rec->type);
    return -1;
}

/* A journal this open created gets its start record: the job starts now. 0, or -1 with err. */
static int s_write_start(journal_t *self, const char *path, char *err, size_t errlen)
{
    char line[JFILE_LINE_MAX];
    if (!jfile_created(self->file))
        return 0;
    int64_t now = (int64_t)time(NULL);
    size_t n = jline_format_start(now, line, sizeof line);
    if (n == 0 || jfile_append(self->file, line, n) != 0) {
        snprintf(err, errlen, "journal %s: cannot write the start record: %s", path, strerror(errno));
        return -1;
    }
    self->started_at = now;
    return 0;
}

static journal_t *s_open(const char *path, const char *kind, const char *job_key, bool keep_keys, char *err,
                         size_t errlen)
{
    assert(path && kind && job_key && err);
    journal_t *self = calloc(1, sizeof *self);
    if (self == NULL || s_reserve(self) != 0) {
        snprintf(err, errlen, "journal %s: out of memory", path);
        journal_destroy(&self);
        errno = ENOMEM;
        return NULL;
    }
    self->keep_keys = keep_keys;
    /* Version 1 (before kinds) is read too: its T and C records are version 2's. */
    jfile_spec_t spec = {.kind = kind, .key = job_key, .accept_v1 = true, .visit = s_visit, .ctx = self};
    self->file = jfile_open(path, &spec, err, errlen);
    if (self->file == NULL || s_write_start(self, path, err, errlen) != 0) {
        int saved = errno;
        journal_destroy(&self);
        errno = saved;
        return NULL;
    }
    return self;
}

journal_t *journal_open(const char *path, const char *kind, const char *job_key, char *err, size_t errlen)
{
    return s_open(path, kind, job_key, false, err, errlen);
}

journal_t *journal_open_keys(const char *path, const char *kind, const char *job_key, char *err, size_t errlen)
{
    return s_open(path, kind, job_key, true, err, errlen);
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
    char escaped[JFILE_LINE_MAX];
    if (jfile_escape(task_key, escaped, sizeof escaped) == SIZE_MAX)
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
    char line[2 * JFILE_LINE_MAX];
    size_t n = jline_format_entry(task_id, task_key, nodes, stats, line, JFILE_LINE_MAX);
    assert(n > 0); /* a line fits the longest key and stats */
    size_t c = credit != NULL ? jline_format_credit(credit, line + n, JFILE_LINE_MAX) : 0;
    if (credit != NULL && c == 0)
        return errno = EINVAL, -1;
    char escaped[JFILE_LINE_MAX];
    if (jfile_escape(task_key, escaped, sizeof escaped) == SIZE_MAX)
        return errno = EINVAL, -1;
    uint64_t key_hash = hash_fnv1a(escaped);
    s_entry_t *e = s_find(self, task_id);
    if (e && !s_agrees(self, e, key_hash, nodes, stats))
        return errno = EEXIST, -1;
    if (e && (!stats || e->stats_idx != NO_STATS))
        return 0; /* already recorded, nothing new */
    if (e != NULL)
        c = 0; /* only stats added to a known task: its credit is the first record's */
    if (s_reserve(self) != 0 || jfile_append(self->file, line, n + c) != 0)
        return -1;
    if (c > 0 && s_keep_credit(self, credit) != 0)
        return -1;
    return e ? s_upgrade_stats(self, e, stats) : s_insert(self, task_id, key_hash, escaped, nodes, stats);
}

int64_t journal_started_at(const journal_t *self)
{
    assert(self);
    return self->started_at;
}

bool journal_resumed(const journal_t *self)
{
    assert(self);
    return !jfile_created(self->file);
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
    jfile_destroy(&self->file);
    for (size_t i = 0; i < self->entry_nb; i++)
        free(self->entries[i].key);
    free(self->entries);
    free(self->stats);
    free(self->slots);
    free(self->credits);
    free(self);
    *self_p = NULL;
}
