/* oracle_priv.h: what the oracle's files share: the object, reading the
 * position, values with coverage, and the JSON of a value. */
#pragma once

#include <jansson.h>
#include <pthread.h>

#include "oracle.h"
#include "probe.h"
#include "sig.h"
#include "store.h"

struct oracle {
    store_t *store;
    bool present[SIG_TABLE_NB]; /* a complete file when the oracle was made */
    bool covered[SIG_TABLE_NB]; /* oracle_cover.h */
    int files, max_pieces;
    char etag[48];
};

/* A value that may be unknown (the tables do not cover the position). */
typedef struct {
    bool known;
    probe_value_t v;
} oracle_value_t;

/* One legal move with the value of the position after it. */
typedef struct {
    bool known;
    probe_move_t m; /* m.after: the value after the move, for its side to move */
} oracle_move_t;

/* Parses ofen into *p: ORACLE_OK, or ORACLE_BAD_INPUT with the parser's
 * message (or the material no octad side can have) in err. */
oracle_status_t oracle_parse(const char *ofen, octad_pos_t *p, char *err, size_t errlen);

/* p's value (unknown when not covered): ORACLE_OK or ORACLE_UNAVAILABLE + err. */
oracle_status_t oracle_value(oracle_t *self, const octad_pos_t *p, oracle_value_t *out, char *err, size_t errlen);

/* Every legal move of p, best first for the mover (moves to positions not
 * covered last, in generation order); their number in *n. As oracle_value. */
oracle_status_t oracle_moves(oracle_t *self, const octad_pos_t *p, oracle_move_t *moves, int *n, char *err,
                             size_t errlen);

/* Sets category, dtz, precise_dtz and dtm of obj from v (docs/oracle.md:
 * signed for the side to move, null when unknown). 0, or -1 out of memory. */
int oracle_value_json(json_t *obj, const oracle_value_t *v);

/* A move's object: uoi, san, the ofen after it and that position's value
 * (oracle_value_json). NULL out of memory. */
json_t *oracle_move_json(const octad_pos_t *p, const oracle_move_t *m);

/* "win", ..., "loss" or "unknown". */
const char *oracle_category(const oracle_value_t *v);

/* Sets key to a new value (stolen); -1 when it is NULL or cannot be set.
 * Keys, and the strings the oracle writes (json_string_nocheck: OFEN, UOI,
 * SAN, names, PGN of those), are ASCII made here, so jansson's UTF-8 check
 * is skipped; text from a client never goes into an answer. */
int oracle_set(json_t *obj, const char *key, json_t *value);
