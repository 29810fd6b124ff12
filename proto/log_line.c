/* log_line.c: peer text made printable, and log lines written whole (see log_line.h). */
#include "log_line.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

void log_line(const char *prefix, const char *fmt, va_list ap)
{
    char line[LOG_LINE_MAX];
    int n = snprintf(line, sizeof line, "%s", prefix);
    if (n < 0)
        return;
    size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    int m = vsnprintf(line + len, sizeof line - len, fmt, ap);
    if (m > 0)
        len += (size_t)m < sizeof line - len ? (size_t)m : sizeof line - len - 1;
    line[len++] = '\n'; /* len <= sizeof line - 1 here: the NUL's place takes the newline */
    for (size_t done = 0; done < len;) {
        ssize_t w = write(STDERR_FILENO, line + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        done += (size_t)w;
    }
}
