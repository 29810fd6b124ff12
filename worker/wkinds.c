/* wkinds.c: the table of the worker's pool kinds (see wkind.h); a new kind is a file and a row here. */
#include "wkind.h"

#include "wanalyse.h"
#include "wperft.h"
#include "wsolve.h"

const wkind_t *const WKINDS[WKIND_NB] = {&WPERFT_KIND, &WANALYSE_KIND, &WSOLVE_KIND};

const wkind_t *wkind_find(msg_type_t type, bool *task)
{
    for (int k = 0; k < WKIND_NB; k++)
        for (int i = 0; i < WKIND_MSG_MAX && type != MSG_NONE; i++)
            if (WKINDS[k]->tasks[i] == type || WKINDS[k]->others[i] == type) {
                *task = WKINDS[k]->tasks[i] == type;
                return WKINDS[k];
            }
    return NULL;
}

int wkind_index(const wkind_t *kind)
{
    int k = 0;
    while (k < WKIND_NB - 1 && WKINDS[k] != kind)
        k++;
    return k;
}
