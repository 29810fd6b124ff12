/* msg_table.h: the one table describing every OCTP message's fields (private to proto/). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "msg.h"

/* How a field is represented in the struct and on the wire (PROTOCOL.md section 4). */
typedef enum {
    FIELD_U8,       /* uint8_t, integer in [min, max] */
    FIELD_U32,      /* uint32_t, integer in [min, max] */
    FIELD_U64,      /* uint64_t, integer in [min, max] */
    FIELD_BOOL,     /* bool */
    FIELD_STR,      /* char[cap]; length in [min, max], max < cap */
    FIELD_STR_LIST, /* char[max][cap] at offset, uint32_t count at count_offset; count in [min, max], each length in [1, cap - 1] */
    FIELD_U64_LIST, /* uint64_t[max] at offset, uint32_t count at count_offset; count in [min, max], each value >= elem_min */
    FIELD_COUNT,    /* count_t, encoded [hi, lo] */
    FIELD_STATS,    /* perft_stats_t at offset, bool at count_offset; nil or MSG_STATS_NB counts */
    FIELD_BIN,      /* uint8_t[max] at offset, uint32_t length at count_offset; length in [min, max] */
    FIELD_TABLES,   /* msg_tableref_t[max] at offset, uint32_t count at count_offset; count in [min, max] */
    FIELD_I32       /* int32_t, signed integer in [imin, imax] */
} field_kind_t;

/* One field: its name for error messages, kind, place in msg_t and limits.
 * A bulk field (lists and bin only) holds at offset a pointer to its
 * elements instead of the elements themselves (msg.h, msg_bulk_t). */
typedef struct {
    const char *name;
    field_kind_t kind;
    size_t offset;       /* offsetof(msg_t, ...) of the value */
    size_t count_offset; /* lists: uint32_t count; stats: bool present */
    uint64_t min, max;   /* value, string length or list length bounds */
    size_t cap;          /* strings: buffer size including the NUL */
    uint64_t elem_min;   /* u64 lists: least element value */
    int64_t imin, imax;  /* FIELD_I32 bounds */
    bool bulk;           /* elements outside msg_t, pointed to from offset */
} field_desc_t;

/* Bytes of one element of a list or bin field (FIELD_STR_LIST: cap). */
size_t msg_field_elem_size(const field_desc_t *f);

/* The elements of list or bin field f of msg: inside msg, or where its bulk pointer points (NULL if unset). */
const void *msg_field_elems(const msg_t *msg, const field_desc_t *f);

/* One message type: wire name, who sends it, and its fields in wire order. */
typedef struct {
    const char *name;
    unsigned senders;
    const field_desc_t *fields;
    size_t n_fields;
    uint32_t since;   /* first protocol version with this type */
} msg_desc_t;

/* offsetof(perft_stats_t, ...) of the MSG_STATS_NB counts, in wire order. */
extern const size_t msg_stats_offsets[MSG_STATS_NB];

/* The descriptor of a type, or NULL for MSG_NONE and out-of-range values. */
const msg_desc_t *msg_table_get(msg_type_t type);

/* The type whose wire name is the len bytes at name, or MSG_NONE. */
msg_type_t msg_table_find(const char *name, size_t len);
