/* cert_set.h: the positions a certificate under construction holds, in the order they were
 * added (a breadth-first queue), found again by their canonical key. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "octad/octad.h"

typedef struct {
    octad_pos_t *pos;    /* by index, in the order added */
    uint64_t *board;     /* the keys, by index */
    uint16_t *state;
    size_t n, cap;
    uint32_t *slot;      /* hash table: index + 1, 0 empty */
    size_t nslots;
} cert_set_t;

/* An empty set; cert_set_free releases it. */
void cert_set_init(cert_set_t *s);
void cert_set_free(cert_set_t *s);
/* The index of canonical position p, or -1 if absent. */
long cert_set_find(const cert_set_t *s, const octad_pos_t *p);
/* The index of p, adding it at the end if absent (*added tells); -1 when out of memory. */
long cert_set_add(cert_set_t *s, const octad_pos_t *p, int *added);
