/* credit.c: the contributors table (credit.h). */
#include "credit.h"

#include <stdlib.h>
#include <string.h>

#include "count.h"

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

/* A JSON string of a name (quotes, backslashes and control bytes escaped). */
static void s_json_text(const char *t, FILE *out)
{
    fputc('"', out);
    for (; *t != '\0'; t++) {
        unsigned char c = (unsigned char)*t;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

void credit_print_json(credit_t *self, const char *amount_noun, FILE *out)
{
    char a[COUNT_TEXT_MAX];
    fputc('[', out);
    for (size_t k = 0; k < self->nb; k++) {
        const credit_row_t *r = credit_at(self, k);
        fprintf(out, "%s{\"worker\":", k ? "," : "");
        s_json_text(r->worker, out);
        fprintf(out, ",\"tasks\":%llu,\"%s\":%s,\"cpu_seconds\":", (unsigned long long)r->tasks, amount_noun,
                count_format(r->amount, a));
        if (r->cpu_tasks > 0)
            fprintf(out, "%.3f", (double)r->cpu_ms / 1000.0);
        else
            fputs("null", out);
        fprintf(out, ",\"wall_seconds\":%.3f}", (double)r->wall_ms / 1000.0);
    }
    fputc(']', out);
}
