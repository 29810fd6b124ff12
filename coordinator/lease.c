/* lease.c: the life cycle's rules for late answers and refusals (see lease.h). */
#include "lease.h"

#include <string.h>

void lease_expired(lease_memory_t *m, uint32_t serial, uint64_t task_id)
{
    if (m->late_nb == LEASE_LATE_MAX) { /* the oldest is forgotten */
        memmove(&m->late[0], &m->late[1], sizeof m->late[0] * (LEASE_LATE_MAX - 1));
        m->late_nb--;
    }
    m->late[m->late_nb++] = (lease_late_t){serial, task_id};
}

static int s_late_at(const lease_memory_t *m, uint32_t serial, uint64_t task_id)
{
    for (int k = 0; k < m->late_nb; k++)
        if (m->late[k].serial == serial && m->late[k].task_id == task_id)
            return k;
    return -1;
}

bool lease_is_late(const lease_memory_t *m, uint32_t serial, uint64_t task_id)
{
    return s_late_at(m, serial, task_id) >= 0;
}

bool lease_take_late(lease_memory_t *m, uint32_t serial, uint64_t task_id)
{
    int k = s_late_at(m, serial, task_id);
    if (k < 0)
        return false;
    m->late[k] = m->late[--m->late_nb];
    return true;
}

void lease_done(lease_memory_t *m)
{
    m->late_nb = 0;
}

bool lease_allowed(const lease_memory_t *m, uint16_t who)
{
    for (int k = 0; k < m->refusers_nb; k++)
        if (m->refusers[k] == who)
            return false;
    return true;
}

bool lease_copy_wanted(int leases, int answers, int queued, int want)
{
    return leases > 0 && queued == 0 && leases + answers <= want;
}

int lease_refused(lease_memory_t *m, uint16_t who)
{
    if (!lease_allowed(m, who))
        return m->refusers_nb;
    if (m->refusers_nb == LEASE_REFUSERS_MAX) { /* the oldest is forgotten */
        memmove(&m->refusers[0], &m->refusers[1], sizeof m->refusers[0] * (LEASE_REFUSERS_MAX - 1));
        m->refusers_nb--;
    }
    m->refusers[m->refusers_nb++] = who;
    return m->refusers_nb;
}
