/* store.h: the tables a solve or a probe reads: loaded from files or lent
 * from memory, looked up by position (any side to move, e.p. by look-ahead). */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "blockcache.h"
#include "layout.h"
#include "octad/position.h"
#include "tb_record.h"
#include "tbsource.h"

typedef struct store store_t;

enum {
    STORE_RETRY_DEFAULT = 30,      /* seconds before a table that failed to load is tried again */
    STORE_MEMORY_DEFAULT_MB = 1024 /* the budget of a bounded store unless one is given (octad serve, probe) */
};

/* A store reading table files from dir (NULL: memory tables only): a table
 * is read whole, decompressed, on first use and kept (the solver's store). */
store_t *store_new(const char *dir);

/* A store whose memory is bounded (the oracle's, `octad probe`'s): a table
 * file is opened on first use with the quick check (tbsource.h:
 * TBSOURCE_CHECK_QUICK; store_set_check), then its records are
 * read one block (2^16 records) at a time and kept in an LRU of at most
 * `budget` bytes (blockcache.h); answers are those of store_new. budget 0:
 * store_new. NULL out of memory. */
store_t *store_new_bounded(const char *dir, size_t budget);

/* How a bounded store checks a table file when it opens it (tables already
 * open keep theirs). Set before lookups start. */
void store_set_check(store_t *self, tbsource_check_t check);

/* Seconds before a table whose file could not be read (missing, damaged,
 * unreadable) is tried again (STORE_RETRY_DEFAULT); meanwhile lookups into
 * it fail at once with the same message. */
void store_set_retry(store_t *self, double seconds);

/* Seconds until the table of the calling thread's last failure is tried
 * again (0: now, or the failure was not a table's). */
double store_retry_in(const store_t *self);

/* A bounded store's block cache figures into *out: true; false for a store
 * that reads tables whole. */
bool store_memory(store_t *self, blockcache_stats_t *out);

/* The tables loaded from files and the heap bytes they hold: a bounded
 * store's open sources (layouts, block offsets; tbsource_bytes), a whole
 * table's layout and records (a version-1 file's mapping counted). */
typedef struct {
    int open;
    size_t bytes;
} store_tables_t;

store_tables_t store_tables(store_t *self);

/* Frees *self_p (and every table it loaded) and sets it to NULL. */
void store_destroy(store_t **self_p);

/* Lends the store an in-memory table (not copied; must outlive its use). */
void store_put(store_t *self, int table, const layout_table_t *layout, const rec_t *recs);

/* Makes table `table` available: already there, dead (all drawn), or loaded
 * (a bounded store: opened) from its file. 0, or -1 with a message (missing
 * file, bad checksum, ...): a file that failed is not read again for the
 * retry delay (store_set_retry). */
int store_need(store_t *self, int table, char *err, size_t errlen);

/* store_need, counted: a table loaded from its file stays loaded until as
 * many store_release calls as acquisitions, then is unloaded (its memory
 * freed). A solve acquires the tables a pair's exits lead to for the time it
 * solves the pair, so memory holds only what running pairs need. Tables
 * loaded by a lookup without acquisition stay loaded. 0, or -1 + message. */
int store_acquire(store_t *self, int table, char *err, size_t errlen);

/* Ends one acquisition of `table` (nothing if it was not acquired). The
 * caller guarantees no lookup into the table runs once the count reaches 0. */
void store_release(store_t *self, int table);

/* Whether the table is available without loading. */
bool store_has(store_t *self, int table);

/* Record of a legal position without an e.p. square (any side to move):
 * drawn by insufficient material, dead tables drawn; a table not yet
 * available is loaded from the directory; REC_INVALID if it cannot be
 * (store_error says why). Thread-safe. */
rec_t store_record(store_t *self, const octad_pos_t *p);

/* Value of any legal position at halfmove clock 0, e.p. square included
 * (resolved by one-ply look-ahead when an e.p. capture is legal): fills *out
 * and returns 0, or -1 if a table it needs is missing. The look-ahead's dtz
 * of a cursed win or blessed loss is an upper bound (the generator needs
 * only values and dtm); probe_position makes it exact (ep_exact.h). */
int store_value(store_t *self, const octad_pos_t *p, rec_t *out);

/* The last failure to load a table (a message naming the file), for a
 * lookup that returned REC_INVALID or -1: the calling thread's own if it had
 * one, else the store's last. */
const char *store_error(store_t *self);

/* Sets the message store_error returns (for a lookup a layer above failed). */
void store_set_error(store_t *self, const char *msg);

/* One cache that a layer above keeps with the store (ep_exact.c): what
 * store_aux_set last set, or NULL; store_destroy calls release(aux). The
 * caller serialises these two calls and its use of the cache. */
void *store_aux(const store_t *self);
void store_aux_set(store_t *self, void *aux, void (*release)(void *));

/* The directory the store reads, or NULL. */
const char *store_dir(const store_t *self);
