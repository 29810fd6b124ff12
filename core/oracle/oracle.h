/* oracle.h: the answers of the octad oracle (docs/oracle.md): from a position
 * in OFEN, its value, distances and every move's value as JSON shaped like
 * the lichess tablebase API's; the mainline as moves and PGN; the deployed
 * starts. Over the tables of one directory (core/solve), read lazily.
 *
 * Which positions the tables cover is decided once, when the oracle is made:
 * a table is covered when its file and its colour flip's are there (or its
 * material is always drawn) and so, recursively, are the tables its captures
 * and promotions lead to. A position no covered table holds answers category
 * "unknown". A covered position whose table cannot be read at run time (file
 * gone, damaged) answers ORACLE_UNAVAILABLE: the tables changed under us.
 * Thread-safe: requests may run on several threads at once. */
#pragma once

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "octad/position.h"

typedef struct oracle oracle_t;

typedef enum {
    ORACLE_OK = 0,
    ORACLE_BAD_INPUT,   /* the position cannot be read: err has the parser's message */
    ORACLE_UNAVAILABLE, /* a table it needs cannot be read: err names the file and the problem */
    ORACLE_NO_MEMORY
} oracle_status_t;


/* An oracle over the tables in dir (a missing or empty directory covers
 * nothing: every position with a table answers "unknown"), its decompressed
 * records held within `memory` bytes (blocks read on demand, the least
 * recently used dropped: store_new_bounded); memory 0: no bound, every table
 * read whole and kept. NULL out of memory. */
oracle_t *oracle_new(const char *dir, size_t memory);

/* Seconds before a table that could not be read is tried again (default
 * STORE_RETRY_DEFAULT); requests that need it answer ORACLE_UNAVAILABLE meanwhile. */
void oracle_set_retry(oracle_t *self, double seconds);

/* After this thread's ORACLE_UNAVAILABLE: whole seconds until the table is
 * tried again (at least 1). */
int oracle_retry_after(const oracle_t *self);

/* The records held and the budget, in bytes; the blocks held; hits and
 * misses. false when the tables are read whole (memory 0). */
bool oracle_memory(oracle_t *self, size_t *bytes, size_t *budget, unsigned long long *blocks,
                   unsigned long long *hits, unsigned long long *misses);

/* The tables opened so far (*open) and the heap bytes they hold (*bytes):
 * under a budget their layouts and block offsets (the records are in the
 * blocks oracle_memory counts); read whole (memory 0), layouts and records. */
void oracle_tables_open(oracle_t *self, int *open, size_t *bytes);

/* Frees *self_p and its tables, sets it to NULL; safe on NULL. */
void oracle_destroy(oracle_t **self_p);

/* The entity tag of every answer, quoted for an ETag header: it changes when
 * any table file's checksum changes (and with the API's version). Borrowed. */
const char *oracle_etag(const oracle_t *self);

/* Table files found when the oracle was made (the CRC-checked headers). */
int oracle_table_files(const oracle_t *self);

/* The largest N such that every position with at most N pieces is covered
 * (2 when no file is there: two bare kings are always a draw). */
int oracle_max_pieces(const oracle_t *self);

/* Whether the tables cover p (checkmate, stalemate and insufficient material
 * are always covered: the rules decide them). */
bool oracle_covers(const oracle_t *self, const octad_pos_t *p);

/* GET /api/v1/octad: the position's answer (fields: docs/oracle.md). On
 * ORACLE_OK *out is a new object the caller json_decref's; otherwise *out is
 * NULL and err says why. */
oracle_status_t oracle_position(oracle_t *self, const char *ofen, json_t **out, char *err, size_t errlen);

/* GET /api/v1/octad/mainline: the best line from the position to the end of
 * the game (mate, or a draw by the rules), at most ORACLE_LINE_MAX plies, as
 * moves and as PGN, with its result. As oracle_position. */
oracle_status_t oracle_mainline(oracle_t *self, const char *ofen, json_t **out, char *err, size_t errlen);

/* GET /api/v1/octad/deployed: the 144 deployed starts (RULES.md "Deployed
 * starts", numbered as core/game/start.h) with value, distances and best
 * moves. As oracle_position. */
oracle_status_t oracle_deployed(oracle_t *self, json_t **out, char *err, size_t errlen);

enum { ORACLE_LINE_MAX = 400 };
