/* main.c: the `swarm` tool: many worker sessions in one process against one coordinator, to
 * measure the coordinator at a thousand workers and more (docs/swarm.md). Options, the
 * threads (each owns every Tth session and polls them), the vanishing share, the summary. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <zmq.h>

#include "exit_codes.h"
#include "opt.h"
#include "session.h"
#include "stop_signal.h"

typedef struct {
    const char *endpoint;
    int sessions;
    int threads;
    const char *prefix;
    int vanish_after_ms;    /* 0: nobody vanishes */
    double vanish_fraction;
    bool json;
} s_opts_t;

#define O(field) OPT_AT(s_opts_t, field)
static const opt_t s_rows[] = {
    {"--connect", 0, OPT_TEXT, "ENDPOINT", O(endpoint), "the coordinator, e.g. tcp://127.0.0.1:5555 (required)"},
    {"--sessions", 0, OPT_INT, "N", O(sessions), "worker sessions, each its own socket and identity (default 100)",
     .lo = 1, .hi = 100000},
    {"--threads", 0, OPT_INT, "T", O(threads), "threads polling the sessions and computing their tasks (default 1)",
     .lo = 1, .hi = 256},
    {"--name-prefix", 0, OPT_TEXT, "P", O(prefix), "session names are P-0, P-1, ... (default swarm)"},
    {"--vanish-after", 0, OPT_INT, "MS", O(vanish_after_ms), "MS after the start, --vanish-fraction of the sessions go\n"
     "silent at once, their sockets left open (default 0: none)", .lo = 0, .hi = 86400000},
    {"--vanish-fraction", 0, OPT_DOUBLE, "F", O(vanish_fraction), "the share that vanishes (0..1, default 0.3)",
     .dlo = 0, .dhi = 1},
    {"--json", 0, OPT_FLAG, NULL, O(json), "print the summary as one JSON object"},
};
#undef O

static const opt_spec_t s_spec = {
    .prog = "swarm",
    .usage = "usage: swarm --connect ENDPOINT [options]\n"
             "Runs many worker sessions in one process, each with its own ZeroMQ socket and identity,\n"
             "answering a perft job's tasks for real (computed here, one task in flight per session).\n\n",
    .epilogue = "\nEnds when every session not vanished has its BYE or is lost (no WELCOME within 30 s, or\n"
                "the coordinator silent for 10 s or twice its liveness), or on SIGTERM/SIGINT.\n"
                "Exit status 0, 1 failure (a session refused, lost or ended by an error), 2 bad usage.\n",
    .rows = s_rows,
    .row_nb = sizeof s_rows / sizeof s_rows[0],
};

typedef struct {
    const s_opts_t *opts;
    session_t *sessions; /* all of them; this thread owns index first, first + step, ... */
    int first, step;
    int stop_fd;
    int64_t vanish_at;   /* ms, CLOCK_MONOTONIC; 0: never */
    int vanish_nb;       /* sessions 0 .. vanish_nb - 1 vanish */
} s_thread_t;

static atomic_bool s_stop;

static bool s_live(const session_t *s)
{
    return s->state == SESSION_HELLO || s->state == SESSION_ACTIVE;
}

static void *s_thread(void *arg)
{
    s_thread_t *t = arg;
    int own = (t->opts->sessions - t->first + t->step - 1) / t->step;
    zmq_pollitem_t *items = calloc((size_t)own + 1, sizeof *items);
    int *index = calloc((size_t)own + 1, sizeof *index);
    bool vanished = t->vanish_at == 0;
    if (items == NULL || index == NULL) {
        fprintf(stderr, "swarm: out of memory\n");
        atomic_store(&s_stop, true);
    }
    while (!atomic_load(&s_stop)) {
        int64_t now = session_now(), wait = INT64_MAX;
        int n = 1;
        items[0] = (zmq_pollitem_t){.fd = t->stop_fd, .events = ZMQ_POLLIN}; /* never read: every thread sees it */
        for (int i = t->first; i < t->opts->sessions; i += t->step) {
            session_t *s = &t->sessions[i];
            int64_t next = s_live(s) ? session_tick(s, now) : INT64_MAX;
            if (!s_live(s))
                continue; /* ended, or lost by that tick */
            wait = next < wait ? next : wait;
            index[n] = i;
            items[n++] = (zmq_pollitem_t){.socket = s->sock, .events = ZMQ_POLLIN};
        }
        if (n == 1)
            break; /* every session of this thread ended or vanished */
        if (!vanished)
            wait = t->vanish_at - now < wait ? (t->vanish_at > now ? t->vanish_at - now : 0) : wait;
        if (zmq_poll(items, n, wait == INT64_MAX ? -1 : (long)wait) < 0 && errno != EINTR) {
            fprintf(stderr, "swarm: zmq_poll: %s\n", zmq_strerror(errno));
            atomic_store(&s_stop, true);
            break;
        }
        if (items[0].revents & ZMQ_POLLIN) {
            atomic_store(&s_stop, true);
            break;
        }
        for (int k = 1; k < n; k++)
            if (items[k].revents & ZMQ_POLLIN)
                session_read(&t->sessions[index[k]]);
        if (!vanished && session_now() >= t->vanish_at) {
            for (int i = t->first; i < t->vanish_nb; i += t->step)
                session_vanish(&t->sessions[i]);
            vanished = true;
            if (t->first == 0) /* the moment a measurement of the requeue starts from (the others vanish with it) */
                fprintf(stderr, "swarm: %d of %d sessions vanish now\n", t->vanish_nb, t->opts->sessions);
        }
    }
    free(items);
    free(index);
    return NULL;
}

/* About two descriptors a session (its TCP connection and its socket's mailbox): raises the
 * soft limit to the hard one if need be. Returns 0, or -1 with the problem in err. */
static int s_fd_room(int sessions, char *err, size_t errlen)
{
    struct rlimit rl;
    rlim_t need = (rlim_t)sessions * 2 + 64;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= need)
        return 0;
    if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need) {
        snprintf(err, errlen, "--sessions %d needs about %llu file descriptors; the hard limit (ulimit -Hn) is %llu",
                 sessions, (unsigned long long)need, (unsigned long long)rl.rlim_max);
        return -1;
    }
    rl.rlim_cur = need;
    if (setrlimit(RLIMIT_NOFILE, &rl) != 0) {
        snprintf(err, errlen, "setrlimit(RLIMIT_NOFILE, %llu): %s", (unsigned long long)need, strerror(errno));
        return -1;
    }
    return 0;
}

static void s_summary(const s_opts_t *o, const session_t *ss, double seconds)
{
    unsigned long long welcomed = 0, answered = 0, refused = 0, dropped = 0, ended = 0, vanished = 0, lost = 0;
    for (int i = 0; i < o->sessions; i++) {
        welcomed += ss[i].welcomed;
        answered += ss[i].answered;
        refused += ss[i].refused;
        dropped += ss[i].dropped;
        ended += ss[i].state == SESSION_ENDED;
        vanished += ss[i].state == SESSION_VANISHED;
        lost += ss[i].lost;
    }
    if (o->json)
        printf("{\"sessions\":%d,\"welcomed\":%llu,\"answered\":%llu,\"refused\":%llu,\"dropped\":%llu,"
               "\"ended\":%llu,\"lost\":%llu,\"vanished\":%llu,\"seconds\":%.3f}\n",
               o->sessions, welcomed, answered, refused, dropped, ended, lost, vanished, seconds);
    else
        printf("sessions %d: %llu welcomed, %llu tasks answered, %llu refused, %llu messages dropped, %llu ended "
               "(%llu lost), %llu vanished, in %.3f s\n", o->sessions, welcomed, answered, refused, dropped, ended, lost,
               vanished, seconds);
}

static double s_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    s_opts_t o = {.sessions = 100, .threads = 1, .prefix = "swarm", .vanish_fraction = 0.3};
    char err[256];
    int rc = opt_parse(&s_spec, argc - 1, argv + 1, &o);
    if (rc != 0)
        return rc < 0 ? EXIT_OK : rc;
    if (o.endpoint == NULL)
        return opt_usage("swarm", "--connect ENDPOINT is required");
    if (strlen(o.prefix) > MSG_NAME_MAX - 8)
        return opt_usage("swarm", "--name-prefix: at most %d bytes", MSG_NAME_MAX - 8);
    if (s_fd_room(o.sessions, err, sizeof err) != 0) {
        fprintf(stderr, "swarm: %s\n", err);
        return EXIT_FAIL;
    }
    int stop_fd = stop_signal_open();
    void *ctx = zmq_ctx_new();
    session_t *ss = calloc((size_t)o.sessions, sizeof *ss);
    s_thread_t *ts = calloc((size_t)o.threads, sizeof *ts);
    pthread_t *tid = calloc((size_t)o.threads, sizeof *tid);
    if (stop_fd < 0 || ctx == NULL || ss == NULL || ts == NULL || tid == NULL) {
        fprintf(stderr, "swarm: cannot start: %s\n", strerror(errno));
        return EXIT_FAIL;
    }
    /* libzmq's default of 1023 sockets a context would cap the sessions; its own ceiling is ZMQ_SOCKET_LIMIT. */
    if (zmq_ctx_set(ctx, ZMQ_MAX_SOCKETS, o.sessions + 16) != 0) {
        fprintf(stderr, "swarm: --sessions %d: libzmq allows at most %d sockets in a context\n", o.sessions,
                zmq_ctx_get(ctx, ZMQ_SOCKET_LIMIT));
        return EXIT_FAIL;
    }
    double t0 = s_seconds();
    int status = EXIT_OK;
    for (int i = 0; i < o.sessions && status == EXIT_OK; i++) {
        char name[MSG_NAME_MAX];
        snprintf(name, sizeof name, "%s-%d", o.prefix, i);
        if (session_open(&ss[i], ctx, o.endpoint, name, err, sizeof err) != 0) {
            fprintf(stderr, "swarm: %s\n", err);
            status = EXIT_FAIL;
        }
    }
    int64_t vanish_at = o.vanish_after_ms > 0 ? session_now() + o.vanish_after_ms : 0;
    int vanish_nb = (int)(o.vanish_fraction * o.sessions + 0.5);
    int started = 0;
    for (int t = 0; t < o.threads && status == EXIT_OK; t++) {
        ts[t] = (s_thread_t){.opts = &o, .sessions = ss, .first = t, .step = o.threads, .stop_fd = stop_fd,
                             .vanish_at = vanish_at, .vanish_nb = vanish_nb};
        if (pthread_create(&tid[t], NULL, s_thread, &ts[t]) != 0) {
            fprintf(stderr, "swarm: cannot start thread %d\n", t);
            atomic_store(&s_stop, true);
            status = EXIT_FAIL;
        } else {
            started++;
        }
    }
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    s_summary(&o, ss, s_seconds() - t0);
    for (int i = 0; i < o.sessions; i++) {
        if (ss[i].refused > 0 || ss[i].lost || (ss[i].state == SESSION_ENDED && !ss[i].welcomed))
            status = EXIT_FAIL;
        session_close(&ss[i]);
    }
    zmq_ctx_term(ctx);
    free(ss);
    free(ts);
    free(tid);
    return status;
}
