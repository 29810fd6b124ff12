/* msg_table.c: the OCTP message table (PROTOCOL.md sections 5, 11 and 12), which drives encoder and decoder. */
#include "msg_table.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define OFF(member) offsetof(msg_t, u.member)
#define FROM_W MSG_FROM_WORKER
#define FROM_C MSG_FROM_COORDINATOR

/* Field constructors, so each row of the table reads like the spec. */
#define F_INT(kind, nm, member, lo, hi) {nm, kind, OFF(member), 0, lo, hi, 0, 0, 0, 0, false}
#define F_BOOL(nm, member) {nm, FIELD_BOOL, OFF(member), 0, 0, 1, 0, 0, 0, 0, false}
#define F_STR(nm, member, lo) \
    {nm, FIELD_STR, OFF(member), 0, lo, sizeof(((msg_t *)0)->u.member) - 1, sizeof(((msg_t *)0)->u.member), 0, 0, 0, false}
#define F_COUNT(nm, member) {nm, FIELD_COUNT, OFF(member), 0, 0, 0, 0, 0, 0, 0, false}

static const field_desc_t s_hello[] = {
    F_STR("name", hello.name, 1),
    F_INT(FIELD_U32, "threads", hello.threads, 1, MSG_THREADS_MAX),
    {"variants", FIELD_STR_LIST, OFF(hello.variants), OFF(hello.n_variants), 1, MSG_VARIANTS_MAX,
     MSG_VARIANT_MAX, 0, 0, 0, false},
    F_INT(FIELD_U32, "hash_mb", hello.hash_mb, 0, 1u << 20),
};

static const field_desc_t s_welcome[] = {
    F_INT(FIELD_U32, "heartbeat_ms", welcome.heartbeat_ms, 10, 3600000),
    F_INT(FIELD_U32, "liveness", welcome.liveness, 3, 5),
    F_INT(FIELD_U64, "job_id", welcome.job_id, 0, UINT64_MAX),
};

static const field_desc_t s_usage[] = {
    F_INT(FIELD_U64, "cpu_ms", usage.cpu_ms, 0, UINT64_MAX),
};

static const field_desc_t s_credit[] = {
    F_INT(FIELD_U32, "n", credit.n, 1, MSG_THREADS_MAX),
};

static const field_desc_t s_task[] = {
    F_INT(FIELD_U64, "task_id", task.task_id, 1, UINT64_MAX),
    F_INT(FIELD_U64, "job_id", task.job_id, 0, UINT64_MAX),
    F_STR("variant", task.variant, 1),
    F_STR("position", task.position, 1),
    F_INT(FIELD_U8, "depth", task.depth, 0, UINT8_MAX),
    F_BOOL("want_stats", task.want_stats),
    F_INT(FIELD_U32, "lease_ms", task.lease_ms, 1, UINT32_MAX),
};

static const field_desc_t s_result[] = {
    F_INT(FIELD_U64, "task_id", result.task_id, 1, UINT64_MAX),
    F_INT(FIELD_U64, "job_id", result.job_id, 0, UINT64_MAX),
    F_COUNT("nodes", result.nodes),
    {"stats", FIELD_STATS, OFF(result.stats), OFF(result.has_stats), 0, 0, 0, 0, 0, 0, false},
    F_INT(FIELD_U64, "elapsed_ms", result.elapsed_ms, 0, UINT64_MAX),
};

static const field_desc_t s_refuse[] = {
    F_INT(FIELD_U64, "task_id", refuse.task_id, 1, UINT64_MAX),
    F_INT(FIELD_U64, "job_id", refuse.job_id, 0, UINT64_MAX),
    F_INT(FIELD_U32, "code", refuse.code, 0, UINT32_MAX),
    F_STR("reason", refuse.reason, 0),
};

static const field_desc_t s_handback[] = {
    {"task_ids", FIELD_U64_LIST, OFF(handback.task_ids), OFF(handback.n_task_ids), 0, MSG_HANDBACK_MAX, 0,
     1, 0, 0, true},
};

static const field_desc_t s_bye[] = {
    F_STR("reason", bye.reason, 0),
};

static const field_desc_t s_error[] = {
    F_INT(FIELD_U32, "code", error.code, 0, UINT32_MAX),
    F_STR("text", error.text, 0),
};

/* OCTP/2 (section 11). */
#define F_TABLES(nm, member, count, lo, hi) \
    {nm, FIELD_TABLES, OFF(member), OFF(count), lo, hi, 0, 0, 0, 0, false}
#define F_TABLES_BULK(nm, member, count, lo, hi) \
    {nm, FIELD_TABLES, OFF(member), OFF(count), lo, hi, 0, 0, 0, 0, true}

static const field_desc_t s_solve[] = {
    F_INT(FIELD_U64, "task_id", solve.task_id, 1, UINT64_MAX),
    F_INT(FIELD_U64, "job_id", solve.job_id, 0, UINT64_MAX),
    F_STR("pair", solve.pair, 1),
    F_TABLES_BULK("needs", solve.needs, solve.n_needs, 0, MSG_NEEDS_MAX),
    F_STR("dir_id", solve.dir_id, 0),
    F_INT(FIELD_U32, "lease_ms", solve.lease_ms, 1, UINT32_MAX),
};

static const field_desc_t s_verify[] = {
    F_INT(FIELD_U64, "task_id", verify.task_id, 1, UINT64_MAX),
    F_INT(FIELD_U64, "job_id", verify.job_id, 0, UINT64_MAX),
    F_STR("pair", verify.pair, 1),
    F_TABLES("tables", verify.tables, verify.n_tables, 1, MSG_PAIR_TABLES_MAX),
    F_TABLES_BULK("needs", verify.needs, verify.n_needs, 0, MSG_NEEDS_MAX),
    F_STR("dir_id", verify.dir_id, 0),
    F_INT(FIELD_U32, "lease_ms", verify.lease_ms, 1, UINT32_MAX),
};

static const field_desc_t s_solved[] = {
    F_INT(FIELD_U64, "task_id", solved.task_id, 1, UINT64_MAX),
    F_INT(FIELD_U64, "job_id", solved.job_id, 0, UINT64_MAX),
    F_TABLES("tables", solved.tables, solved.n_tables, 1, MSG_PAIR_TABLES_MAX),
    F_INT(FIELD_U64, "positions", solved.positions, 0, UINT64_MAX),
    F_INT(FIELD_U64, "elapsed_ms", solved.elapsed_ms, 0, UINT64_MAX),
    F_BOOL("in_shared", solved.in_shared),
};

static const field_desc_t s_verified[] = {
    F_INT(FIELD_U64, "task_id", verified.task_id, 1, UINT64_MAX),
    F_INT(FIELD_U64, "job_id", verified.job_id, 0, UINT64_MAX),
    F_BOOL("ok", verified.ok),
    F_INT(FIELD_U64, "records", verified.records, 0, UINT64_MAX),
    F_INT(FIELD_U64, "failures", verified.failures, 0, UINT64_MAX),
    F_STR("first_error", verified.first_error, 0),
    F_INT(FIELD_U64, "elapsed_ms", verified.elapsed_ms, 0, UINT64_MAX),
};

static const field_desc_t s_fetch[] = {
    F_STR("table", fetch.table, 1),
    F_INT(FIELD_U64, "offset", fetch.offset, 0, UINT64_MAX),
    F_INT(FIELD_U32, "length", fetch.length, 1, MSG_CHUNK_MAX),
};

static const field_desc_t s_chunk[] = {
    F_STR("table", chunk.table, 1),
    F_INT(FIELD_U64, "offset", chunk.offset, 0, UINT64_MAX),
    F_INT(FIELD_U64, "size", chunk.size, 0, UINT64_MAX),
    {"data", FIELD_BIN, OFF(chunk.data), OFF(chunk.n_data), 0, MSG_CHUNK_MAX, 0, 0, 0, 0, true},
    F_INT(FIELD_U32, "crc", chunk.crc, 0, UINT32_MAX),
};

/* OCTP/3 (section 12). */
#define F_I32(nm, member, lo, hi) {nm, FIELD_I32, OFF(member), 0, 0, 0, 0, 0, lo, hi, false}
#define F_MOVES(nm, member, count, lo, hi) \
    {nm, FIELD_STR_LIST, OFF(member), OFF(count), lo, hi, MSG_MOVE_MAX, 0, 0, 0, true}

static const field_desc_t s_analyse[] = {
    F_INT(FIELD_U64, "task_id", analyse.task_id, 1, UINT64_MAX),
    F_INT(FIELD_U64, "job_id", analyse.job_id, 0, UINT64_MAX),
    F_STR("variant", analyse.variant, 1),
    F_STR("position", analyse.position, 1),
    F_MOVES("moves", analyse.moves, analyse.n_moves, 0, MSG_GAME_MOVES_MAX),
    F_STR("move", analyse.move, 1),
    F_INT(FIELD_U8, "depth", analyse.depth, 1, MSG_ANALYSE_DEPTH_MAX),
    F_INT(FIELD_U32, "hash_mb", analyse.hash_mb, 1, MSG_ANALYSE_HASH_MAX),
    F_INT(FIELD_U32, "lease_ms", analyse.lease_ms, 1, UINT32_MAX),
};

static const field_desc_t s_analysed[] = {
    F_INT(FIELD_U64, "task_id", analysed.task_id, 1, UINT64_MAX),
    F_INT(FIELD_U64, "job_id", analysed.job_id, 0, UINT64_MAX),
    F_STR("move", analysed.move, 1),
    F_I32("score", analysed.score, -MSG_SCORE_MAX, MSG_SCORE_MAX),
    F_INT(FIELD_U8, "bound", analysed.bound, MSG_BOUND_EXACT, MSG_BOUND_UPPER),
    F_MOVES("pv", analysed.pv, analysed.n_pv, 1, MSG_PV_MAX),
    F_INT(FIELD_U8, "seldepth", analysed.seldepth, 0, UINT8_MAX),
    F_INT(FIELD_U64, "nodes", analysed.nodes, 0, UINT64_MAX),
    F_INT(FIELD_U64, "elapsed_ms", analysed.elapsed_ms, 0, UINT64_MAX),
};

/* Every bulk field at its longest fits MSG_BULK_MAX with room to align it
 * (each message has one bulk field; tests/proto/test_proto_bulk.c decodes
 * every maximal sample into exactly MSG_BULK_MAX bytes). */
_Static_assert(MSG_CHUNK_MAX + 8 <= MSG_BULK_MAX, "CHUNK data");
_Static_assert(MSG_HANDBACK_MAX * sizeof(uint64_t) + 8 <= MSG_BULK_MAX, "HANDBACK task_ids");
_Static_assert(MSG_NEEDS_MAX * sizeof(msg_tableref_t) + 8 <= MSG_BULK_MAX, "SOLVE/VERIFY needs");
_Static_assert(MSG_GAME_MOVES_MAX * sizeof(msg_move_t) + 8 <= MSG_BULK_MAX, "ANALYSE moves");
_Static_assert(MSG_PV_MAX * sizeof(msg_move_t) + 8 <= MSG_BULK_MAX, "ANALYSED pv");

size_t msg_field_elem_size(const field_desc_t *f)
{
    switch (f->kind) {
    case FIELD_STR_LIST: return f->cap;
    case FIELD_U64_LIST: return sizeof(uint64_t);
    case FIELD_TABLES: return sizeof(msg_tableref_t);
    default: return 1;
    }
}

const void *msg_field_elems(const msg_t *msg, const field_desc_t *f)
{
    const char *at = (const char *)msg + f->offset;
    if (!f->bulk)
        return at;
    const void *p;
    memcpy(&p, at, sizeof p);
    return p;
}

const size_t msg_stats_offsets[MSG_STATS_NB] = {
    offsetof(perft_stats_t, nodes),
    offsetof(perft_stats_t, captures),
    offsetof(perft_stats_t, en_passant),
    offsetof(perft_stats_t, castles),
    offsetof(perft_stats_t, castle_kind[CASTLE_NEAR]),
    offsetof(perft_stats_t, castle_kind[CASTLE_CENTER]),
    offsetof(perft_stats_t, castle_kind[CASTLE_FAR]),
    offsetof(perft_stats_t, promotions),
    offsetof(perft_stats_t, checks),
    offsetof(perft_stats_t, mates),
    offsetof(perft_stats_t, discovered_checks),
    offsetof(perft_stats_t, double_checks),
    offsetof(perft_stats_t, stalemates),
};

#define ROW(nm, who, fields) {nm, who, fields, sizeof(fields) / sizeof(fields[0]), 1}
#define ROW2(nm, who, fields) {nm, who, fields, sizeof(fields) / sizeof(fields[0]), 2}
#define ROW3(nm, who, fields) {nm, who, fields, sizeof(fields) / sizeof(fields[0]), 3}
#define ROW4(nm, who, fields) {nm, who, fields, sizeof(fields) / sizeof(fields[0]), 4}

static const msg_desc_t s_table[MSG_TYPE_NB] = {
    [MSG_NONE] = {"NONE", 0, NULL, 0, 0},
    [MSG_HELLO] = ROW("HELLO", FROM_W, s_hello),
    [MSG_WELCOME] = ROW("WELCOME", FROM_C, s_welcome),
    [MSG_CREDIT] = ROW("CREDIT", FROM_W, s_credit),
    [MSG_TASK] = ROW("TASK", FROM_C, s_task),
    [MSG_RESULT] = ROW("RESULT", FROM_W, s_result),
    [MSG_REFUSE] = ROW("REFUSE", FROM_W, s_refuse),
    [MSG_HANDBACK] = ROW("HANDBACK", FROM_W, s_handback),
    [MSG_HEARTBEAT] = {"HEARTBEAT", FROM_W | FROM_C, NULL, 0, 1},
    [MSG_BYE] = ROW("BYE", FROM_W | FROM_C, s_bye),
    [MSG_ERROR] = ROW("ERROR", FROM_W | FROM_C, s_error),
    [MSG_SOLVE] = ROW2("SOLVE", FROM_C, s_solve),
    [MSG_VERIFY] = ROW2("VERIFY", FROM_C, s_verify),
    [MSG_SOLVED] = ROW2("SOLVED", FROM_W, s_solved),
    [MSG_VERIFIED] = ROW2("VERIFIED", FROM_W, s_verified),
    [MSG_FETCH] = ROW2("FETCH", FROM_W | FROM_C, s_fetch),
    [MSG_CHUNK] = ROW2("CHUNK", FROM_W | FROM_C, s_chunk),
    [MSG_ANALYSE] = ROW3("ANALYSE", FROM_C, s_analyse),
    [MSG_ANALYSED] = ROW3("ANALYSED", FROM_W, s_analysed),
    [MSG_USAGE] = ROW4("USAGE", FROM_W, s_usage),
};

const msg_desc_t *msg_table_get(msg_type_t type)
{
    if ((int)type <= (int)MSG_NONE || (int)type >= (int)MSG_TYPE_NB)
        return NULL;
    return &s_table[type];
}

msg_type_t msg_table_find(const char *name, size_t len)
{
    for (int t = MSG_NONE + 1; t < MSG_TYPE_NB; t++) {
        const char *n = s_table[t].name;
        if (strlen(n) == len && memcmp(n, name, len) == 0)
            return (msg_type_t)t;
    }
    return MSG_NONE;
}

const char *msg_type_name(msg_type_t type)
{
    const msg_desc_t *d = msg_table_get(type);
    return d ? d->name : "NONE";
}

unsigned msg_type_senders(msg_type_t type)
{
    const msg_desc_t *d = msg_table_get(type);
    return d ? d->senders : 0;
}

uint32_t msg_type_version(msg_type_t type)
{
    const msg_desc_t *d = msg_table_get(type);
    return d ? d->since : MSG_PROTOCOL_VERSION;
}

void msg_init(msg_t *msg, msg_type_t type)
{
    memset(msg, 0, sizeof(*msg));
    msg->type = type;
    msg->version = msg_type_version(type);
}

