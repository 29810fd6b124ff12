/* epd.c: reading perft suites kept as data (see epd.h). */
#include "epd.h"

#include <stdio.h>
#include <string.h>

#include "count.h"

static const char *s_skip_space(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* Parses one ";Dd n" field starting at p (just after ';'); returns the end or NULL. */
static const char *s_parse_depth(const char *p, epd_line_t *out, char *err, size_t errlen)
{
    char num[COUNT_TEXT_MAX];
    int depth = 0;
    size_t n = 0;
    p = s_skip_space(p);
    if (*p != 'D') {
        snprintf(err, errlen, "depth field: expected 'D'");
        return NULL;
    }
    for (p++; *p >= '0' && *p <= '9'; p++)
        if ((depth = depth * 10 + (*p - '0')) > EPD_DEPTH_MAX)
            break;
    if (depth < 1 || depth > EPD_DEPTH_MAX) {
        snprintf(err, errlen, "depth field: depth must be 1-%d", EPD_DEPTH_MAX);
        return NULL;
    }
    p = s_skip_space(p);
    while (*p >= '0' && *p <= '9' && n < sizeof num - 1)
        num[n++] = *p++;
    num[n] = '\0';
    if (count_parse(num, &out->nodes[depth]) != 0) {
        snprintf(err, errlen, "depth field D%d: bad node count", depth);
        return NULL;
    }
    if (depth > out->depth_max)
        out->depth_max = depth;
    return s_skip_space(p);
}

int epd_parse_line(const char *line, epd_line_t *out, char *err, size_t errlen)
{
    const char *semi = strchr(line, ';');
    const char *start = s_skip_space(line);
    size_t len;
    memset(out, 0, sizeof *out);
    if (*start == '\0' || *start == '\n' || *start == '\r' || *start == '#')
        return 0;
    len = semi ? (size_t)(semi - start) : strcspn(start, "\r\n");
    while (len > 0 && (start[len - 1] == ' ' || start[len - 1] == '\t'))
        len--;
    if (len == 0 || len >= sizeof out->text) {
        snprintf(err, errlen, "position: empty or too long");
        return -1;
    }
    memcpy(out->text, start, len);
    out->text[len] = '\0';
    for (const char *p = semi; p && *p == ';';) {
        p = s_parse_depth(p + 1, out, err, errlen);
        if (p == NULL)
            return -1;
        if (*p != ';' && *p != '\0' && *p != '\n' && *p != '\r') {
            snprintf(err, errlen, "depth field: unexpected '%c'", *p);
            return -1;
        }
    }
    return 1;
}
