/* opt.c: the table-driven option parser shared by octad, coordinator and worker (see opt.h). */
#include "opt.h"

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"

enum { HELP_COL_MAX = 24 };

static void s_vline(const char *prog, const char *fmt, va_list ap)
{
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (see %s --help)\n", prog);
}

int opt_usage(const char *prog, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    s_vline(prog, fmt, ap);
    va_end(ap);
    return EXIT_USAGE;
}

int opt_unknown(const char *prog, const char *arg)
{
    return opt_usage(prog, "unknown option '%.40s'", arg);
}

bool opt_is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

int opt_read_int(const char *text, long long lo, long long hi, long long *out, char *err, size_t errlen)
{
    char *end = NULL;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    bool digits = text[0] == '-' ? text[1] >= '0' && text[1] <= '9' : text[0] >= '0' && text[0] <= '9';
    if (!digits || *end != '\0' || errno != 0 || v < lo || v > hi) {
        snprintf(err, errlen, "expected an integer in %lld..%lld, got '%.40s'", lo, hi, text);
        return -1;
    }
    *out = v;
    return 0;
}

/* Stores v in the integer field of `size` bytes. */
static void s_store_int(void *field, size_t size, long long v)
{
    switch (size) {
    case 1: { int8_t x = (int8_t)v; memcpy(field, &x, 1); break; }
    case 2: { int16_t x = (int16_t)v; memcpy(field, &x, 2); break; }
    case 4: { int32_t x = (int32_t)v; memcpy(field, &x, 4); break; }
    default: { assert(size == 8); int64_t x = (int64_t)v; memcpy(field, &x, 8); break; }
    }
}

static int s_read_double(const char *text, double lo, double hi, double *out, char *err, size_t errlen)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno != 0 || !(v >= lo && v <= hi)) {
        snprintf(err, errlen, "expected a number in %g..%g, got '%.40s'", lo, hi, text);
        return -1;
    }
    *out = v;
    return 0;
}

/* Reads text into the row's field; 0, or -1 with the problem in err. */
static int s_value(const opt_t *row, const char *text, void *field, char *err, size_t errlen)
{
    long long n;
    double d;
    switch (row->kind) {
    case OPT_INT:
        if (opt_read_int(text, row->lo, row->hi, &n, err, errlen) != 0)
            return -1;
        s_store_int(field, row->size, n);
        return 0;
    case OPT_DOUBLE:
        if (s_read_double(text, row->dlo, row->dhi, &d, err, errlen) != 0)
            return -1;
        memcpy(field, &d, sizeof d);
        return 0;
    case OPT_GB:
        if (s_read_double(text, 0, 1e6, &d, err, errlen) != 0 || !(d > 0)) {
            snprintf(err, errlen, "expected a number of GB in (0, 1000000], got '%.40s'", text);
            return -1;
        }
        uint64_t bytes = (uint64_t)(d * 1e9);
        memcpy(field, &bytes, sizeof bytes);
        return 0;
    case OPT_TEXT:
        if (text[0] == '\0') {
            snprintf(err, errlen, "expected a non-empty value");
            return -1;
        }
        /* fall through */
    case OPT_STRING:
        memcpy(field, &text, sizeof text);
        return 0;
    case OPT_CUSTOM:
        return row->parse(text, field, err, errlen);
    case OPT_FLAG:
        break;
    }
    return 0;
}

/* Row k of the shared rows then the command's (k < s_row_nb); *off: where its fields start. */
static const opt_t *s_row(const opt_spec_t *spec, size_t k, size_t *off)
{
    *off = k < spec->shared_nb ? spec->shared_off : 0;
    return k < spec->shared_nb ? &spec->shared[k] : &spec->rows[k - spec->shared_nb];
}

static size_t s_row_nb(const opt_spec_t *spec)
{
    return spec->shared_nb + spec->row_nb;
}

/* The row argv's option names: "--name", "--name=...", an alias, "-s" or "-sVALUE".
 * Sets *inline_value to the text after '=' (or after -s), else NULL; *off as s_row. */
static const opt_t *s_find(const opt_spec_t *spec, const char *arg, const char **inline_value, size_t *off)
{
    *inline_value = NULL;
    for (size_t k = 0; k < s_row_nb(spec); k++) {
        const opt_t *row = s_row(spec, k, off);
        const char *names[2] = {row->name, row->alias};
        for (int a = 0; a < 2; a++) {
            size_t n = names[a] ? strlen(names[a]) : 0;
            if (n == 0 || strncmp(arg, names[a], n) != 0)
                continue;
            if (arg[n] == '\0' || arg[n] == '=') {
                *inline_value = arg[n] == '=' ? arg + n + 1 : NULL;
                return row;
            }
        }
        if (row->short_name && arg[0] == '-' && arg[1] == row->short_name) {
            *inline_value = arg[2] != '\0' ? arg + 2 : NULL;
            return row;
        }
    }
    return NULL;
}

/* One option at argv[*i]; 0, or EXIT_USAGE after the message. */
static int s_option(const opt_spec_t *spec, int argc, char **argv, int *i, void *base)
{
    const char *arg = argv[*i], *text;
    char err[200];
    size_t off;
    const opt_t *row = s_find(spec, arg, &text, &off);
    if (row == NULL)
        return opt_unknown(spec->prog, arg);
    void *field = (char *)base + off + row->off;
    if (row->kind == OPT_FLAG) {
        if (text != NULL)
            return opt_usage(spec->prog, "%s takes no value, got '%.40s'", row->name, arg);
        bool yes = true;
        memcpy(field, &yes, sizeof yes);
        return 0;
    }
    if (text == NULL) {
        if (*i + 1 >= argc)
            return opt_usage(spec->prog, "%s needs a value", row->name);
        text = argv[++*i];
    }
    if (s_value(row, text, field, err, sizeof err) != 0)
        return opt_usage(spec->prog, "%s: %s", row->name, err);
    return 0;
}

int opt_parse(const opt_spec_t *spec, int argc, char **argv, void *base)
{
    char err[200];
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        int rc;
        if (opt_is_help(arg)) {
            opt_help(spec, stdout);
            return OPT_HELP;
        }
        if (arg[0] == '-' && arg[1] != '\0') {
            if ((rc = s_option(spec, argc, argv, &i, base)) != 0)
                return rc;
        } else if (spec->plain == NULL) {
            return opt_usage(spec->prog, "unexpected argument '%.40s'", arg);
        } else if (spec->plain(arg, base, err, sizeof err) != 0) {
            return opt_usage(spec->prog, "%s", err);
        }
    }
    return 0;
}

/* "--name ARG, --alias ARG, -s" into buf. */
static void s_label(const opt_t *row, char *buf, size_t n)
{
    const char *arg = row->arg ? row->arg : "";
    const char *sp = row->arg ? " " : "";
    int len = snprintf(buf, n, "%s%s%s", row->name, sp, arg);
    if (row->alias && len >= 0 && (size_t)len < n)
        len += snprintf(buf + len, n - (size_t)len, ", %s%s%s", row->alias, sp, arg);
    if (row->short_name && len >= 0 && (size_t)len < n)
        snprintf(buf + len, n - (size_t)len, ", -%c", row->short_name);
}

void opt_help(const opt_spec_t *spec, FILE *out)
{
    static const opt_t help = {.name = "--help", .kind = OPT_FLAG, .short_name = 'h', .help = "this text"};
    char label[128];
    int col = 0;
    size_t off, nb = s_row_nb(spec);
    for (size_t k = 0; k <= nb; k++) {
        s_label(k < nb ? s_row(spec, k, &off) : &help, label, sizeof label);
        int len = (int)strlen(label);
        if (len > col && len <= HELP_COL_MAX)
            col = len;
    }
    fputs(spec->usage, out);
    for (size_t k = 0; k <= nb; k++) {
        const opt_t *row = k < nb ? s_row(spec, k, &off) : &help;
        s_label(row, label, sizeof label);
        const char *h = row->help ? row->help : "";
        size_t first = strcspn(h, "\n");
        fprintf(out, "  %-*s  %.*s\n", col, label, (int)first, h);
        for (h += first; *h == '\n'; h += first) {
            h++;
            first = strcspn(h, "\n");
            fprintf(out, "  %-*s  %.*s\n", col, "", (int)first, h);
        }
    }
    if (spec->epilogue)
        fputs(spec->epilogue, out);
}
