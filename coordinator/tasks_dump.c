/* tasks_dump.c: --dump-tasks: every task of a job as one CSV row (see tasks.h): who answered
 * it, with what amount and in how many seconds, from this run's book or, for the tasks a
 * restarted coordinator loaded, from the journal's credit records; how often it was leased
 * and went back in this run (empty for a task done before it); its position and multiplicity
 * where the kind has them. */
#include <stdlib.h>
#include <string.h>

#include "count.h"
#include "server_priv.h"
#include "tasks.h"

typedef struct {
    uint32_t who;      /* 1 + the worker's index in names; 0: not answered this run */
    int64_t cpu_ms;    /* -1: none reported */
    uint64_t wall_ms;
    count_t amount;
} s_entry_t;

struct tasks_book_s {
    s_entry_t *e;      /* one per task */
    char (*names)[JOURNAL_WORKER_MAX];
    uint32_t name_nb, name_cap, last;
};

void tasks_book_free(tasks_t *t)
{
    if (t->book == NULL)
        return;
    free(t->book->e);
    free(t->book->names);
    free(t->book);
    t->book = NULL;
}

/* 1 + the index of name in the book's names (added if new), or 0 when out of memory. */
static uint32_t s_name(tasks_book_t *b, const char *name)
{
    if (b->last > 0 && strcmp(b->names[b->last - 1], name) == 0)
        return b->last;
    for (uint32_t k = 0; k < b->name_nb; k++)
        if (strcmp(b->names[k], name) == 0)
            return b->last = k + 1;
    if (b->name_nb == b->name_cap) {
        uint32_t cap = b->name_cap ? b->name_cap * 2 : 16;
        char(*n)[JOURNAL_WORKER_MAX] = realloc(b->names, cap * sizeof *n);
        if (n == NULL)
            return 0;
        b->names = n;
        b->name_cap = cap;
    }
    snprintf(b->names[b->name_nb++], JOURNAL_WORKER_MAX, "%s", name);
    return b->last = b->name_nb;
}

bool tasks_book_note(server_t *s, tasks_t *t, size_t i)
{
    if (s->opts->dump_tasks == NULL || t->by.worker[0] == '\0')
        return true;
    if (t->book == NULL && (t->book = calloc(1, sizeof *t->book)) != NULL &&
        (t->book->e = calloc(t->task_nb, sizeof *t->book->e)) == NULL)
        tasks_book_free(t);
    uint32_t who = t->book != NULL ? s_name(t->book, t->by.worker) : 0;
    if (who == 0) {
        server_fail(s, "--dump-tasks: out of memory");
        return false;
    }
    t->book->e[i] = (s_entry_t){.who = who, .cpu_ms = t->by.cpu_ms, .wall_ms = t->by.wall_ms, .amount = t->by.amount};
    return true;
}

/* Writes one CSV field (RFC 4180: quoted, quotes doubled, when it holds a comma, a quote or a
 * line break), then sep. */
static void s_field(FILE *out, const char *text, char sep)
{
    if (strpbrk(text, ",\"\r\n") == NULL) {
        fputs(text, out);
    } else {
        fputc('"', out);
        for (const char *c = text; *c; c++) {
            if (*c == '"')
                fputc('"', out);
            fputc(*c, out);
        }
        fputc('"', out);
    }
    fputc(sep, out);
}

/* Who did task i and how: from this run's book, else the journal's credit record (k: the
 * index of task i's record, or SIZE_MAX). Empty fields when neither knows. */
static void s_credit_fields(const tasks_t *t, size_t i, size_t k, FILE *out)
{
    char amount[COUNT_TEXT_MAX], secs[32], cpu[32] = "";
    const s_entry_t *e = t->book != NULL && t->book->e[i].who > 0 ? &t->book->e[i] : NULL;
    const journal_credit_t *c = e == NULL && k != SIZE_MAX ? journal_credit_at(t->journal, k) : NULL;
    if (e == NULL && c == NULL) {
        fputs(",,,,,", out);
        return;
    }
    int64_t cpu_ms = e ? e->cpu_ms : c->cpu_ms;
    snprintf(secs, sizeof secs, "%.3f", (double)(e ? e->wall_ms : c->wall_ms) / 1000.0);
    if (cpu_ms >= 0)
        snprintf(cpu, sizeof cpu, "%.3f", (double)cpu_ms / 1000.0);
    s_field(out, count_format(e ? e->amount : c->amount, amount), ',');
    s_field(out, e ? t->book->names[e->who - 1] : c->worker, ',');
    s_field(out, secs, ',');
    s_field(out, cpu, ',');
    s_field(out, e ? "run" : "journal", ',');
}

/* Task i's own fields: id, task, position, depth, multiplicity, answer. */
static void s_task_fields(const tasks_t *t, size_t i, FILE *out)
{
    char text[GAME_TEXT_MAX + 1024], pos[GAME_TEXT_MAX] = "", num[COUNT_TEXT_MAX];
    int depth = -1;
    count_t weight = 1;
    fprintf(out, "%zu,", i + 1);
    t->ops->task_text(t, i, text, sizeof text);
    s_field(out, text, ',');
    if (t->ops->frontier != NULL)
        t->ops->frontier(t, i, pos, sizeof pos, &depth, &weight);
    s_field(out, pos, ',');
    if (depth >= 0)
        fprintf(out, "%d", depth);
    fputc(',', out);
    s_field(out, count_format(weight, num), ',');
    text[0] = '\0';
    if (sched_done(t->sched, i))
        t->ops->answer_text(t, i, sched_answers(t->sched)[i], text, sizeof text);
    s_field(out, text, ',');
}

int tasks_dump(void *job, FILE *out)
{
    const tasks_t *t = job;
    size_t *from_journal = malloc((t->task_nb ? t->task_nb : 1) * sizeof *from_journal);
    if (from_journal == NULL)
        return -1;
    for (size_t i = 0; i < t->task_nb; i++)
        from_journal[i] = SIZE_MAX;
    for (size_t k = 0; t->journal != NULL && k < journal_credit_nb(t->journal); k++) {
        uint64_t id = journal_credit_at(t->journal, k)->task_id;
        if (id >= 1 && id <= t->task_nb && from_journal[id - 1] == SIZE_MAX)
            from_journal[id - 1] = k;
    }
    fputs("task_id,task,position,depth,multiplicity,answer,amount,worker,wall_seconds,cpu_seconds,source,leases,"
          "requeues\n", out);
    for (size_t i = 0; i < t->task_nb; i++) {
        uint32_t leases, ended;
        s_task_fields(t, i, out);
        s_credit_fields(t, i, from_journal[i], out);
        sched_task_counts(t->sched, i, &leases, &ended);
        if (leases == 0 && sched_done(t->sched, i)) /* done before this run: its leases are not kept */
            fputs(",\n", out);
        else
            fprintf(out, "%u,%u\n", leases, ended);
    }
    free(from_journal);
    return ferror(out) ? -1 : 0;
}
