/* status_http.c: the status server (status_http.h) over libmicrohttpd: one internal thread
 * answering GET (and HEAD) of /status and /metrics with the texts published, and of / with
 * the program's page. */
#include "status_http.h"

#include <microhttpd.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    S_MEMORY_LIMIT = 16 * 1024, /* bytes a connection may use: a longer request head is refused */
    S_CONNECTIONS_MAX = 64,     /* a status page, not a web site */
    S_PER_ADDRESS_MAX = 16,     /* so that one client holding connections does not take them all */
    S_TIMEOUT_S = 10            /* idle connections are closed */
};

struct status_http_s {
    struct MHD_Daemon *daemon;
    pthread_mutex_t lock;
    char *json, *metrics; /* the last published, under lock */
    const unsigned char *page;
    size_t page_len;
    int port;
};

static enum MHD_Result s_reply(struct MHD_Connection *c, unsigned code, const char *type, char *body)
{
    static char s_oom[] = "out of memory\n";
    if (body == NULL) {
        code = MHD_HTTP_INTERNAL_SERVER_ERROR;
        type = "text/plain; charset=utf-8";
    }
    struct MHD_Response *r = body != NULL
                                 ? MHD_create_response_from_buffer(strlen(body), body, MHD_RESPMEM_MUST_FREE)
                                 : MHD_create_response_from_buffer(strlen(s_oom), s_oom, MHD_RESPMEM_PERSISTENT);
    if (r == NULL) {
        free(body);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    if (strncmp(type, "text/html", 9) == 0) /* the page: nothing from elsewhere */
        MHD_add_response_header(r, "Content-Security-Policy",
                                "default-src 'self'; script-src 'self' 'unsafe-inline'; "
                                "style-src 'self' 'unsafe-inline'; img-src 'self'");
    if (code == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
    enum MHD_Result rc = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return rc;
}

static char *s_text(const char *fmt, const char *arg)
{
    size_t n = strlen(fmt) + strlen(arg) + 1;
    char *t = malloc(n);
    if (t != NULL)
        snprintf(t, n, fmt, arg);
    return t;
}

/* Answers when the whole request is read (so the connection may be kept alive). */
static enum MHD_Result s_access(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                const char *version, const char *upload_data, size_t *upload_size, void **state)
{
    static int started;
    status_http_t *self = cls;
    (void)version, (void)upload_data;
    if (*state == NULL) {
        *state = &started;
        return MHD_YES;
    }
    if (*upload_size != 0) {
        *upload_size = 0; /* a body is read and dropped */
        return MHD_YES;
    }
    bool is_status = strcmp(url, "/status") == 0, is_metrics = strcmp(url, "/metrics") == 0;
    bool is_page = strcmp(url, "/") == 0;
    char cut[128];
    snprintf(cut, sizeof cut, "%.100s", url);
    if (!is_status && !is_metrics && !is_page)
        return s_reply(c, MHD_HTTP_NOT_FOUND, "text/plain; charset=utf-8",
                       s_text("no such path: %s (see /, /status, /metrics)\n", cut));
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
        return s_reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain; charset=utf-8",
                       s_text("method %s is not allowed (GET, HEAD)\n", method));
    if (is_page) {
        char *copy = malloc(self->page_len + 1);
        if (copy != NULL) {
            memcpy(copy, self->page, self->page_len);
            copy[self->page_len] = '\0';
        }
        return s_reply(c, MHD_HTTP_OK, "text/html; charset=utf-8", copy);
    }
    pthread_mutex_lock(&self->lock);
    char *body = strdup(is_status ? self->json : self->metrics);
    pthread_mutex_unlock(&self->lock);
    return s_reply(c, MHD_HTTP_OK, is_status ? "application/json" : "text/plain; version=0.0.4; charset=utf-8", body);
}

status_http_t *status_http_new(const serve_listen_t *where, const char *option, const unsigned char *page,
                               size_t page_len, char *err, size_t errlen)
{
    status_http_t *self = calloc(1, sizeof *self);
    if (self == NULL || (self->json = strdup("{}\n")) == NULL || (self->metrics = strdup("")) == NULL) {
        snprintf(err, errlen, "%s: out of memory", option);
        if (self != NULL)
            free(self->json);
        free(self);
        return NULL;
    }
    pthread_mutex_init(&self->lock, NULL);
    self->page = page;
    self->page_len = page_len;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL;
    if (where->addr.ss_family == AF_INET6)
        flags |= MHD_USE_IPv6;
    /* One thread: requests are answered one after another, each a copy of a text. */
    self->daemon = MHD_start_daemon(flags, (uint16_t)where->port, NULL, NULL, s_access, self, MHD_OPTION_SOCK_ADDR,
                                    &where->addr, MHD_OPTION_CONNECTION_LIMIT, (unsigned)S_CONNECTIONS_MAX,
                                    MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)S_PER_ADDRESS_MAX,
                                    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)S_TIMEOUT_S,
                                    MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)S_MEMORY_LIMIT, MHD_OPTION_END);
    if (self->daemon == NULL) {
        snprintf(err, errlen, "%s %s:%d: cannot listen there (address in use, or not this machine's?)", option,
                 where->text, where->port);
        status_http_destroy(&self);
        return NULL;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(self->daemon, MHD_DAEMON_INFO_BIND_PORT);
    self->port = info != NULL ? info->port : where->port;
    return self;
}

int status_http_port(const status_http_t *self)
{
    return self->port;
}

int status_http_publish(status_http_t *self, const char *json, const char *metrics)
{
    char *j = strdup(json), *m = strdup(metrics);
    if (j == NULL || m == NULL) {
        free(j);
        free(m);
        return -1;
    }
    pthread_mutex_lock(&self->lock);
    char *old_j = self->json, *old_m = self->metrics;
    self->json = j;
    self->metrics = m;
    pthread_mutex_unlock(&self->lock);
    free(old_j);
    free(old_m);
    return 0;
}

void status_http_destroy(status_http_t **self_p)
{
    status_http_t *self = *self_p;
    if (self == NULL)
        return;
    if (self->daemon != NULL)
        MHD_stop_daemon(self->daemon);
    pthread_mutex_destroy(&self->lock);
    free(self->json);
    free(self->metrics);
    free(self);
    *self_p = NULL;
}
