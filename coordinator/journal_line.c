/* journal_line.c: the cluster journal's records, T, C and S, as jfile records (format in
 * journal.h; the file, its header and its checksums are core/base/jfile.c's). */
#include "journal_line.h"

#include <stdio.h>
#include <string.h>

#include "count.h"

enum { STATS_FIELD_NB = 13 };

/* The 13 counts of a stats field, comma-separated, into buf (cap bytes); false if they do not fit. */
static bool s_format_stats(const perft_stats_t *st, char *buf, size_t cap)
{
    const count_t v[STATS_FIELD_NB] = {
        st->nodes, st->captures, st->en_passant, st->castles,
        st->castle_kind[CASTLE_NEAR], st->castle_kind[CASTLE_CENTER], st->castle_kind[CASTLE_FAR],
        st->promotions, st->checks, st->mates, st->discovered_checks, st->double_checks, st->stalemates,
    };
    char text[COUNT_TEXT_MAX];
    size_t len = 0;
    for (int i = 0; i < STATS_FIELD_NB; i++) {
        int n = snprintf(buf + len, cap - len, "%s%s", i > 0 ? "," : "", count_format(v[i], text));
        if (n < 0 || (size_t)n >= cap - len)
            return false;
        len += (size_t)n;
    }
    return true;
}

size_t jline_format_entry(uint64_t task_id, const char *task_key, count_t nodes,
                          const perft_stats_t *stats, char *buf, size_t cap)
{
    char id[24], count[COUNT_TEXT_MAX], st[STATS_FIELD_NB * (COUNT_TEXT_MAX + 1)] = "-";
    snprintf(id, sizeof id, "%llu", (unsigned long long)task_id);
    if (stats != NULL && !s_format_stats(stats, st, sizeof st))
        return 0;
    const char *f[4] = {id, count_format(nodes, count), st, task_key};
    return jfile_format(buf, cap, 'T', 4, f);
}

size_t jline_format_credit(const journal_credit_t *c, char *buf, size_t cap)
{
    char id[24], amount[COUNT_TEXT_MAX], cpu[24] = "-", wall[24];
    snprintf(id, sizeof id, "%llu", (unsigned long long)c->task_id);
    if (c->cpu_ms >= 0)
        snprintf(cpu, sizeof cpu, "%lld", (long long)c->cpu_ms);
    snprintf(wall, sizeof wall, "%llu", (unsigned long long)c->wall_ms);
    const char *f[5] = {id, c->worker, count_format(c->amount, amount), cpu, wall};
    return jfile_format(buf, cap, 'C', 5, f);
}

static int s_parse_u64(const char *text, uint64_t *out)
{
    count_t v;
    if (count_parse(text, &v) != 0 || v > UINT64_MAX)
        return -1;
    *out = (uint64_t)v;
    return 0;
}

static int s_parse_stats(char *text, perft_stats_t *st, char *err, size_t errlen)
{
    count_t *dst[STATS_FIELD_NB] = {
        &st->nodes, &st->captures, &st->en_passant, &st->castles,
        &st->castle_kind[CASTLE_NEAR], &st->castle_kind[CASTLE_CENTER], &st->castle_kind[CASTLE_FAR],
        &st->promotions, &st->checks, &st->mates, &st->discovered_checks, &st->double_checks, &st->stalemates,
    };
    char *p = text;
    for (int i = 0; i < STATS_FIELD_NB; i++) {
        char *comma = strchr(p, ',');
        if ((i < STATS_FIELD_NB - 1) != (comma != NULL)) {
            snprintf(err, errlen, "stats: expected %d comma-separated counts", STATS_FIELD_NB);
            return -1;
        }
        if (comma)
            *comma = '\0';
        if (count_parse(p, dst[i]) != 0) {
            snprintf(err, errlen, "stats: count %d \"%.40s\" is not a decimal count", i + 1, p);
            return -1;
        }
        p = comma ? comma + 1 : p;
    }
    return 0;
}

int jline_parse_entry(jfile_rec_t *rec, jline_entry_t *out, char *err, size_t errlen)
{
    char **f = rec->field;
    if (rec->type != 'T' || rec->field_nb != 4) {
        snprintf(err, errlen, "not a task record (expected T and 4 TAB-separated fields)");
        return -1;
    }
    memset(out, 0, sizeof *out);
    if (s_parse_u64(f[0], &out->task_id) != 0) {
        snprintf(err, errlen, "task id \"%.40s\" is not a decimal 64-bit number", f[0]);
        return -1;
    }
    if (count_parse(f[1], &out->nodes) != 0) {
        snprintf(err, errlen, "nodes \"%.40s\" is not a decimal count", f[1]);
        return -1;
    }
    out->has_stats = strcmp(f[2], "-") != 0;
    if (out->has_stats && s_parse_stats(f[2], &out->stats, err, errlen) != 0)
        return -1;
    if (out->has_stats && out->stats.nodes != out->nodes) {
        snprintf(err, errlen, "stats: first count differs from nodes");
        return -1;
    }
    out->key = f[3];
    return 0;
}

int jline_parse_credit(jfile_rec_t *rec, journal_credit_t *out, char *err, size_t errlen)
{
    char **f = rec->field;
    if (rec->type != 'C' || rec->field_nb != 5) {
        snprintf(err, errlen, "not a credit record (expected C and 5 TAB-separated fields)");
        return -1;
    }
    memset(out, 0, sizeof *out);
    uint64_t cpu = 0;
    if (s_parse_u64(f[0], &out->task_id) != 0) {
        snprintf(err, errlen, "credit: task id \"%.40s\" is not a decimal 64-bit number", f[0]);
        return -1;
    }
    if (f[1][0] == '\0' || jfile_unescape(f[1], out->worker, sizeof out->worker) != 0) {
        snprintf(err, errlen, "credit: worker \"%.70s\" is empty, badly escaped or longer than %d bytes", f[1],
                 JOURNAL_WORKER_MAX - 1);
        return -1;
    }
    if (count_parse(f[2], &out->amount) != 0) {
        snprintf(err, errlen, "credit: amount \"%.40s\" is not a decimal count", f[2]);
        return -1;
    }
    if (strcmp(f[3], "-") != 0 && (s_parse_u64(f[3], &cpu) != 0 || cpu > INT64_MAX)) {
        snprintf(err, errlen, "credit: cpu_ms \"%.40s\" is neither '-' nor a decimal number", f[3]);
        return -1;
    }
    out->cpu_ms = strcmp(f[3], "-") != 0 ? (int64_t)cpu : -1;
    if (s_parse_u64(f[4], &out->wall_ms) != 0) {
        snprintf(err, errlen, "credit: wall_ms \"%.40s\" is not a decimal number", f[4]);
        return -1;
    }
    return 0;
}

size_t jline_format_start(int64_t started_at, char *buf, size_t cap)
{
    char at[24];
    snprintf(at, sizeof at, "%lld", (long long)started_at);
    const char *f[1] = {at};
    return jfile_format(buf, cap, 'S', 1, f);
}

int jline_parse_start(jfile_rec_t *rec, int64_t *started_at, char *err, size_t errlen)
{
    uint64_t at;
    if (rec->type != 'S' || rec->field_nb != 1) {
        snprintf(err, errlen, "not a start record (expected S and 1 TAB-separated field)");
        return -1;
    }
    if (s_parse_u64(rec->field[0], &at) != 0 || at == 0 || at > INT64_MAX) {
        snprintf(err, errlen, "start: started_at \"%.40s\" is not a positive decimal number of seconds",
                 rec->field[0]);
        return -1;
    }
    *started_at = (int64_t)at;
    return 0;
}
