/* tt.c: lifecycle of the perft transposition table (layout and probing in tt.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "octad.h"
#include "tt.h"

enum { TT_BUCKET_BYTES = TT_BUCKET_ENTRIES * sizeof(tt_entry_t) };

/* Tables this large are aligned to, and sized in, 2 MB huge pages. */
#define TT_HUGE_PAGE ((size_t)2 << 20)

octad_tt_t *octad_tt_new(size_t bytes)
{
    /* Everything counts against `bytes`: the header and the entries. */
    size_t header = sizeof(octad_tt_t);
    if (bytes < header + TT_BUCKET_BYTES)
        return NULL;
    size_t size = (bytes - header) / TT_BUCKET_BYTES * TT_BUCKET_BYTES;
    size_t align = size >= TT_HUGE_PAGE ? TT_HUGE_PAGE : TT_BUCKET_BYTES;
    size = size / align * align;
    octad_tt_t *self = malloc(header);
    if (!self)
        return NULL;
    self->entries = aligned_alloc(align, size);
    if (!self->entries) {
        free(self);
        return NULL;
    }
#ifdef MADV_HUGEPAGE
    /* Huge pages: far fewer page faults and TLB misses on a big table. */
    if (align == TT_HUGE_PAGE)
        madvise(self->entries, size, MADV_HUGEPAGE);
#endif
    memset(self->entries, 0, size);
    self->nbuckets = size / TT_BUCKET_BYTES;
    return self;
}

void octad_tt_destroy(octad_tt_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    free((*self_p)->entries);
    free(*self_p);
    *self_p = NULL;
}
