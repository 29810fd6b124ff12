/* kind.c: the table of job kinds (see kind.h). */
#include "kind.h"

/* Perft last: it takes every command line the others do not want. */
static const job_ops_t *const s_kinds[] = {&kind_solve, &kind_analyse, &kind_perft};

const job_ops_t *kind_pick(const opts_t *o)
{
    size_t n = sizeof s_kinds / sizeof s_kinds[0];
    for (size_t k = 0; k + 1 < n; k++)
        if (s_kinds[k]->wanted(o))
            return s_kinds[k];
    return s_kinds[n - 1];
}
