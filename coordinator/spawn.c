/* spawn.c: fork/exec of local workers and their clean-up (see spawn.h). */
#include "spawn.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "log_line.h"

struct spawn_s {
    int nb;
    pid_t *pids; /* 0 once reaped */
};

/* Path of `worker` in the folder of the running executable. */
static int s_worker_path(char *buf, size_t len)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return -1;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash == NULL)
        return -1;
    *slash = '\0';
    if ((size_t)snprintf(buf, len, "%s/worker", self) >= len)
        return -1;
    return access(buf, X_OK) == 0 ? 0 : -1;
}

static void s_child(const char *path, int index, const char *endpoint, const spawn_opts_t *o)
{
    char name[32], threads[16], hash[32], pre[16];
    snprintf(name, sizeof name, "local-%d-%ld", index, (long)getppid());
    snprintf(threads, sizeof threads, "%d", o->threads);
    snprintf(hash, sizeof hash, "%zu", o->hash_mb);
    snprintf(pre, sizeof pre, "%d", o->prefetch);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    char *argv[20] = {(char *)path, "--connect", (char *)endpoint, "--threads", threads, "--once", "--name", name,
                      "--hash", hash, "--prefetch", pre};
    int n = 12;
    if (o->tables != NULL)
    {
        argv[n++] = "--tables";
        argv[n++] = (char *)o->tables;
    }
    if (o->quiet)
        argv[n++] = "--quiet";
    if (log_format() == LOG_JSON) {
        argv[n++] = "--log-format";
        argv[n++] = "json";
    }
    argv[n] = NULL;
    execv(path, argv);
    log_say(LOG_ERROR, NULL, "cannot run %s: %s", path, strerror(errno));
    _exit(127);
}

spawn_t *spawn_new(const char *endpoint, const spawn_opts_t *opts, char *err, size_t errlen)
{
    char path[PATH_MAX + 16];
    if (s_worker_path(path, sizeof path) != 0) {
        snprintf(err, errlen, "local workers: no executable 'worker' next to the coordinator");
        return NULL;
    }
    spawn_t *self = calloc(1, sizeof *self);
    int k = opts->processes;
    if (self == NULL || (self->pids = calloc((size_t)(k > 0 ? k : 1), sizeof *self->pids)) == NULL) {
        free(self);
        snprintf(err, errlen, "local workers: out of memory");
        return NULL;
    }
    fflush(NULL);
    for (int i = 0; i < k; i++) {
        pid_t pid = fork();
        if (pid < 0) {
            snprintf(err, errlen, "local workers: fork: %s", strerror(errno));
            spawn_destroy(&self, 0);
            return NULL;
        }
        if (pid == 0)
            s_child(path, i + 1, endpoint, opts);
        self->pids[self->nb++] = pid;
    }
    return self;
}

int spawn_reap(spawn_t *self)
{
    int running = 0;
    if (self == NULL)
        return 0;
    for (int i = 0; i < self->nb; i++) {
        if (self->pids[i] == 0)
            continue;
        if (waitpid(self->pids[i], NULL, WNOHANG) == self->pids[i])
            self->pids[i] = 0;
        else
            running++;
    }
    return running;
}

static void s_signal_all(spawn_t *self, int sig)
{
    for (int i = 0; i < self->nb; i++)
        if (self->pids[i] != 0)
            kill(self->pids[i], sig);
}

/* Waits up to ms for every child to exit; returns how many are left. */
static int s_wait(spawn_t *self, int ms)
{
    struct timespec pause = {0, 1000 * 1000}; /* workers leave within a few ms of BYE */
    for (int waited = 0;; waited += 1) {
        int left = spawn_reap(self);
        if (left == 0 || waited >= ms)
            return left;
        nanosleep(&pause, NULL);
    }
}

void spawn_destroy(spawn_t **self_p, int grace_ms)
{
    spawn_t *self = *self_p;
    if (self == NULL)
        return;
    /* Workers exit by themselves on BYE; give them a moment, then insist. */
    if (s_wait(self, grace_ms) > 0) {
        s_signal_all(self, SIGTERM);
        if (s_wait(self, 1000) > 0) {
            s_signal_all(self, SIGKILL);
            s_wait(self, 5000);
        }
    }
    free(self->pids);
    free(self);
    *self_p = NULL;
}
