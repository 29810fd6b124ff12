/* msg_samples.c: valid example messages of every type (typical, minimal, maximal), for tests and the fuzz corpus. */
#include "msg_samples.h"

#include <string.h>

/* Fills a buffer of cap bytes with cap-1 copies of c. */
static void s_fill(char *s, size_t cap, char c)
{
    memset(s, c, cap - 1);
    s[cap - 1] = '\0';
}

static count_t s_count(int which, uint64_t small)
{
    if (which == 2)
        return ~(count_t)0;
    if (which == 1)
        return 0;
    return ((count_t)small << 64) | 0x0123456789abcdefu; /* above 2^64 */
}

static void s_hello(msg_hello_t *m, int which)
{
    if (which == 2) {
        s_fill(m->name, sizeof(m->name), 'w');
        m->threads = MSG_THREADS_MAX;
        m->n_variants = MSG_VARIANTS_MAX;
        for (int i = 0; i < MSG_VARIANTS_MAX; i++)
            s_fill(m->variants[i], MSG_VARIANT_MAX, (char)('a' + i));
        m->hash_mb = 1u << 20;
        return;
    }
    strcpy(m->name, which == 1 ? "w" : "node-3/pid 4242");
    m->threads = which == 1 ? 1 : 2;
    m->n_variants = which == 1 ? 1 : 3;
    strcpy(m->variants[0], "octad");
    strcpy(m->variants[1], "chess");
    strcpy(m->variants[2], "chess960");
    if (which == 1)
        memset(m->variants[1], 0, 2 * MSG_VARIANT_MAX);
    m->hash_mb = which == 1 ? 0 : 256;
}

static void s_task(msg_task_t *m, int which)
{
    m->task_id = which == 2 ? UINT64_MAX : which == 1 ? 1 : 17;
    m->job_id = which == 2 ? UINT64_MAX : which == 1 ? 0 : 3;
    if (which == 2) {
        s_fill(m->variant, sizeof(m->variant), 'v');
        s_fill(m->position, sizeof(m->position), 'p');
    } else {
        strcpy(m->variant, which == 1 ? "c" : "octad");
        strcpy(m->position, which == 1 ? "8" : "ppkn/4/4/NKPP w NCFncf - 0 1");
    }
    m->depth = which == 2 ? UINT8_MAX : which == 1 ? 0 : 5;
    m->want_stats = which != 1;
    m->lease_ms = which == 2 ? UINT32_MAX : which == 1 ? 1 : 60000;
}

static void s_result(msg_result_t *m, int which)
{
    m->task_id = which == 2 ? UINT64_MAX : which == 1 ? 1 : 17;
    m->job_id = which == 2 ? UINT64_MAX : 3;
    m->nodes = s_count(which, 7);
    m->has_stats = which != 1;
    if (m->has_stats) {
        m->stats.nodes = m->nodes;
        m->stats.captures = s_count(which, 1);
        m->stats.en_passant = which == 2 ? ~(count_t)0 : 5;
        m->stats.castles = 6;
        for (int k = 0; k < CASTLE_KIND_NB; k++)
            m->stats.castle_kind[k] = (count_t)(k + 1) << (60 + k);
        m->stats.promotions = (count_t)1 << 64;
        m->stats.checks = ((count_t)1 << 64) - 1;
        m->stats.mates = s_count(which, 9);
        m->stats.discovered_checks = 7;
        m->stats.double_checks = (count_t)3 << 70;
        m->stats.stalemates = s_count(which, 12);
    }
    m->elapsed_ms = which == 2 ? UINT64_MAX : which == 1 ? 0 : 1234;
}

static void s_texts(msg_t *out, int which)
{
    char *text = out->type == MSG_REFUSE ? out->u.refuse.reason
                 : out->type == MSG_BYE  ? out->u.bye.reason
                                         : out->u.error.text;
    if (which == 2)
        s_fill(text, MSG_TEXT_MAX, 'x');
    else if (which == 0)
        strcpy(text, "unknown variant \"xiangqi\"");
    uint32_t code = which == 2 ? UINT32_MAX : which == 1 ? 0 : MSG_CODE_VARIANT;
    if (out->type == MSG_REFUSE) {
        out->u.refuse.task_id = which == 2 ? UINT64_MAX : 1 + (uint64_t)which;
        out->u.refuse.job_id = which == 2 ? UINT64_MAX : 3;
        out->u.refuse.code = code;
    } else if (out->type == MSG_ERROR) {
        out->u.error.code = code;
    }
}

/* OCTP/2: n table references, typical ("KQvK"...), or at their limits. */
static uint32_t s_tables(msg_tableref_t *t, uint32_t n, int which)
{
    static const char *const names[] = {"KQvK", "KRvK", "KPvK", "KNPvK"};
    for (uint32_t i = 0; i < n; i++) {
        if (which == 2)
            s_fill(t[i].name, sizeof t[i].name, (char)('A' + i % 26));
        else
            strcpy(t[i].name, which == 1 ? "K" : names[i % 4]);
        t[i].size = which == 2 ? UINT64_MAX : which == 1 ? 0 : 4096 + 128 * i;
        t[i].crc = which == 2 ? UINT32_MAX : which == 1 ? 0 : 0x9e3779b9u ^ i;
    }
    return n;
}

static void s_solve_like(msg_t *out, int which, msg_tableref_t *needs_store)
{
    uint64_t id = which == 2 ? UINT64_MAX : which == 1 ? 1 : 42;
    uint32_t needs = which == 2 ? MSG_NEEDS_MAX : which == 1 ? 0 : 3;
    const char *pair = which == 1 ? "K" : "KQvKR";
    if (out->type == MSG_SOLVE) {
        msg_solve_t *m = &out->u.solve;
        m->task_id = id, m->job_id = which == 1 ? 0 : id;
        which == 2 ? s_fill(m->pair, sizeof m->pair, 'P') : (void)strcpy(m->pair, pair);
        m->n_needs = s_tables(needs_store, needs, which);
        m->needs = needs_store;
        which == 2 ? s_fill(m->dir_id, sizeof m->dir_id, 'd') : (void)strcpy(m->dir_id, which ? "" : "5f3a9c01");
        m->lease_ms = which == 2 ? UINT32_MAX : which == 1 ? 1 : 60000;
    } else {
        msg_verify_t *m = &out->u.verify;
        m->task_id = id, m->job_id = which == 1 ? 0 : id;
        which == 2 ? s_fill(m->pair, sizeof m->pair, 'P') : (void)strcpy(m->pair, pair);
        m->n_tables = s_tables(m->tables, which == 1 ? 1 : 2, which);
        m->n_needs = s_tables(needs_store, needs, which);
        m->needs = needs_store;
        which == 2 ? s_fill(m->dir_id, sizeof m->dir_id, 'd') : (void)strcpy(m->dir_id, which ? "" : "5f3a9c01");
        m->lease_ms = which == 2 ? UINT32_MAX : which == 1 ? 1 : 60000;
    }
}

static void s_answers(msg_t *out, int which)
{
    uint64_t big = which == 2 ? UINT64_MAX : which == 1 ? 0 : 123456;
    if (out->type == MSG_SOLVED) {
        msg_solved_t *m = &out->u.solved;
        m->task_id = which == 1 ? 1 : big, m->job_id = big;
        m->n_tables = s_tables(m->tables, which == 1 ? 1 : 2, which);
        m->positions = big, m->elapsed_ms = big;
        m->in_shared = which == 2;
    } else {
        msg_verified_t *m = &out->u.verified;
        m->task_id = which == 1 ? 1 : big, m->job_id = big;
        m->ok = which != 0, m->records = big, m->failures = which == 0 ? 1 : big;
        if (which == 2)
            s_fill(m->first_error, sizeof m->first_error, 'e');
        else if (which == 0)
            strcpy(m->first_error, "KQvK slot 17: a win without a move to a loss");
        m->elapsed_ms = big;
    }
}

static void s_transfer(msg_t *out, int which, uint8_t *data)
{
    char *table = out->type == MSG_FETCH ? out->u.fetch.table : out->u.chunk.table;
    if (which == 2)
        s_fill(table, MSG_TABLE_NAME_MAX, 'T');
    else
        strcpy(table, which == 1 ? "K" : "KQvK");
    uint64_t off = which == 2 ? UINT64_MAX : which == 1 ? 0 : 65536;
    if (out->type == MSG_FETCH) {
        out->u.fetch.offset = off;
        out->u.fetch.length = which == 2 ? MSG_CHUNK_MAX : which == 1 ? 1 : 16384;
        return;
    }
    msg_chunk_t *c = &out->u.chunk;
    c->offset = off;
    c->size = which == 2 ? UINT64_MAX : which == 1 ? 0 : 70000;
    c->n_data = which == 2 ? MSG_CHUNK_MAX : which == 1 ? 0 : 300;
    for (uint32_t i = 0; i < c->n_data; i++)
        data[i] = (uint8_t)(i * 7 + 3);
    c->data = data;
    c->crc = which == 2 ? UINT32_MAX : which == 1 ? 0 : 0xdeadbeefu;
}

/* OCTP/3: a move list of n entries (which 2: 7-byte texts). */
static uint32_t s_moves(msg_move_t *moves, uint32_t n, int which)
{
    static const char *const line[] = {"e2e4", "e7e5", "g1f3", "b8c6"};
    for (uint32_t i = 0; i < n; i++) {
        if (which == 2)
            s_fill(moves[i], MSG_MOVE_MAX, (char)('a' + i % 8));
        else
            strcpy(moves[i], line[i % 4]);
    }
    return n;
}

static void s_analysis(msg_t *out, int which, msg_move_t *moves)
{
    uint64_t big = which == 2 ? UINT64_MAX : which == 1 ? 0 : 9876;
    if (out->type == MSG_ANALYSE) {
        msg_analyse_t *m = &out->u.analyse;
        m->task_id = which == 1 ? 1 : big, m->job_id = big;
        which == 2 ? s_fill(m->variant, sizeof m->variant, 'v') : (void)strcpy(m->variant, which ? "octad" : "chess");
        if (which == 2)
            s_fill(m->position, sizeof m->position, 'p');
        else
            strcpy(m->position, which ? "ppkn/4/4/NKPP w NCFncf - 0 1"
                                      : "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        m->n_moves = s_moves(moves, which == 2 ? MSG_GAME_MOVES_MAX : which == 1 ? 0 : 2, which);
        m->moves = moves;
        which == 2 ? s_fill(m->move, sizeof m->move, 'm') : (void)strcpy(m->move, which ? "b1c2" : "g1f3");
        m->depth = which == 2 ? MSG_ANALYSE_DEPTH_MAX : which == 1 ? 1 : 8;
        m->hash_mb = which == 2 ? MSG_ANALYSE_HASH_MAX : which == 1 ? 1 : 64;
        m->lease_ms = which == 2 ? UINT32_MAX : which == 1 ? 1 : 60000;
        return;
    }
    msg_analysed_t *m = &out->u.analysed;
    m->task_id = which == 1 ? 1 : big, m->job_id = big;
    m->n_pv = s_moves(moves, which == 2 ? MSG_PV_MAX : which == 1 ? 1 : 3, which);
    m->pv = moves;
    strcpy(m->move, moves[0]);
    m->score = which == 2 ? MSG_SCORE_MAX : which == 1 ? -MSG_SCORE_MAX : -37;
    m->bound = which == 2 ? MSG_BOUND_UPPER : MSG_BOUND_EXACT;
    m->seldepth = which == 2 ? UINT8_MAX : which == 1 ? 0 : 14;
    m->nodes = big, m->elapsed_ms = big;
}

void msg_sample(msg_type_t type, int which, msg_t *out, msg_bulk_store_t *store)
{
    msg_init(out, type);
    memset(store->bytes, 0, sizeof store->bytes);
    void *bulk = store->bytes;
    switch (type) {
    case MSG_HELLO: s_hello(&out->u.hello, which); break;
    case MSG_WELCOME:
        out->u.welcome.heartbeat_ms = which == 2 ? 3600000 : which == 1 ? 10 : 1000;
        out->u.welcome.liveness = which == 2 ? 5 : 3;
        out->u.welcome.job_id = which == 2 ? UINT64_MAX : which == 1 ? 0 : 3;
        break;
    case MSG_CREDIT: out->u.credit.n = which == 2 ? MSG_THREADS_MAX : which == 1 ? 1 : 4; break;
    case MSG_TASK: s_task(&out->u.task, which); break;
    case MSG_RESULT: s_result(&out->u.result, which); break;
    case MSG_HANDBACK: {
        uint64_t *ids = bulk;
        out->u.handback.n_task_ids = which == 2 ? MSG_HANDBACK_MAX : which == 1 ? 0 : 3;
        for (uint32_t i = 0; i < out->u.handback.n_task_ids; i++)
            ids[i] = which == 2 ? UINT64_MAX - i : 100 + i;
        out->u.handback.task_ids = ids;
        break;
    }
    case MSG_REFUSE:
    case MSG_BYE:
    case MSG_ERROR: s_texts(out, which); break;
    case MSG_SOLVE:
    case MSG_VERIFY: s_solve_like(out, which, bulk); break;
    case MSG_SOLVED:
    case MSG_VERIFIED: s_answers(out, which); break;
    case MSG_FETCH:
    case MSG_CHUNK: s_transfer(out, which, bulk); break;
    case MSG_ANALYSE:
    case MSG_ANALYSED: s_analysis(out, which, bulk); break;
    case MSG_USAGE: out->u.usage.cpu_ms = which == 2 ? UINT64_MAX : which == 1 ? 0 : 1234; break;
    default: break;
    }
}
