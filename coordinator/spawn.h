/* spawn.h: the coordinator's local worker processes: started next to it, never left behind. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct spawn_s spawn_t;

/* How the local workers are started. */
typedef struct {
    int processes;    /* worker processes */
    int threads;      /* --threads of each */
    size_t hash_mb;   /* --hash of each */
    int prefetch;     /* --prefetch of each */
    const char *tables; /* --tables of each (a solve job's directory, shared), or NULL */
    bool quiet;
} spawn_opts_t;

/* Starts the worker processes `worker --connect endpoint --threads T --once
 * --name local-<i>-<pid> --hash H --prefetch P [--tables DIR] [--quiet] [--log-format json]`
 * (the last when this process logs JSON lines: log_line.h), the worker binary
 * being found next to the running executable (/proc/self/exe). Each child
 * dies with the coordinator (PR_SET_PDEATHSIG). Returns NULL with a message
 * in err if the binary is missing or a fork fails (started ones are killed). */
spawn_t *spawn_new(const char *endpoint, const spawn_opts_t *opts, char *err, size_t errlen);

/* Reaps children that exited, without blocking; returns how many are still running. */
int spawn_reap(spawn_t *self);

/* Terminates every child (SIGTERM, then SIGKILL after grace_ms), reaps them,
 * frees *self_p and NULLs it. Safe on NULL. */
void spawn_destroy(spawn_t **self_p, int grace_ms);
