/* main.c: the `coordinator` command: sets up the job through its kind's row (kind.h), the
 * socket and the local workers, runs, and reports through the row. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kind.h"
#include "log_line.h"
#include "opts.h"
#include "publish.h"
#include "server.h"
#include "status_http.h"
#include "status_page.h"
#include "stop_signal.h"
#if OCTAD_HAVE_CURVE
#include "curve.h"
#endif

static int s_keygen(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("usage: coordinator keygen [PREFIX]\n"
               "Writes a CURVE key pair: PREFIX.key (secret, mode 0600) and PREFIX.pub (default PREFIX: coordinator).\n"
               "Give workers' .pub files to the coordinator's --allow, the coordinator's .pub to --server-key.\n");
        return EXIT_OK;
    }
#if OCTAD_HAVE_CURVE
    char err[256];
    const char *prefix = argc > 1 ? argv[1] : "coordinator";
    curve_keys_t keys;
    if (curve_keys_generate(&keys, err, sizeof err) != 0 || curve_keys_write(prefix, &keys, err, sizeof err) != 0) {
        fprintf(stderr, "coordinator keygen: %s\n", err);
        return EXIT_FAIL;
    }
    printf("wrote %s.key and %s.pub\n", prefix, prefix);
    return EXIT_OK;
#else
    fprintf(stderr, "coordinator keygen: built without CURVE support\n");
    return EXIT_FAIL;
#endif
}

/* Writes the endpoint to path atomically (a reader never sees half of it). */
static int s_write_endpoint(const char *path, const char *endpoint)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (f == NULL || fprintf(f, "%s\n", endpoint) < 0 || fclose(f) != 0 || rename(tmp, path) != 0) {
        log_say(LOG_ERROR, NULL, "--endpoint-file %s: cannot write it", path);
        return -1;
    }
    return 0;
}

/* publish_file's writer of --dump-tasks. */
typedef struct {
    const job_ops_t *kind;
    void *job;
} s_dump_ctx_t;

static int s_dump(void *ctx, FILE *f)
{
    const s_dump_ctx_t *c = ctx;
    return c->kind->dump_tasks(c->job, f);
}

/* --report and --dump-tasks of a finished job; 0, or -1 after a message. */
static int s_publish(const opts_t *o, const job_ops_t *kind, void *job, const server_summary_t *sum)
{
    char err[600];
    s_dump_ctx_t dump = {kind, job};
    if (o->report != NULL) {
        if (publish_write(o->report, kind, job, o, sum, err, sizeof err) != 0) {
            log_say(LOG_ERROR, NULL, "--report: %s", err);
            return -1;
        }
        if (!o->quiet)
            log_say(LOG_INFO, NULL, "report written to %s.json and %s.md", o->report, o->report);
    }
    if (o->dump_tasks != NULL) {
        if (publish_file(o->dump_tasks, s_dump, &dump, err, sizeof err) != 0) {
            log_say(LOG_ERROR, NULL, "--dump-tasks: %s", err);
            return -1;
        }
        if (!o->quiet)
            log_say(LOG_INFO, NULL, "tasks written to %s", o->dump_tasks);
    }
    return 0;
}

/* Runs the job once it is set up, publishing its status to st (may be NULL); returns
 * the exit status. */
static int s_serve(const opts_t *o, const job_ops_t *kind, void *job, status_http_t *st, int stop_fd)
{
    char err[512];
    bool usage;
    server_t *server = server_new(o, kind, job, err, sizeof err, &usage);
    spawn_t *spawn = NULL;
    spawn_opts_t so = {0};
    if (server == NULL) {
        log_say(LOG_ERROR, NULL, "%s", err);
        return usage ? EXIT_USAGE : EXIT_FAIL;
    }
    if (server_set_status(server, st) != 0) {
        log_say(LOG_ERROR, NULL, "--http: out of memory");
        server_destroy(&server);
        return EXIT_FAIL;
    }
    if (o->bind != NULL && !o->quiet)
        log_say(LOG_INFO, NULL, "listening on %s (workers here: %s)", o->bind, server_endpoint(server));
    if (o->verify && o->bind != NULL && o->curve_secret == NULL)
        log_say(LOG_WARNING, NULL, "warning: --verify without CURVE tells workers apart by the names they "
                "declare: it protects against faulty workers, not against a malicious peer (one peer can "
                "claim two names); use --curve-secret and --allow for results you publish");
    if (o->endpoint_file != NULL && s_write_endpoint(o->endpoint_file, server_endpoint(server)) != 0) {
        server_destroy(&server);
        return EXIT_FAIL;
    }
    if (o->local_workers > 0 && !kind->finished(job)) {
        kind->spawn_opts(job, o, &so);
        so.quiet = o->quiet;
        spawn = spawn_new(server_endpoint(server), &so, err, sizeof err);
        if (spawn == NULL) {
            log_say(LOG_ERROR, NULL, "%s", err);
            server_destroy(&server);
            return EXIT_FAIL;
        }
    }
    server_summary_t sum;
    int rc = server_run(server, spawn, stop_fd);
    server_summary(server, &sum);
    sum.local_processes = so.processes;
    sum.local_threads = so.threads;
    server_destroy(&server);
    spawn_destroy(&spawn, 1000);
    if (rc == SERVER_DISPUTED)
        return EXIT_MISMATCH;
    if (rc != 0)
        return EXIT_FAIL;
    rc = kind->report(job, o, &sum);
    if (rc != EXIT_OK && rc != EXIT_MISMATCH)
        return rc;
    return s_publish(o, kind, job, &sum) != 0 ? EXIT_FAIL : rc;
}

/* --status: starts the status server (NULL without --status); 0, or EXIT_USAGE after a message. */
static int s_status_open(const opts_t *o, status_http_t **st)
{
    char err[300];
    *st = NULL;
    if (!o->have_status)
        return 0;
    *st = status_http_new(&o->status, "--http", status_page, status_page_len, err, sizeof err);
    if (*st == NULL) {
        log_say(LOG_ERROR, NULL, "%s", err);
        return EXIT_USAGE;
    }
    if (!o->quiet)
        log_say(LOG_INFO, NULL, "status on http://%s:%d/ (a page; /status, /metrics)", o->status.text,
                status_http_port(*st));
    return 0;
}

/* --report and --dump-tasks: the files can be written (before the job runs); 0, or EXIT_USAGE
 * after a message. */
static int s_report_check(const opts_t *o)
{
    char err[600];
    if ((o->report == NULL || publish_check(o->report, err, sizeof err) == 0) &&
        (o->dump_tasks == NULL || publish_check_path("--dump-tasks", o->dump_tasks, err, sizeof err) == 0))
        return 0;
    log_say(LOG_ERROR, NULL, "%s", err);
    return EXIT_USAGE;
}

/* --status-hold: the final status stays up S seconds, or until a stop signal. */
static void s_status_hold(const opts_t *o, const status_http_t *st, int stop_fd)
{
    struct pollfd pf = {.fd = stop_fd, .events = POLLIN};
    if (st == NULL || o->status_hold_s <= 0)
        return;
    while (poll(&pf, 1, o->status_hold_s * 1000) < 0 && errno == EINTR)
        ;
}

int main(int argc, char **argv)
{
    opts_t o;
    int rc;
    if (argc > 1 && strcmp(argv[1], "keygen") == 0)
        return s_keygen(argc - 1, argv + 1);
    if ((rc = opts_parse(argc - 1, argv + 1, &o)) != 0)
        return rc < 0 ? EXIT_OK : rc;
    log_setup(o.log_format, "coordinator");
    const job_ops_t *kind = kind_pick(&o);
    void *job = NULL;
    status_http_t *st = NULL;
    if ((rc = s_report_check(&o)) == 0 && (rc = s_status_open(&o, &st)) == 0 && (rc = kind->open(&o, &job)) == 0) {
        int stop_fd = stop_signal_open();
        if (stop_fd < 0) {
            log_say(LOG_ERROR, NULL, "pipe: %s", strerror(errno));
            rc = EXIT_FAIL;
        } else {
            rc = s_serve(&o, kind, job, st, stop_fd);
            s_status_hold(&o, st, stop_fd);
        }
    }
    kind->close(&job);
    status_http_destroy(&st);
    return rc;
}
