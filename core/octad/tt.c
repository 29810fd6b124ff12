/* tt.c: lifecycle of the perft transposition table (layout and probing in tt.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "octad.h"
#include "tt.h"

enum { TT_BUCKET_BYTES = TT_BUCKET_ENTRIES * sizeof(tt_entry_t) };

/* Tables this large are aligned to, and sized in, 2 MB huge pages. */
#define TT_HUGE_PAGE ((size_t)2 << 20)

bool octad_tt_shareable(void)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx");
#else
    return false;
#endif
}

/* Fresh zero pages from the kernel, aligned to `align`; touched only when used,
 * so a big table costs nothing up front and only what the search reaches. */
static void *s_map(size_t size, size_t align, size_t *mapped)
{
    size_t len = size + align;
    uint8_t *raw = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    uintptr_t at = ((uintptr_t)raw + align - 1) / align * align;
    size_t head = at - (uintptr_t)raw, tail = len - head - size;
    if (head > 0)
        munmap(raw, head);
    if (tail > 0)
        munmap((uint8_t *)at + size, tail);
#ifdef MADV_HUGEPAGE
    /* Huge pages: far fewer page faults and TLB misses on a big table. */
    if (align == TT_HUGE_PAGE)
        madvise((void *)at, size, MADV_HUGEPAGE);
#endif
    *mapped = size;
    return (void *)at;
}

octad_tt_t *octad_tt_new(size_t bytes)
{
    /* Everything counts against `bytes`: the header and the entries. */
    size_t header = sizeof(octad_tt_t);
    if (bytes < header + TT_BUCKET_BYTES)
        return NULL;
    size_t size = (bytes - header) / TT_BUCKET_BYTES * TT_BUCKET_BYTES;
    size_t align = size >= TT_HUGE_PAGE ? TT_HUGE_PAGE : TT_BUCKET_BYTES;
    size = size / align * align;
    octad_tt_t *self = calloc(1, header);
    if (!self)
        return NULL;
    if (align == TT_HUGE_PAGE) {
        self->entries = s_map(size, align, &self->mapped);
    } else {
        self->entries = aligned_alloc(align, size);
        if (self->entries)
            memset(self->entries, 0, size);
    }
    if (!self->entries) {
        free(self);
        return NULL;
    }
    self->nbuckets = size / TT_BUCKET_BYTES;
    return self;
}

void octad_tt_destroy(octad_tt_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    octad_tt_t *self = *self_p;
    if (self->mapped > 0)
        munmap(self->entries, self->mapped);
    else
        free(self->entries);
    free(self);
    *self_p = NULL;
}
