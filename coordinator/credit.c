/* credit.c: the contributors table (credit.h). */
#include "credit.h"

#include <stdlib.h>
#include <string.h>

#include "count.h"
#include "json_value.h"
#include "log_line.h"

struct credit_s {
    credit_row_t *rows;
    size_t nb, cap;
    bool sorted;
};

credit_t *credit_new(void)
{
    return calloc(1, sizeof(credit_t));
}

void credit_destroy(credit_t **self_p)
{
    if (*self_p == NULL)
        return;
    free((*self_p)->rows);
    free(*self_p);
    *self_p = NULL;
}

static credit_row_t *s_row(credit_t *self, const char *worker)
{
    for (size_t k = 0; k < self->nb; k++)
        if (strcmp(self->rows[k].worker, worker) == 0)
            return &self->rows[k];
    if (self->nb == self->cap) {
        size_t cap = self->cap ? self->cap * 2 : 16;
        credit_row_t *r = realloc(self->rows, cap * sizeof *r);
        if (r == NULL)
            return NULL;
        self->rows = r;
        self->cap = cap;
    }
    credit_row_t *r = &self->rows[self->nb++];
    *r = (credit_row_t){0};
    snprintf(r->worker, sizeof r->worker, "%s", worker);
    return r;
}

int credit_add(credit_t *self, const journal_credit_t *c)
{
    credit_row_t *r = s_row(self, c->worker);
    if (r == NULL)
        return -1;
    r->tasks++;
    r->amount += c->amount;
    r->wall_ms += c->wall_ms;
    if (c->cpu_ms >= 0) {
        r->cpu_ms += (uint64_t)c->cpu_ms;
        r->cpu_tasks++;
    }
    self->sorted = false;
    return 0;
}

static int s_by_amount(const void *a, const void *b)
{
    const credit_row_t *x = a, *y = b;
    if (x->amount != y->amount)
        return x->amount > y->amount ? -1 : 1;
    return strcmp(x->worker, y->worker);
}

size_t credit_nb(const credit_t *self)
{
    return self->nb;
}

const credit_row_t *credit_at(credit_t *self, size_t k)
{
    if (!self->sorted) {
        qsort(self->rows, self->nb, sizeof *self->rows, s_by_amount);
        self->sorted = true;
    }
    return &self->rows[k];
}

void credit_print_text(credit_t *self, const char *amount_noun, FILE *out)
{
    char a[COUNT_TEXT_MAX];
    fprintf(out, "contributors: %zu\n", self->nb);
    for (size_t k = 0; k < self->nb; k++) {
        const credit_row_t *r = credit_at(self, k);
        fprintf(out, "  %-20s %8llu tasks  %22s %s  %10.1f s", r->worker, (unsigned long long)r->tasks,
                count_format(r->amount, a), amount_noun, (double)r->wall_ms / 1000.0);
        if (r->cpu_tasks > 0)
            fprintf(out, "  %10.1f s CPU", (double)r->cpu_ms / 1000.0);
        fputc('\n', out);
    }
}

json_t *credit_json(credit_t *self, const char *amount_noun)
{
    json_t *a = json_array();
    for (size_t k = 0; a != NULL && k < self->nb; k++) {
        const credit_row_t *r = credit_at(self, k);
        json_t *cpu = r->cpu_tasks > 0 ? json_real((double)r->cpu_ms / 1000.0) : json_null();
        json_t *o = json_pack("{s:o?, s:I, s:o?, s:o?, s:f}", "worker", json_value_text(r->worker), "tasks",
                              (json_int_t)r->tasks, amount_noun, json_value_count(r->amount), "cpu_seconds", cpu,
                              "wall_seconds", (double)r->wall_ms / 1000.0);
        if (o == NULL || json_array_append_new(a, o) != 0)
            json_decref(a), a = NULL;
    }
    return a;
}

void credit_print_json(credit_t *self, const char *amount_noun, FILE *out)
{
    json_t *a = credit_json(self, amount_noun);
    if (a == NULL || json_dumpf(a, out, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12)) != 0)
        fputs("null", out);
    json_decref(a);
}

void credit_log(credit_t *self, const char *amount_noun)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (mem == NULL)
        return;
    credit_print_text(self, amount_noun, mem);
    if (fclose(mem) == 0)
        log_block(LOG_INFO, text);
    free(text);
}
