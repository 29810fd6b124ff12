/* worker_io.c: what every file of the worker's I/O thread uses: the clock, log lines and sending
 * a message (see worker_priv.h). */
#include <stdarg.h>
#include <time.h>
#include <zmq.h>

#include "log_line.h"
#include "whello.h"
#include "wire.h"
#include "worker_priv.h"

int64_t worker_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void worker_log(const s_worker_t *w, bool always, const char *fmt, ...)
{
    if (w->opts->quiet && !always)
        return;
    va_list ap;
    va_start(ap, fmt);
    /* One write per line: processes sharing a terminal never interleave. What is logged even
     * under --quiet is what goes wrong. */
    log_vwrite(always ? LOG_ERROR : LOG_INFO, w->opts->name, NULL, 0, fmt, ap);
    va_end(ap);
}

void worker_send(s_worker_t *w, msg_t *msg)
{
    char err[256];
    if (w->sock == NULL)
        return;
    whello_stamp(msg, w->version);
    if (wire_send(w->sock, msg, ZMQ_DONTWAIT, err, sizeof err) != MSG_OK) {
        worker_log(w, false, "cannot send %s: %s", msg_type_name(msg->type), err);
        return;
    }
    w->last_send = worker_now();
}
