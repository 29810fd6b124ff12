/* status_proc.c: the process's memory and CPU time (status_proc.h). */
#include "status_proc.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

void status_proc_memory(uint64_t *rss, uint64_t *vm)
{
    unsigned long long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    *rss = *vm = 0;
    if (f == NULL)
        return;
    if (fscanf(f, "%llu %llu", &pages, &resident) == 2) {
        long page = sysconf(_SC_PAGESIZE);
        uint64_t size = page > 0 ? (uint64_t)page : 4096;
        *vm = (uint64_t)pages * size;
        *rss = (uint64_t)resident * size;
    }
    fclose(f);
}

double status_proc_cpu_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
