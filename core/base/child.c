/* child.c: a child process spoken to over pipes (child.h). */
#include "child.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "err.h"

struct child {
    pid_t pid;
    int to, from;    /* pipe ends: the child's stdin, the child's stdout */
    char buf[16384]; /* bytes read, not yet returned as lines */
    size_t len;
    bool stopped;
    int status;      /* after child_stop: its wait status, or -1 if killed here */
    char how[128];
};

long child_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

/* In the forked child: the pipes onto stdin/stdout, a process group of its own, exec sh. */
static void s_exec(const char *command, const char *const *args, int nargs, int in[2], int out[2])
{
    char script[4096];
    const char **argv = calloc((size_t)nargs + 5, sizeof *argv);
    setpgid(0, 0);
    dup2(in[0], 0);
    dup2(out[1], 1);
    close(in[0]), close(in[1]), close(out[0]), close(out[1]);
    signal(SIGPIPE, SIG_DFL);
    /* "$@" only when there are arguments: a command that ends in a compound statement
     * (`while ...; done`) cannot take words after it */
    snprintf(script, sizeof script, nargs > 0 ? "%s \"$@\"" : "%s", command);
    if (argv == NULL)
        _exit(127);
    argv[0] = "sh", argv[1] = "-c", argv[2] = script, argv[3] = "sh";
    for (int i = 0; i < nargs; i++)
        argv[4 + i] = args[i];
    execv("/bin/sh", (char *const *)argv);
    _exit(127);
}

child_t *child_new(const char *command, const char *const *args, int nargs, char *err, size_t errlen)
{
    int in[2], out[2];
    child_t *c = calloc(1, sizeof *c);
    if (c == NULL) {
        err_printf(err, errlen, "out of memory");
        return NULL;
    }
    if (strlen(command) > 4000) {
        free(c);
        err_printf(err, errlen, "the command is longer than 4000 bytes");
        return NULL;
    }
    signal(SIGPIPE, SIG_IGN);
    if (pipe(in) != 0) {
        free(c);
        err_printf(err, errlen, "pipe: %s", strerror(errno));
        return NULL;
    }
    if (pipe(out) != 0) {
        close(in[0]), close(in[1]), free(c);
        err_printf(err, errlen, "pipe: %s", strerror(errno));
        return NULL;
    }
    c->pid = fork();
    if (c->pid == 0)
        s_exec(command, args, nargs, in, out);
    close(in[0]);
    close(out[1]);
    c->to = in[1];
    c->from = out[0];
    if (c->pid < 0) {
        err_printf(err, errlen, "fork: %s", strerror(errno));
        close(c->to), close(c->from), free(c);
        return NULL;
    }
    setpgid(c->pid, c->pid); /* also here, so a kill right after the fork reaches the group */
    return c;
}

int child_send(child_t *self, const char *text)
{
    size_t n = strlen(text), done = 0;
    if (self->to < 0)
        return -1;
    while (done < n) {
        ssize_t w = write(self->to, text + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        done += (size_t)w;
    }
    return 0;
}

void child_close_input(child_t *self)
{
    if (self->to >= 0)
        close(self->to);
    self->to = -1;
}

/* Moves the first line of the buffer (n bytes before its newline) into line. */
static void s_take_line(child_t *self, size_t n, char *line, size_t cap)
{
    size_t k = n < cap - 1 ? n : cap - 1;
    memcpy(line, self->buf, k);
    line[k] = '\0';
    if (k > 0 && line[k - 1] == '\r')
        line[k - 1] = '\0';
    memmove(self->buf, self->buf + n + 1, self->len - n - 1);
    self->len -= n + 1;
}

child_read_t child_read_line(child_t *self, char *line, size_t cap, long deadline_ms)
{
    for (;;) {
        char *nl = memchr(self->buf, '\n', self->len);
        if (nl != NULL) {
            s_take_line(self, (size_t)(nl - self->buf), line, cap);
            return CHILD_LINE;
        }
        if (self->len == sizeof self->buf) { /* a line longer than the buffer: its start */
            self->buf[self->len - 1] = '\n';
            continue;
        }
        if (self->from < 0)
            return CHILD_EOF;
        struct pollfd p = {.fd = self->from, .events = POLLIN};
        long left = deadline_ms - child_now_ms();
        int rc = left > 0 ? poll(&p, 1, (int)left) : 0;
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc <= 0)
            return CHILD_TIMEOUT;
        ssize_t r = read(self->from, self->buf + self->len, sizeof self->buf - self->len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r > 0) {
            self->len += (size_t)r;
            continue;
        }
        if (self->len == 0)
            return CHILD_EOF;
        self->buf[self->len++] = '\n'; /* a last line without its newline */
    }
}

/* Writes how a wait status ended into self->how. */
static void s_describe(child_t *self, int status)
{
    if (WIFEXITED(status) && WEXITSTATUS(status) > 128 && WEXITSTATUS(status) < 128 + NSIG)
        snprintf(self->how, sizeof self->how, "exited with status %d, a shell's word for killed by signal %d (%s)",
                 WEXITSTATUS(status), WEXITSTATUS(status) - 128, strsignal(WEXITSTATUS(status) - 128));
    else if (WIFEXITED(status))
        snprintf(self->how, sizeof self->how, "exited with status %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(self->how, sizeof self->how, "killed by signal %d (%s)", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    else
        snprintf(self->how, sizeof self->how, "ended (wait status %d)", status);
}

int child_stop(child_t *self, int grace_ms, char *how, size_t howlen)
{
    if (!self->stopped) {
        int status = 0;
        long deadline = child_now_ms() + grace_ms;
        siginfo_t info;
        bool ended = false;
        child_close_input(self);
        /* WNOWAIT: the child stays a zombie, so its process group id cannot be reused
         * before we kill what it left in the group (our child's group, by its id). */
        for (;;) {
            info.si_pid = 0;
            ended = waitid(P_PID, (id_t)self->pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid != 0;
            if (ended || child_now_ms() >= deadline)
                break;
            usleep(5000);
        }
        kill(-self->pid, SIGKILL);
        waitpid(self->pid, &status, 0);
        self->status = ended ? status : -1;
        if (ended)
            s_describe(self, status);
        else
            snprintf(self->how, sizeof self->how, "stopped by us after %d ms", grace_ms);
        if (self->from >= 0)
            close(self->from);
        self->from = -1;
        self->stopped = true;
    }
    if (how != NULL && howlen > 0)
        snprintf(how, howlen, "%s", self->how);
    return self->status;
}

void child_destroy(child_t **self_p)
{
    if (self_p == NULL || *self_p == NULL)
        return;
    child_stop(*self_p, 1000, NULL, 0);
    free(*self_p);
    *self_p = NULL;
}
