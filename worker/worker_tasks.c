/* worker_tasks.c: the worker's task intake on its I/O thread: credit asked, tasks checked and
 * handed to the compute threads (after a kind's phase before it runs), or refused (see
 * worker_priv.h). */
#include <stdio.h>
#include <stdlib.h>

#include "log_line.h"
#include "worker_priv.h"

/* Asks for tasks until every slot (thread or prefetch) is busy or promised; nothing while
 * an exclusive task is held, queued or running (it takes every thread). */
void worker_top_up(s_worker_t *w)
{
    if (w->state != S_ACTIVE || w->holding || compute_exclusive(w->compute))
        return;
    long busy = (long)compute_busy(w->compute) + (long)w->credit_out;
    long free_nb = (long)w->capacity - busy;
    if (free_nb <= 0)
        return;
    msg_t m;
    msg_init(&m, MSG_CREDIT);
    m.u.credit.n = (uint32_t)free_nb;
    worker_send(w, &m);
    w->credit_out += (size_t)free_nb;
}

void worker_refuse(s_worker_t *w, uint64_t task_id, uint64_t job_id, msg_code_t code, const char *reason)
{
    msg_t m;
    msg_init(&m, MSG_REFUSE);
    wstatus_refused(w->status);
    m.u.refuse.task_id = task_id;
    m.u.refuse.job_id = job_id;
    m.u.refuse.code = code;
    snprintf(m.u.refuse.reason, sizeof m.u.refuse.reason, "%s", reason);
    char text[MSG_TEXT_MAX];
    worker_log(w, true, "refused task %llu: %s", (unsigned long long)task_id, log_clean(reason, text, sizeof text));
    worker_send(w, &m);
}

/* A prepared task after its phase before it runs (code: fetch's or message's): held
 * (WKIND_HOLD), handed to the compute threads (0), or refused with its code. */
static void s_go(s_worker_t *w, compute_job_t *job, int code, char *reason, size_t len)
{
    if (code == WKIND_HOLD) {
        w->held = *job;
        w->holding = true;
        return;
    }
    int rc = code == 0 ? compute_submit(w->compute, job) : 0;
    if (rc != 0) {
        code = rc == -2 ? MSG_CODE_NO_CREDIT : MSG_CODE_INTERNAL;
        snprintf(reason, len, "%s", rc == -2 ? "an exclusive task holds every thread" : "out of memory");
    }
    if (code != 0) {
        free(job->arg);
        worker_refuse(w, job->task_id, job->job_id, (msg_code_t)code, reason);
    }
}

/* Checks a task of a pool kind (wkind.h) and hands it to the compute threads, after its
 * phase before it runs if the kind has one, or refuses it: beyond the credit given, while
 * an exclusive task is held or in the pool (it takes no other task), or what the kind's
 * prepare refuses. Either way the task used its credit. */
static void s_on_task(s_worker_t *w, const wkind_t *kind, const msg_t *m)
{
    char reason[MSG_TEXT_MAX];
    compute_job_t job = {.kind = kind, .gen = w->gen};
    void *state = w->kind_state[wkind_index(kind)];
    int code = kind->prepare(state, m, w->opts->delay_ms, &job, reason, sizeof reason); /* the ids, also to refuse */
    if (w->credit_out == 0) {
        code = MSG_CODE_NO_CREDIT;
        snprintf(reason, sizeof reason, "task beyond the credit given");
    } else {
        w->credit_out--;
        if (code == 0 && (w->holding || compute_exclusive(w->compute))) {
            code = MSG_CODE_NO_CREDIT;
            snprintf(reason, sizeof reason, "an exclusive task holds every thread");
        }
    }
    if (code == 0 && kind->fetch)
        code = kind->fetch(state, &job, reason, sizeof reason);
    s_go(w, &job, code, reason, sizeof reason);
}

/* One of a kind's other messages (wkind_t.others), which may make its held task ready or refuse it. */
static void s_on_other(s_worker_t *w, const wkind_t *kind, const msg_t *m)
{
    char reason[MSG_TEXT_MAX];
    bool mine = w->holding && w->held.kind == kind;
    int code = kind->message(w->kind_state[wkind_index(kind)], m, mine ? &w->held : NULL, reason, sizeof reason);
    if (mine && code != WKIND_HOLD) {
        w->holding = false;
        s_go(w, &w->held, code, reason, sizeof reason);
    }
}

/* A message of a pool kind: a task, or one of its others. */
void worker_on_kind_message(s_worker_t *w, const wkind_t *kind, bool task, const msg_t *m)
{
    if (w->state != S_ACTIVE || w->version < kind->version) {
        w->unexpected_nb++;
        return;
    }
    if (task)
        s_on_task(w, kind, m);
    else
        s_on_other(w, kind, m);
}
