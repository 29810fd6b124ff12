/* report.c: progress on stderr and the final result on stdout (see report.h). */
#include "report.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "count.h"
#include "log_line.h"

static bool s_bar_shown;

bool report_is_tty(void)
{
    return log_format() == LOG_TEXT && isatty(STDERR_FILENO) != 0; /* a redrawn bar is no JSON line */
}

void report_clear_line(void)
{
    if (s_bar_shown) {
        fprintf(stderr, "\r%78s\r", "");
        s_bar_shown = false;
    }
}

static void s_log(const log_field_t *f, size_t nb, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void s_log(const log_field_t *f, size_t nb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    log_vwrite(LOG_INFO, NULL, f, nb, fmt, ap);
    va_end(ap);
}

void report_progress(const report_progress_t *p)
{
    char nodes[COUNT_TEXT_MAX], eta[32] = "?";
    double nps = p->seconds > 0 ? (double)p->nodes / p->seconds : 0, eta_s = NAN; /* NAN: unknown */
    size_t fresh = p->done > p->loaded ? p->done - p->loaded : 0;
    size_t left = p->total - p->done;
    if (fresh > 0 && p->seconds > 0) {
        eta_s = p->seconds / (double)fresh * (double)left;
        snprintf(eta, sizeof eta, "%.0fs", eta_s);
    }
    const char *noun = p->noun != NULL ? p->noun : "nodes";
    count_format(p->nodes, nodes);
    if (p->tty) {
        char bar[21];
        size_t fill = p->total ? p->done * 20 / p->total : 20;
        for (size_t k = 0; k < 20; k++)
            bar[k] = k < fill ? '#' : '.';
        bar[20] = '\0';
        fprintf(stderr, "\r[%s] %zu/%zu tasks  %s %s  %.3g M/s  ETA %s  %zu workers ", bar, p->done, p->total,
                nodes, noun, nps / 1e6, eta, p->workers);
        s_bar_shown = true;
    } else {
        /* A log line; in JSON its figures are fields too (the ETA in seconds, null when unknown). */
        log_field_t f[] = {{"done", NULL, (double)p->done}, {"total", NULL, (double)p->total},
                           {noun, NULL, (double)p->nodes}, {"per_second", NULL, nps},
                           {"eta_seconds", NULL, eta_s},
                           {"workers", NULL, (double)p->workers}};
        s_log(f, sizeof f / sizeof f[0], "%zu/%zu tasks, %s %s, %.0f %s/s, ETA %s, %zu workers", p->done, p->total,
              nodes, noun, nps, noun, eta, p->workers);
    }
    fflush(stderr);
}

const report_stat_t REPORT_STATS[REPORT_STAT_NB] = {
    {"nodes", offsetof(perft_stats_t, nodes)},
    {"captures", offsetof(perft_stats_t, captures)},
    {"en_passant", offsetof(perft_stats_t, en_passant)},
    {"castles", offsetof(perft_stats_t, castles)},
    {"castle_near", offsetof(perft_stats_t, castle_kind) + CASTLE_NEAR * sizeof(count_t)},
    {"castle_center", offsetof(perft_stats_t, castle_kind) + CASTLE_CENTER * sizeof(count_t)},
    {"castle_far", offsetof(perft_stats_t, castle_kind) + CASTLE_FAR * sizeof(count_t)},
    {"promotions", offsetof(perft_stats_t, promotions)},
    {"checks", offsetof(perft_stats_t, checks)},
    {"discovered_checks", offsetof(perft_stats_t, discovered_checks)},
    {"double_checks", offsetof(perft_stats_t, double_checks)},
    {"mates", offsetof(perft_stats_t, mates)},
    {"stalemates", offsetof(perft_stats_t, stalemates)},
};

count_t report_stat(const perft_stats_t *s, size_t k)
{
    count_t v;
    memcpy(&v, (const char *)s + REPORT_STATS[k].offset, sizeof v);
    return v;
}

static void s_json_stats(const perft_stats_t *s)
{
    char b[COUNT_TEXT_MAX];
    printf(",\"stats\":{");
    for (size_t k = 0; k < REPORT_STAT_NB; k++)
        printf("%s\"%s\":%s", k ? "," : "", REPORT_STATS[k].name, count_format(report_stat(s, k), b));
    printf("}");
}

static void s_json(const report_final_t *r, const char *pos)
{
    char b[COUNT_TEXT_MAX];
    const server_summary_t *s = r->sum;
    double secs = s->seconds > 0.001 ? s->seconds : 0;
    printf("{\"variant\":\"%s\",\"position\":\"%s\",\"depth\":%d", game_variant_name(r->job->root.variant), pos,
           r->job->depth);
    printf(",\"nodes\":%s,\"seconds\":%.3f,\"nps\":%.0f", count_format(r->total->nodes, b), s->seconds,
           secs > 0 ? (double)r->total->nodes / secs : 0.0);
    printf(",\"tasks\":%zu,\"tasks_loaded\":%zu,\"tasks_dispatched\":%llu,\"results\":%llu", r->job->task_nb,
           s->loaded, (unsigned long long)s->dispatched, (unsigned long long)s->results);
    printf(",\"duplicates\":%llu,\"requeued\":%llu,\"dropped\":%llu,\"disagreements\":%llu,\"workers\":%zu",
           (unsigned long long)s->duplicates, (unsigned long long)s->requeued, (unsigned long long)s->dropped,
           (unsigned long long)s->disagreements, s->workers);
    printf(",\"impossible\":%llu,\"copies\":%llu", (unsigned long long)s->impossible, (unsigned long long)s->copies);
    if (r->job->bench)
        printf(",\"dispatch_seconds\":%.3f,\"tasks_per_second\":%.0f", s->dispatch_seconds,
               s->dispatch_seconds > 0 ? (double)s->results / s->dispatch_seconds : 0.0);
    printf(",\"local_processes\":%d,\"local_threads\":%d", s->local_processes, s->local_threads);
    printf(",\"cpu_seconds\":%.4f,\"worker_seconds\":%.3f,\"verify\":%s", s->cpu_seconds, s->worker_seconds,
           r->verify ? "true" : "false");
    if (r->verify)
        printf(",\"verify_workers\":\"%s\"", r->verify_by);
    if (r->check != REPORT_UNCHECKED)
        printf(",\"expected\":%s,\"expected_from\":\"%s\",\"match\":%s", count_format(r->expected, b),
               r->expected_from, r->check == REPORT_MATCH ? "true" : "false");
    if (r->divide) {
        printf(",\"divide\":{");
        for (int i = 0; i < r->total->root_nb; i++)
            printf("%s\"%s\":%s", i ? "," : "", r->total->root_uoi[i], count_format(r->total->root_nodes[i], b));
        printf("}");
    }
    if (r->stats)
        s_json_stats(&r->total->stats);
    if (r->contributors != NULL) {
        printf(",\"contributors\":");
        credit_print_json(r->contributors, "nodes", stdout);
    }
    printf("}\n");
}

static void s_text(const report_final_t *r, const char *pos)
{
    char b[COUNT_TEXT_MAX];
    const server_summary_t *s = r->sum;
    printf("variant    %s\nposition   %s\ndepth      %d\n", game_variant_name(r->job->root.variant), pos,
           r->job->depth);
    if (r->divide)
        for (int i = 0; i < r->total->root_nb; i++)
            printf("%s: %s\n", r->total->root_uoi[i], count_format(r->total->root_nodes[i], b));
    if (r->stats)
        count_print_stats(stdout, &r->total->stats, r->job->root.variant);
    printf("nodes      %s\n", count_format(r->total->nodes, b));
    printf("time       %.3f\n", s->seconds);
    printf("nps        %.0f\n", s->seconds > 0.001 ? (double)r->total->nodes / s->seconds : 0.0);
    printf("tasks      %zu (%zu from the journal, %llu dispatched, %llu re-queued, %llu duplicates dropped, "
           "%llu copied for stragglers)\n", r->job->task_nb, s->loaded, (unsigned long long)s->dispatched,
           (unsigned long long)s->requeued, (unsigned long long)s->duplicates, (unsigned long long)s->copies);
    printf("workers    %zu", s->workers);
    if (s->local_processes > 0)
        printf(" (started here: %d process%s of %d thread%s)", s->local_processes, s->local_processes > 1 ? "es" : "",
               s->local_threads, s->local_threads > 1 ? "s" : "");
    printf("\ncpu        %.3f s of the coordinator's own (%.1f%% of the time)\n", s->cpu_seconds,
           s->seconds > 0 ? 100.0 * s->cpu_seconds / s->seconds : 0.0);
    if (r->job->bench)
        printf("dispatch   %.0f tasks/s (%llu tasks in %.3f s)\n",
               s->dispatch_seconds > 0 ? (double)s->results / s->dispatch_seconds : 0.0,
               (unsigned long long)s->results, s->dispatch_seconds);
    if (r->verify)
        printf("verify     each task by two workers of different %s\n",
               strcmp(r->verify_by, "keys") == 0 ? "CURVE keys" : "declared names (faults only, not a malicious peer)");
    if (r->check == REPORT_MATCH)
        printf("check      matches %s\n", r->expected_from);
    else if (r->check == REPORT_MISMATCH)
        printf("check      MISMATCH (expected %s, from %s)\n", count_format(r->expected, b), r->expected_from);
    if (r->contributors != NULL)
        credit_print_text(r->contributors, "nodes", stdout);
}

void report_final(const report_final_t *r)
{
    char pos[GAME_TEXT_MAX];
    game_format(&r->job->root, pos, sizeof pos);
    if (r->json)
        s_json(r, pos);
    else
        s_text(r, pos);
    fflush(stdout);
}
