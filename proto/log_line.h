/* log_line.h: log lines of the coordinator and the worker: peer text made safe, one write per line. */
#pragma once

#include <stdarg.h>
#include <stddef.h>

/* Longest log line written, newline included; longer ones are cut. */
enum { LOG_LINE_MAX = 2048 };

/* Copies text a peer sent (a name, a reason, an error text) into out (cap
 * bytes, NUL-terminated) as printable ASCII: bytes outside 0x20..0x7e and the
 * backslash become \xNN, so no newline, carriage return or terminal escape
 * from a peer reaches a log; cut to fit. Returns out. */
char *log_clean(const char *text, char *out, size_t cap);

/* Writes prefix, the formatted message and a newline to stderr with one
 * write(2), so lines of processes sharing a terminal never interleave. */
void log_line(const char *prefix, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
