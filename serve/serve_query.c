/* serve_query.c: the listen address and the query parameters (serve_query.h). */
#include "serve_query.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A port number 0-65535 in decimal, nothing else. */
static int s_port(const char *text, int *out)
{
    if (!*text || strlen(text) > 5 || strspn(text, "0123456789") != strlen(text))
        return -1;
    long v = strtol(text, NULL, 10);
    if (v > 65535)
        return -1;
    *out = (int)v;
    return 0;
}

int serve_listen_parse(const char *text, serve_listen_t *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char host[64] = "127.0.0.1";
    const char *port = text, *colon = strrchr(text, ':');
    if (colon) {
        size_t n = (size_t)(colon - text);
        if (n == 0 || n >= sizeof host) {
            snprintf(err, errlen, "'%.80s': the address before ':' is %s", text, n ? "too long" : "empty");
            return -1;
        }
        memcpy(host, text, n);
        host[n] = '\0';
        port = colon + 1;
    }
    if (s_port(port, &out->port) < 0) {
        snprintf(err, errlen, "'%.80s': the port must be a number from 0 to 65535", text);
        return -1;
    }
    struct sockaddr_in *v4 = (struct sockaddr_in *)&out->addr;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&out->addr;
    size_t hl = strlen(host);
    if (host[0] == '[' && hl > 2 && host[hl - 1] == ']') {
        char inner[64];
        snprintf(inner, sizeof inner, "%.*s", (int)(hl - 2), host + 1);
        if (inet_pton(AF_INET6, inner, &v6->sin6_addr) == 1) {
            v6->sin6_family = AF_INET6;
            v6->sin6_port = htons((uint16_t)out->port);
            out->len = sizeof *v6;
        }
    } else if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t)out->port);
        out->len = sizeof *v4;
    }
    if (!out->len) {
        snprintf(err, errlen,
                 "'%.80s' is not an IPv4 address or an IPv6 address in brackets (like 0.0.0.0 or [::1])",
                 host);
        return -1;
    }
    snprintf(out->text, sizeof out->text, "%s", host);
    return 0;
}

int serve_query_ofen(const char *value, char *err, size_t errlen)
{
    if (!value || !*value) {
        snprintf(err, errlen, "missing: give the position as ?ofen=... (URL-encoded OFEN)");
        return -1;
    }
    if (strlen(value) > SERVE_OFEN_MAX) {
        snprintf(err, errlen, "longer than %d characters", SERVE_OFEN_MAX);
        return -1;
    }
    return 0;
}

int serve_query_flip(const char *value, bool *out, char *err, size_t errlen)
{
    *out = false;
    if (!value || !*value || strcmp(value, "0") == 0 || strcmp(value, "false") == 0)
        return 0;
    if (strcmp(value, "1") == 0 || strcmp(value, "true") == 0) {
        *out = true;
        return 0;
    }
    snprintf(err, errlen, "'%.20s' is none of 1, true, 0, false", value);
    return -1;
}

/* A square name "a1".."d4": rank * 4 + file, or -1. */
static int s_square(const char *s)
{
    return s[0] >= 'a' && s[0] <= 'd' && s[1] >= '1' && s[1] <= '4' ? (s[1] - '1') * 4 + (s[0] - 'a') : -1;
}

int serve_query_lastmove(const char *value, int *from, int *to, char *err, size_t errlen)
{
    *from = *to = -1;
    if (!value || !*value)
        return 0;
    size_t n = strlen(value);
    int f = n >= 4 ? s_square(value) : -1, t = n >= 4 ? s_square(value + 2) : -1;
    bool promo_ok = n == 4 || (n == 5 && strchr("qrbn", value[4]));
    if (f < 0 || t < 0 || f == t || !promo_ok) {
        snprintf(err, errlen, "'%.20s' is not a move in UOI (two squares a1-d4, like b1c2, and a promotion letter)",
                 value);
        return -1;
    }
    *from = f;
    *to = t;
    return 0;
}
