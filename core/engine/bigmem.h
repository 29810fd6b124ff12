/* bigmem.h: zeroed memory for the search's large tables (the transposition
 * table, the evaluation cache). Their accesses are random, so with ordinary
 * 4 KiB pages most of them also miss the processor's address-translation
 * cache. On Linux a block of at least 1 MiB is therefore rounded up to whole
 * 2 MiB pages, aligned to 2 MiB and advised to use transparent huge pages
 * (madvise MADV_HUGEPAGE; the kernel may decline, and then the memory is
 * ordinary). Smaller blocks, and other systems, get memory aligned to a
 * 64-byte cache line. */
#ifndef OCTAD_ENGINE_BIGMEM_H
#define OCTAD_ENGINE_BIGMEM_H

#include <stddef.h>

enum { BIGMEM_HUGE = 2 * 1024 * 1024, BIGMEM_LINE = 64 };

/* A zeroed block of at least bytes, aligned to BIGMEM_HUGE when bytes >=
 * BIGMEM_HUGE / 2, else to BIGMEM_LINE; NULL when out of memory. Free it with
 * bigmem_free. */
void *bigmem_alloc(size_t bytes);

/* Frees a block from bigmem_alloc (NULL: nothing). */
void bigmem_free(void *block);

#endif
