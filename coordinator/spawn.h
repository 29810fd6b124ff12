/* spawn.h: the coordinator's local worker processes: started next to it, never left behind. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct spawn_s spawn_t;

/* Starts k workers `worker --connect endpoint --threads 1 --once --quiet
 * --name local-<i> --hash hash_mb [--prefetch prefetch]`, the worker binary
 * being found next to the running executable (/proc/self/exe). Each child
 * dies with the coordinator (PR_SET_PDEATHSIG). Returns NULL with a message
 * in err if the binary is missing or a fork fails (started ones are killed). */
spawn_t *spawn_new(int k, const char *endpoint, size_t hash_mb, int prefetch, bool quiet, char *err, size_t errlen);

/* Reaps children that exited, without blocking; returns how many are still running. */
int spawn_reap(spawn_t *self);

/* Terminates every child (SIGTERM, then SIGKILL after grace_ms), reaps them,
 * frees *self_p and NULLs it. Safe on NULL. */
void spawn_destroy(spawn_t **self_p, int grace_ms);
