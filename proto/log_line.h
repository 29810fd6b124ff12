/* log_line.h: log lines of the coordinator and the worker: peer text made safe, one write per
 * line, as text ("coordinator: message") or, with --log-format json, as one JSON object a line
 * for log shippers (docs/status.md, "JSON logs"):
 *
 *   {"time":"2026-12-05T07:40:01.123Z","level":"info","component":"worker",
 *    "message":"welcomed (job 42, heartbeat 1000 ms)","fields":{"name":"alpha"}}
 *
 * `time` is UTC with milliseconds; `level` is info, warning or error; `component` the program
 * ("coordinator", "worker"); `fields` what the line carries besides its text (the worker's
 * name, a progress line's figures), an empty object when nothing. */
#pragma once

#include <stdarg.h>
#include <stddef.h>

/* Longest log line written, newline included; longer ones are cut. */
enum { LOG_LINE_MAX = 2048 };

typedef enum { LOG_TEXT, LOG_JSON } log_format_t;
typedef enum { LOG_INFO, LOG_WARNING, LOG_ERROR } log_level_t;

/* A field of a JSON line: a text, or (text NULL) a number: an integer when it is one, null
 * when it is not finite (NAN: unknown). */
typedef struct {
    const char *key;
    const char *text;
    double number;
} log_field_t;

/* Sets the process's format and its component ("coordinator"), once at start before any
 * thread logs. Without a call: text, component "octad". */
void log_setup(log_format_t format, const char *component);

/* The format log_setup set. */
log_format_t log_format(void);

/* --log-format text|json as an opt.h custom parser: *(log_format_t *)field; 0, or -1 with err. */
int log_format_parse(const char *text, void *field, char *err, size_t errlen);

/* Copies text a peer sent (a name, a reason, an error text) into out (cap
 * bytes, NUL-terminated) as printable ASCII: bytes outside 0x20..0x7e and the
 * backslash become \xNN, so no newline, carriage return or terminal escape
 * from a peer reaches a log; cut to fit. Returns out. */
char *log_clean(const char *text, char *out, size_t cap);

/* Writes one line to stderr with one write(2), so lines of processes sharing a terminal never
 * interleave. Text: "COMPONENT: message", or "COMPONENT NAME: message" when name is not NULL.
 * JSON: the object above, name (if any) as the field "name" before the others. */
void log_vwrite(log_level_t level, const char *name, const log_field_t *fields, size_t field_nb, const char *fmt,
                va_list ap) __attribute__((format(printf, 5, 0)));

/* log_vwrite without fields; name may be NULL. */
void log_say(log_level_t level, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Lines written as they are in text mode (a table: no prefix added), one JSON line each. */
void log_block(log_level_t level, const char *text);

/* Writes prefix, the formatted message and a newline (text), or a JSON line whose component is
 * the prefix without its ": " (tools that name their own lines, tools/swarm). */
void log_line(const char *prefix, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
