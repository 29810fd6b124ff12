/* publish_md.c: a --report document as Markdown (see publish_md.h): a title, then one section
 * per member: an object as a table of fields (nested objects as dotted names, lists of
 * values on one line, lists of objects as their own tables), a list of objects as a table
 * with one row each. Text is escaped so no value can start a heading, break a table or
 * carry a control byte. */
#include "publish_md.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

/* Writes text escaped for a Markdown table cell. */
static void s_text(FILE *out, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p < 0x20 || *p == 0x7f)
            fprintf(out, "\\\\x%02x", *p); /* renders as \xNN */
        else if (strchr("\\|*_`<>[]#~&!", *p) != NULL)
            fprintf(out, "\\%c", *p);
        else
            fputc(*p, out);
    }
}

/* A scalar value (or a list of scalars) in one cell. */
static void s_value(FILE *out, const json_t *v)
{
    size_t k;
    const json_t *e;
    switch (json_typeof(v)) {
    case JSON_STRING: s_text(out, json_string_value(v)); break;
    case JSON_INTEGER: fprintf(out, "%lld", (long long)json_integer_value(v)); break;
    case JSON_REAL: fprintf(out, "%.3f", json_real_value(v)); break;
    case JSON_TRUE: fputs("yes", out); break;
    case JSON_FALSE: fputs("no", out); break;
    case JSON_NULL: fputs("-", out); break;
    case JSON_ARRAY:
        if (json_array_size(v) == 0)
            fputs("-", out);
        json_array_foreach(v, k, e) {
            fputs(k ? ", " : "", out);
            s_value(out, e);
        }
        break;
    case JSON_OBJECT: fputs("(object)", out); break;
    }
}

static bool s_is_table(const json_t *v)
{
    return json_is_array(v) && json_array_size(v) > 0 && json_is_object(json_array_get(v, 0));
}

/* A list of objects: a table whose columns are the first object's members. */
static void s_rows(FILE *out, const json_t *a)
{
    const json_t *first = json_array_get(a, 0), *row, *v;
    const char *key;
    size_t k;
    json_object_foreach((json_t *)first, key, v) {
        fputs("| ", out);
        s_text(out, key);
        fputc(' ', out);
    }
    fputs("|\n", out);
    json_object_foreach((json_t *)first, key, v)
        fputs("|---", out);
    fputs("|\n", out);
    json_array_foreach(a, k, row) {
        json_object_foreach((json_t *)first, key, v) {
            fputs("| ", out);
            const json_t *cell = json_object_get(row, key);
            s_value(out, cell != NULL ? cell : json_null());
            fputc(' ', out);
        }
        fputs("|\n", out);
    }
}

/* The fields of object o under prefix ("" at the top) as table rows. */
static void s_fields(FILE *out, const json_t *o, const char *prefix)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)o, key, v) {
        char name[256];
        snprintf(name, sizeof name, "%s%s%s", prefix, prefix[0] ? "." : "", key);
        if (json_is_object(v)) {
            s_fields(out, v, name);
        } else if (!s_is_table(v)) {
            fputs("| ", out);
            s_text(out, name);
            fputs(" | ", out);
            s_value(out, v);
            fputs(" |\n", out);
        }
    }
}

/* The lists of objects inside object o, each under its own heading. */
static void s_subtables(FILE *out, const json_t *o, const char *title)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)o, key, v) {
        if (json_is_object(v)) {
            s_subtables(out, v, title);
        } else if (s_is_table(v)) {
            fprintf(out, "\n### %s: ", title);
            s_text(out, key);
            fputs("\n\n", out);
            s_rows(out, v);
        }
    }
}

/* One section: a heading and the member's table. */
static void s_section(FILE *out, const char *key, const json_t *v)
{
    char title[64];
    snprintf(title, sizeof title, "%s", key);
    title[0] = (char)toupper((unsigned char)title[0]);
    fprintf(out, "\n## %s\n\n", title);
    if (s_is_table(v)) {
        s_rows(out, v);
    } else if (json_is_object(v)) {
        fputs("| field | value |\n|---|---|\n", out);
        s_fields(out, v, "");
        s_subtables(out, v, title);
    } else {
        s_value(out, v);
        fputc('\n', out);
    }
}

int publish_md(const json_t *doc, FILE *out)
{
    const char *key;
    json_t *v;
    fputs("# ", out);
    s_value(out, json_object_get(doc, "report"));
    fputs(": ", out);
    s_value(out, json_object_get(doc, "kind"));
    fputs("\n", out);
    json_object_foreach((json_t *)doc, key, v)
        if (json_is_object(v) || json_is_array(v))
            s_section(out, key, v);
    return ferror(out) ? -1 : 0;
}
