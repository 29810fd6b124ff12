/* status_proc.h: the process's own figures for a status server (coordinator and worker --http):
 * its memory and CPU time, as /metrics' process_* series give them. */
#pragma once

#include <stdint.h>

/* Resident and virtual memory in bytes (/proc/self/statm); both 0 where it cannot be read. */
void status_proc_memory(uint64_t *rss, uint64_t *vm);

/* The process's CPU time (user and system, every thread) in seconds. */
double status_proc_cpu_seconds(void);
