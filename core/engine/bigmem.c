/* bigmem.c: large zeroed blocks, on huge pages where Linux grants them (bigmem.h). */
#define _DEFAULT_SOURCE
#include "bigmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

void *bigmem_alloc(size_t bytes)
{
    if (bytes == 0)
        bytes = 1;
    size_t align = bytes >= BIGMEM_HUGE / 2 ? BIGMEM_HUGE : BIGMEM_LINE;
    if (bytes > SIZE_MAX - align)
        return NULL;
    size_t size = (bytes + align - 1) / align * align; /* aligned_alloc wants a multiple of the alignment */
    void *block = aligned_alloc(align, size);
    if (block == NULL)
        return NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (align == BIGMEM_HUGE)
        (void)madvise(block, size, MADV_HUGEPAGE); /* advice only: refused, the pages stay small */
#endif
    memset(block, 0, size); /* after the advice, so the first touch already faults in huge pages */
    return block;
}

void bigmem_free(void *block)
{
    free(block);
}
