/* publish.c: --report's document and its two files (see publish.h; the Markdown is
 * publish_md.c's). */
#include "publish.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "json_value.h"
#include "publish_md.h"

#ifndef OCTAD_VERSION
#error "OCTAD_VERSION (the project's version) comes from coordinator/CMakeLists.txt"
#endif

/* FILE + suffix, or -1 with err when it does not fit. */
static int s_name(const char *file, const char *suffix, char *out, size_t len, char *err, size_t errlen)
{
    if ((size_t)snprintf(out, len, "%s%s", file, suffix) < len)
        return 0;
    snprintf(err, errlen, "--report %.80s...: the path is too long", file);
    return -1;
}

int publish_check_path(const char *option, const char *path, char *err, size_t errlen)
{
    char tmp[4200];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp) {
        snprintf(err, errlen, "%s %.80s...: the path is too long", option, path);
        return -1;
    }
    FILE *f = fopen(tmp, "w");
    if (f == NULL) {
        snprintf(err, errlen, "%s %s: cannot write %s: %s", option, path, tmp, strerror(errno));
        return -1;
    }
    fclose(f);
    unlink(tmp);
    return 0;
}

int publish_check(const char *file, char *err, size_t errlen)
{
    static const char *const suffix[] = {".json", ".md"};
    char path[4096];
    for (size_t k = 0; k < 2; k++)
        if (s_name(file, suffix[k], path, sizeof path, err, errlen) != 0 ||
            publish_check_path("--report", path, err, errlen) != 0)
            return -1;
    return 0;
}

int publish_file(const char *path, int (*write)(void *ctx, FILE *f), void *ctx, char *err, size_t errlen)
{
    char tmp[4200];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp) {
        snprintf(err, errlen, "cannot write %.80s...: the path is too long", path);
        return -1;
    }
    errno = 0;
    FILE *f = fopen(tmp, "w");
    int bad = f == NULL;
    if (!bad) {
        bad = write(ctx, f) != 0;
        bad |= fflush(f) != 0 || fsync(fileno(f)) != 0;
        bad |= fclose(f) != 0;
    }
    if (bad || rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, errno ? strerror(errno) : "out of memory");
        if (f != NULL)
            unlink(tmp);
        return -1;
    }
    return 0;
}

static int s_write_json(void *doc, FILE *f)
{
    return json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12)) != 0 ||
                   fputc('\n', f) == EOF
               ? -1
               : 0;
}

static int s_write_md(void *doc, FILE *f)
{
    return publish_md(doc, f);
}

/* The program: its version and the bench signature of this build (octad bench --quick's). */
static json_t *s_program(char *err, size_t errlen)
{
    count_t signature;
    if (bench_signature(true, &signature, err, errlen) != 0)
        return NULL;
    return json_pack("{s:s, s:s, s:{s:o?, s:s}}", "name", "coordinator", "version", OCTAD_VERSION, "bench",
                     "signature", json_value_count(signature), "of", "octad bench --quick");
}

static json_t *s_verify(const opts_t *o, const server_summary_t *sum)
{
    const char *by = !o->verify ? NULL : o->curve_secret != NULL ? "keys" : "names";
    return json_pack("{s:b, s:s?, s:I}", "enabled", o->verify, "workers_told_apart_by", by, "disagreements",
                     (json_int_t)sum->disagreements);
}

/* The run: the job's start and this run's (json_value_start), its end, its units (the row's
 * progress) and the server's counters. */
static json_t *s_run(const job_ops_t *kind, const void *job, const server_summary_t *s)
{
    char finished[32];
    job_progress_t p = {0};
    kind->progress(job, &p);
    json_value_iso(s->finished_at, finished);
    json_t *run = json_value_start(p.job_started_at, p.resumed, s->started_at);
    json_t *times = json_pack("{s:s, s:f, s:s, s:I, s:I, s:I, s:I}", "finished_at", finished, "seconds", s->seconds,
                              "unit", p.unit, "total", (json_int_t)p.total, "done", (json_int_t)p.done, "loaded",
                              (json_int_t)p.loaded, "dispatched", (json_int_t)s->dispatched);
    if (run == NULL || times == NULL || json_object_update(run, times) != 0)
        json_decref(run), run = NULL;
    json_decref(times);
    json_t *more = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:I, s:I}", "results", (json_int_t)s->results,
                             "duplicates", (json_int_t)s->duplicates, "copies", (json_int_t)s->copies, "requeued",
                             (json_int_t)s->requeued, "dropped", (json_int_t)s->dropped, "impossible",
                             (json_int_t)s->impossible, "worker_sessions", (json_int_t)s->workers,
                             "coordinator_cpu_seconds", s->cpu_seconds, "worker_seconds", s->worker_seconds,
                             "table_bytes_sent", (json_int_t)s->table_bytes_sent, "table_bytes_received",
                             (json_int_t)s->table_bytes_received);
    if (run == NULL || more == NULL || json_object_update(run, more) != 0)
        json_decref(run), run = NULL;
    json_decref(more);
    return run;
}

/* The whole document; NULL with err. */
static json_t *s_document(const job_ops_t *kind, void *job, const opts_t *o, const server_summary_t *sum,
                          char *err, size_t errlen)
{
    job_publish_t pub = {.job = json_object(), .result = json_object(), .amount_noun = "nodes"};
    json_t *program = NULL, *doc = NULL;
    if (pub.job == NULL || pub.result == NULL || kind->publish(job, o, sum, &pub) != 0) {
        snprintf(err, errlen, "--report: the %s job's result cannot be read (or out of memory)", kind->name);
    } else if ((program = s_program(err, errlen)) != NULL) {
        json_t *who = pub.contributors != NULL ? credit_json(pub.contributors, pub.amount_noun) : json_array();
        doc = json_pack("{s:s, s:i, s:o, s:s, s:O, s:o?, s:O, s:o?, s:o?}", "report", "octad-cluster job", "format", 1,
                        "program", program, "kind", kind->name, "job", pub.job, "verify", s_verify(o, sum), "result",
                        pub.result, "run", s_run(kind, job, sum), "contributors", who);
        if (doc == NULL)
            snprintf(err, errlen, "--report: out of memory");
    }
    json_decref(pub.job);
    json_decref(pub.result);
    return doc;
}

int publish_write(const char *file, const job_ops_t *kind, void *job, const opts_t *o, const server_summary_t *sum,
                  char *err, size_t errlen)
{
    json_t *doc = s_document(kind, job, o, sum, err, errlen);
    if (doc == NULL)
        return -1;
    char path[4096];
    int rc = s_name(file, ".json", path, sizeof path, err, errlen) != 0 ||
                     publish_file(path, s_write_json, doc, err, errlen) != 0 ||
                     s_name(file, ".md", path, sizeof path, err, errlen) != 0 ||
                     publish_file(path, s_write_md, doc, err, errlen) != 0
                 ? -1
                 : 0;
    json_decref(doc);
    return rc;
}
