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

void msg_sample(msg_type_t type, int which, msg_t *out)
{
    msg_init(out, type);
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
    case MSG_HANDBACK:
        out->u.handback.n_task_ids = which == 2 ? MSG_HANDBACK_MAX : which == 1 ? 0 : 3;
        for (uint32_t i = 0; i < out->u.handback.n_task_ids; i++)
            out->u.handback.task_ids[i] = which == 2 ? UINT64_MAX - i : 100 + i;
        break;
    case MSG_REFUSE:
    case MSG_BYE:
    case MSG_ERROR: s_texts(out, which); break;
    default: break;
    }
}
