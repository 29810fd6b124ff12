/* log_line.c: peer text made printable, and log lines written whole, as text or JSON (jansson)
 * (see log_line.h). */
#include "log_line.h"

#include <errno.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static log_format_t s_format = LOG_TEXT;
static char s_component[32] = "octad";

static const char *const s_level[] = {"info", "warning", "error"};

void log_setup(log_format_t format, const char *component)
{
    s_format = format;
    snprintf(s_component, sizeof s_component, "%s", component);
}

log_format_t log_format(void)
{
    return s_format;
}

int log_format_parse(const char *text, void *field, char *err, size_t errlen)
{
    if (strcmp(text, "text") == 0 || strcmp(text, "json") == 0) {
        *(log_format_t *)field = text[0] == 'j' ? LOG_JSON : LOG_TEXT;
        return 0;
    }
    snprintf(err, errlen, "give 'text' or 'json', not '%.40s'", text);
    return -1;
}

char *log_clean(const char *text, char *out, size_t cap)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    if (cap == 0)
        return out;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        bool plain = *p >= 0x20 && *p <= 0x7e && *p != '\\';
        size_t need = plain ? 1 : 4;
        if (n + need + 1 > cap)
            break;
        if (plain) {
            out[n++] = (char)*p;
        } else {
            out[n++] = '\\';
            out[n++] = 'x';
            out[n++] = hex[*p >> 4];
            out[n++] = hex[*p & 15];
        }
    }
    out[n] = '\0';
    return out;
}

/* Writes len bytes of line to stderr, retrying short writes. */
static void s_write(const char *line, size_t len)
{
    for (size_t done = 0; done < len;) {
        ssize_t w = write(STDERR_FILENO, line + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        done += (size_t)w;
    }
}

/* A text line: prefix, message, newline, cut to LOG_LINE_MAX. A message that is not UTF-8
 * (a byte from somewhere no log_clean guarded) is written made printable, as log_clean does, so
 * the log stays text every reader can decode and the byte still shows, as \xNN. */
static void s_text(const char *prefix, const char *msg)
{
    char line[LOG_LINE_MAX], clean[LOG_LINE_MAX];
    json_t *utf8 = json_string(msg); /* jansson checks UTF-8: NULL when msg is not */
    if (utf8 == NULL)
        msg = log_clean(msg, clean, sizeof clean);
    json_decref(utf8);
    int n = snprintf(line, sizeof line, "%s%s", prefix, msg);
    if (n < 0)
        return;
    size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    line[len++] = '\n'; /* len <= sizeof line - 1 here: the NUL's place takes the newline */
    s_write(line, len);
}

/* A JSON string of text: as it is when UTF-8, else made printable as log_clean does. */
static json_t *s_string(const char *text)
{
    char clean[LOG_LINE_MAX];
    json_t *s = json_string(text);
    return s != NULL ? s : json_string(log_clean(text, clean, sizeof clean));
}

/* A number: an integer when it is one (counts, tasks), else a real. */
static json_t *s_number(double x)
{
    bool finite = x - x == 0; /* false for an infinity or a NaN */
    if (finite && x > -9e15 && x < 9e15 && x == (double)(json_int_t)x)
        return json_integer((json_int_t)x);
    return finite ? json_real(x) : json_null();
}

/* "2026-12-05T07:40:01.123Z", now. */
static void s_now(char out[32])
{
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    time_t t = ts.tv_sec;
    gmtime_r(&t, &tm);
    size_t n = strftime(out, 32, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out + n, 32 - n, ".%03ldZ", ts.tv_nsec / 1000000);
}

/* A JSON line; false when out of memory (the caller writes text instead). */
static bool s_json(log_level_t level, const char *component, const char *name, const log_field_t *fields,
                   size_t field_nb, const char *msg)
{
    char now[32];
    s_now(now);
    json_t *f = json_object();
    if (f != NULL && name != NULL)
        json_object_set_new(f, "name", s_string(name));
    for (size_t k = 0; f != NULL && k < field_nb; k++)
        json_object_set_new(f, fields[k].key, fields[k].text ? s_string(fields[k].text) : s_number(fields[k].number));
    json_t *o = json_pack("{s:s, s:s, s:o, s:o, s:o?}", "time", now, "level", s_level[level], "component",
                          s_string(component), "message", s_string(msg), "fields", f);
    char *text = o != NULL ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(o);
    if (text == NULL)
        return false;
    size_t len = strlen(text);
    char *line = realloc(text, len + 2);
    if (line == NULL) {
        free(text);
        return false;
    }
    line[len] = '\n';
    s_write(line, len + 1);
    free(line);
    return true;
}

void log_vwrite(log_level_t level, const char *name, const log_field_t *fields, size_t field_nb, const char *fmt,
                va_list ap)
{
    char msg[LOG_LINE_MAX], prefix[160];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (s_format == LOG_JSON && s_json(level, s_component, name, fields, field_nb, msg))
        return;
    snprintf(prefix, sizeof prefix, "%s%s%s: ", s_component, name ? " " : "", name ? name : "");
    s_text(prefix, msg);
}

void log_say(log_level_t level, const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    log_vwrite(level, name, NULL, 0, fmt, ap);
    va_end(ap);
}

void log_block(log_level_t level, const char *text)
{
    if (s_format == LOG_TEXT) {
        s_write(text, strlen(text));
        return;
    }
    char line[LOG_LINE_MAX];
    while (*text != '\0') {
        size_t len = strcspn(text, "\n");
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), text);
        if (!s_json(level, s_component, NULL, NULL, 0, line))
            s_text("", line);
        text += len + (text[len] == '\n');
    }
}

void log_line(const char *prefix, const char *fmt, va_list ap)
{
    char msg[LOG_LINE_MAX], component[64];
    vsnprintf(msg, sizeof msg, fmt, ap);
    size_t n = strlen(prefix);
    snprintf(component, sizeof component, "%.*s", (int)(n >= 2 && strcmp(prefix + n - 2, ": ") == 0 ? n - 2 : n),
             prefix);
    if (s_format == LOG_JSON && s_json(LOG_INFO, component, NULL, NULL, 0, msg))
        return;
    s_text(prefix, msg);
}
