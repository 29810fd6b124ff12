/* whello.c: the worker's HELLO and its protocol-version negotiation (see whello.h). */
#include "whello.h"

#include <stdio.h>

#include "game.h"

void whello_hello(msg_t *m, uint32_t version, const char *name, uint32_t capacity, uint32_t hash_mb)
{
    msg_init(m, MSG_HELLO);
    m->version = version;
    snprintf(m->u.hello.name, sizeof m->u.hello.name, "%s", name);
    m->u.hello.threads = capacity;
    m->u.hello.n_variants = VARIANT_NB;
    for (int v = 0; v < VARIANT_NB; v++)
        snprintf(m->u.hello.variants[v], MSG_VARIANT_MAX, "%s", game_variant_name((variant_t)v));
    m->u.hello.hash_mb = hash_mb;
}

void whello_stamp(msg_t *m, uint32_t session_version)
{
    if (m->version < session_version)
        m->version = session_version;
}

uint32_t whello_fallback(uint32_t version, bool hello_pending)
{
    return hello_pending && version > 1 ? version - 1 : 0;
}

void whello_version_error(msg_t *m, uint32_t version)
{
    msg_init(m, MSG_ERROR);
    m->u.error.code = MSG_CODE_VERSION;
    snprintf(m->u.error.text, sizeof m->u.error.text, "this worker speaks OCTP/%d to OCTP/%u", MSG_VERSION_MIN,
             version);
}
