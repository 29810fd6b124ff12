/* wkinds.c: the table of the worker's pool kinds (see wkind.h); a new kind is a file and a row here. */
#include "wkind.h"

#include "wanalyse.h"
#include "wperft.h"

const wkind_t *const WKINDS[WKIND_NB] = {&WPERFT_KIND, &WANALYSE_KIND};

const wkind_t *wkind_find(msg_type_t type)
{
    for (int k = 0; k < WKIND_NB; k++)
        if (WKINDS[k]->type == type)
            return WKINDS[k];
    return NULL;
}
