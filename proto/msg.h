/* msg.h: OCTP/1 to OCTP/4 messages as plain C structs, and their MessagePack codec (PROTOCOL.md). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "types.h"

/* Protocol constants and limits. String sizes include the NUL, so a
 * MSG_POSITION_MAX buffer holds at most 127 bytes of text.
 * MSG_PROTOCOL_VERSION is the perft protocol, OCTP/1; OCTP/2 adds the
 * solving messages (PROTOCOL.md section 11), OCTP/3 the analysis messages
 * (section 12), OCTP/4 the worker's CPU time (section 13). A peer decodes all four. */
enum {
    MSG_PROTOCOL_VERSION = 1,
    MSG_VERSION_MIN = 1,       /* versions this codec reads and writes */
    MSG_VERSION_MAX = 4,
    MSG_MAX_BYTES = 65536,     /* longest encoded message */
    MSG_NAME_MAX = 64,         /* worker name */
    MSG_VARIANT_MAX = 16,      /* variant name ("octad", "chess960") */
    MSG_VARIANTS_MAX = 8,      /* variants a worker may list in HELLO */
    MSG_POSITION_MAX = 128,    /* position text, same as GAME_TEXT_MAX */
    MSG_TEXT_MAX = 256,        /* reasons and error texts */
    MSG_THREADS_MAX = 1024,    /* HELLO threads and CREDIT n */
    MSG_HANDBACK_MAX = 1024,   /* task ids in one HANDBACK */
    MSG_STATS_NB = 13,         /* counts in an encoded stats array */
    MSG_TABLE_NAME_MAX = 32,   /* OCTP/2 table name ("KQRNvKBNP"), str(31) */
    MSG_NEEDS_MAX = 64,        /* OCTP/2 tables one task reads */
    MSG_PAIR_TABLES_MAX = 2,   /* OCTP/2 tables of one pair (1 if it is its own flip) */
    MSG_CHUNK_MAX = 32768,     /* OCTP/2 bytes of one CHUNK */
    MSG_MOVE_MAX = 8,          /* OCTP/3 move text (UOI / UCI), str(7) */
    MSG_GAME_MOVES_MAX = 1024, /* OCTP/3 moves from the game's start to the analysed position */
    MSG_PV_MAX = 120,          /* OCTP/3 moves of one PV (the engine's ENGINE_MAX_PLY) */
    MSG_SCORE_MAX = 32000,     /* OCTP/3 |score|: the engine's mate score at the root */
    MSG_ANALYSE_DEPTH_MAX = 100, /* OCTP/3 search depth (the engine's ENGINE_DEPTH_MAX) */
    MSG_ANALYSE_HASH_MAX = 65536, /* OCTP/3 hash_mb of an analysis */
    MSG_T_BOUND = 512          /* most bytes a msg_t may take (checked at compile time below) */
};

/* The protocol name, element 0 of every message. */
#define MSG_PROTOCOL_NAME "OCTP"

/* Results of msg_decode and the wire helpers: 0 or a negative code. */
enum {
    MSG_OK = 0,
    MSG_EBADMSG = -1,   /* malformed message (dropped; err says why) */
    MSG_EVERSION = -2,  /* well-formed envelope of another protocol version */
    MSG_ETRANSPORT = -3 /* ZeroMQ error (wire.h only); errno is kept */
};

/* Message types; the wire names are the upper-case suffixes. */
typedef enum {
    MSG_NONE = 0,
    MSG_HELLO,
    MSG_WELCOME,
    MSG_CREDIT,
    MSG_TASK,
    MSG_RESULT,
    MSG_REFUSE,
    MSG_HANDBACK,
    MSG_HEARTBEAT,
    MSG_BYE,
    MSG_ERROR,
    MSG_SOLVE,      /* OCTP/2 from here on */
    MSG_VERIFY,
    MSG_SOLVED,
    MSG_VERIFIED,
    MSG_FETCH,
    MSG_CHUNK,
    MSG_ANALYSE,    /* OCTP/3 from here on */
    MSG_ANALYSED,
    MSG_USAGE,      /* OCTP/4 */
    MSG_TYPE_NB
} msg_type_t;

/* Codes carried by REFUSE and ERROR. Receivers treat unknown codes as INTERNAL. */
typedef enum {
    MSG_CODE_BAD_MESSAGE = 1,
    MSG_CODE_VERSION = 2,
    MSG_CODE_VARIANT = 3,
    MSG_CODE_POSITION = 4,
    MSG_CODE_DEPTH = 5,
    MSG_CODE_NO_CREDIT = 6,
    MSG_CODE_NOT_WELCOME = 7,
    MSG_CODE_SHUTDOWN = 8,
    MSG_CODE_INTERNAL = 9,
    MSG_CODE_TABLE = 10,      /* OCTP/2: a table is missing, unreadable or fails its checksum */
    MSG_CODE_MEMORY = 11      /* OCTP/2: the pair needs more memory than the worker may use */
} msg_code_t;

/* Who may send a type (bit set returned by msg_type_senders). */
enum {
    MSG_FROM_WORKER = 1,
    MSG_FROM_COORDINATOR = 2
};

typedef struct {
    char name[MSG_NAME_MAX];
    uint32_t threads;
    uint32_t n_variants;
    char variants[MSG_VARIANTS_MAX][MSG_VARIANT_MAX];
    uint32_t hash_mb;
} msg_hello_t;

typedef struct {
    uint32_t heartbeat_ms;
    uint32_t liveness;
    uint64_t job_id;
} msg_welcome_t;

typedef struct {
    uint32_t n;
} msg_credit_t;

typedef struct {
    uint64_t task_id;
    uint64_t job_id;
    char variant[MSG_VARIANT_MAX];
    char position[MSG_POSITION_MAX];
    uint8_t depth;
    bool want_stats;
    uint32_t lease_ms;
} msg_task_t;

typedef struct {
    uint64_t task_id;
    uint64_t job_id;
    count_t nodes;
    bool has_stats;      /* false: stats is all zero and encoded as nil */
    perft_stats_t stats; /* stats.nodes should equal nodes (checked by the coordinator) */
    uint64_t elapsed_ms;
} msg_result_t;

typedef struct {
    uint64_t task_id;
    uint64_t job_id;
    uint32_t code; /* msg_code_t */
    char reason[MSG_TEXT_MAX];
} msg_refuse_t;

/* Bulk fields (the lists and bytes that may be long) are not inside the
 * message: a field holds a pointer to its elements and their count. The
 * sender points them at its own arrays; msg_decode copies them into the
 * caller's bulk storage (msg_bulk_t below). Marked "bulk" below. */

typedef struct {
    uint32_t n_task_ids;
    const uint64_t *task_ids;           /* bulk, MSG_HANDBACK_MAX at most */
} msg_handback_t;

typedef struct {
    char reason[MSG_TEXT_MAX];
} msg_bye_t;

typedef struct {
    uint32_t code; /* msg_code_t */
    char text[MSG_TEXT_MAX];
} msg_error_t;

/* OCTP/2: a table file by name, with its size and the CRC-32C of all its bytes. */
typedef struct {
    char name[MSG_TABLE_NAME_MAX];
    uint64_t size;
    uint32_t crc;
} msg_tableref_t;

typedef struct {
    uint64_t task_id;
    uint64_t job_id;
    char pair[MSG_TABLE_NAME_MAX];          /* the pair's primary table */
    uint32_t n_needs;
    const msg_tableref_t *needs;            /* bulk: tables its exits lead to */
    char dir_id[MSG_TABLE_NAME_MAX];        /* the coordinator's table directory id ("" none) */
    uint32_t lease_ms;
} msg_solve_t;

typedef struct {
    uint64_t task_id;
    uint64_t job_id;
    char pair[MSG_TABLE_NAME_MAX];
    uint32_t n_tables;
    msg_tableref_t tables[MSG_PAIR_TABLES_MAX]; /* the files to check */
    uint32_t n_needs;
    const msg_tableref_t *needs;            /* bulk */
    char dir_id[MSG_TABLE_NAME_MAX];
    uint32_t lease_ms;
} msg_verify_t;

typedef struct {
    uint64_t task_id;
    uint64_t job_id;
    uint32_t n_tables;
    msg_tableref_t tables[MSG_PAIR_TABLES_MAX]; /* the files made */
    uint64_t positions;                         /* legal positions solved */
    uint64_t elapsed_ms;
    bool in_shared;                             /* written into the shared directory */
} msg_solved_t;

typedef struct {
    uint64_t task_id;
    uint64_t job_id;
    bool ok;
    uint64_t records;
    uint64_t failures;
    char first_error[MSG_TEXT_MAX];
    uint64_t elapsed_ms;
} msg_verified_t;

typedef struct {
    char table[MSG_TABLE_NAME_MAX];
    uint64_t offset;
    uint32_t length;
} msg_fetch_t;

typedef struct {
    char table[MSG_TABLE_NAME_MAX];
    uint64_t offset;
    uint64_t size;                  /* the whole file's size */
    uint32_t n_data;
    const uint8_t *data;            /* bulk, MSG_CHUNK_MAX bytes at most */
    uint32_t crc;                   /* CRC-32C of data */
} msg_chunk_t;

/* OCTP/3: one move's text (UOI / UCI), NUL-terminated. */
typedef char msg_move_t[MSG_MOVE_MAX];

/* OCTP/3: search the position reached by `moves` from `position` with
 * the root restricted to `move` (PROTOCOL.md section 12). */
typedef struct {
    uint64_t task_id;
    uint64_t job_id;
    char variant[MSG_VARIANT_MAX];
    char position[MSG_POSITION_MAX];            /* the game's start */
    uint32_t n_moves;
    const msg_move_t *moves;                    /* bulk: from the start to the analysed position */
    char move[MSG_MOVE_MAX];                    /* the one root move searched */
    uint8_t depth;
    uint32_t hash_mb;
    uint32_t lease_ms;
} msg_analyse_t;

/* Bounds of an OCTP/3 score (engine_bound_t). */
enum { MSG_BOUND_EXACT = 0, MSG_BOUND_LOWER = 1, MSG_BOUND_UPPER = 2 };

typedef struct {
    uint64_t task_id;
    uint64_t job_id;
    char move[MSG_MOVE_MAX];
    int32_t score;                    /* engine units: centipawns, or +-(32000 - plies to mate) */
    uint8_t bound;                    /* MSG_BOUND_* */
    uint32_t n_pv;
    const msg_move_t *pv;             /* bulk: pv[0] == move */
    uint8_t seldepth;
    uint64_t nodes;
    uint64_t elapsed_ms;
} msg_analysed_t;

/* OCTP/4: the worker process's CPU time (user and system) since this session's WELCOME,
 * sent before its answers (PROTOCOL.md section 13). */
typedef struct {
    uint64_t cpu_ms;
} msg_usage_t;

/* One message of any type: `type` says which member of `u` is live
 * (HEARTBEAT has no fields). A small plain value (at most MSG_T_BOUND
 * bytes, so it lives on the stack) that owns no memory: its bulk fields
 * borrow the sender's arrays or the receiver's bulk storage, which must
 * outlive it; nothing to free. `version` is the envelope's protocol version:
 * msg_init sets the type's first version (msg_type_version); a sender
 * may raise a message to its session's version (2 or 3). */
typedef struct {
    msg_type_t type;
    uint32_t version;
    union {
        msg_hello_t hello;
        msg_welcome_t welcome;
        msg_credit_t credit;
        msg_task_t task;
        msg_result_t result;
        msg_refuse_t refuse;
        msg_handback_t handback;
        msg_bye_t bye;
        msg_error_t error;
        msg_solve_t solve;
        msg_verify_t verify;
        msg_solved_t solved;
        msg_verified_t verified;
        msg_fetch_t fetch;
        msg_chunk_t chunk;
        msg_analyse_t analyse;
        msg_analysed_t analysed;
        msg_usage_t usage;
    } u;
} msg_t;

_Static_assert(sizeof(msg_t) <= MSG_T_BOUND, "msg_t must stay small enough for the stack: put long fields in bulk");

/* Caller-owned storage that msg_decode copies a message's bulk fields into
 * (each aligned for its elements); the decoded message points into it, so it
 * must outlive the message and not be reused while the message is in use. A
 * message whose bulk fields do not fit is refused (MSG_EBADMSG, err names the
 * field); NULL, or cap 0, takes messages without bulk elements only. */
typedef struct {
    void *buf;
    size_t cap;
} msg_bulk_t;

/* Bytes of bulk storage that hold any one message's bulk fields (a full
 * CHUNK, the largest, plus alignment; msg_table.c checks every field). */
enum { MSG_BULK_MAX = MSG_CHUNK_MAX + 16 };

/* Storage of MSG_BULK_MAX bytes, aligned for any bulk element: in a struct,
 * on the heap, or (33 KiB) on a stack that can afford it. */
typedef union {
    uint64_t align;
    unsigned char bytes[MSG_BULK_MAX];
} msg_bulk_store_t;

/* The bulk view of a whole msg_bulk_store_t. */
static inline msg_bulk_t msg_bulk_of(msg_bulk_store_t *store)
{
    return (msg_bulk_t){store->bytes, sizeof store->bytes};
}

/* Zeroes *msg and sets its type; call before filling fields so unused bytes are zero. */
void msg_init(msg_t *msg, msg_type_t type);

/* The first protocol version that has `type` (1; 2 for SOLVE .. CHUNK; 3 for ANALYSE, ANALYSED;
 * 4 for USAGE). */
uint32_t msg_type_version(msg_type_t type);

/* Wire name of a type ("TASK"), or "NONE" for MSG_NONE / out-of-range values. */
const char *msg_type_name(msg_type_t type);

/* MSG_FROM_WORKER / MSG_FROM_COORDINATOR bits of the peers that may send `type`, 0 if invalid. */
unsigned msg_type_senders(msg_type_t type);

/* Encodes msg into buf (cap bytes; MSG_MAX_BYTES always suffice) and sets *len.
 * Returns 0, or -1 with a message in err (errlen bytes, may be 0) if a field
 * breaks its limit (unterminated string, count out of range, a bulk field
 * with elements and a NULL pointer, unknown type),
 * the version is outside MSG_VERSION_MIN..MAX or older than the type, or
 * buf is too small. Never asserts on msg's contents. */
int msg_encode(const msg_t *msg, void *buf, size_t cap, size_t *len, char *err, size_t errlen);

/* msg_encode with the envelope version `version` instead of msg->version
 * (0: msg->version), e.g. an OCTP/1 type in an OCTP/2 session. */
int msg_encode_as(const msg_t *msg, uint32_t version, void *buf, size_t cap, size_t *len, char *err, size_t errlen);

/* Decodes exactly one message of len bytes into *out (zeroed first; strings
 * are copied into out, bulk fields into bulk (see msg_bulk_t; may be NULL),
 * nothing points into data). Returns MSG_OK,
 * MSG_EVERSION for a well-formed envelope of a version outside
 * MSG_VERSION_MIN..MAX, or MSG_EBADMSG for anything else that is not a valid
 * message (an OCTP/2 type in an OCTP/1 envelope included); out->version is
 * the envelope's; on error out->type
 * is MSG_NONE and err (errlen bytes, may be 0) names the field and problem.
 * Never asserts or crashes on data. */
int msg_decode(const void *data, size_t len, msg_t *out, const msg_bulk_t *bulk, char *err, size_t errlen);
