/* variant_opt.c: --variant V for the programs' option tables (see variant_opt.h). */
#include "variant_opt.h"

#include <stdio.h>

#include "game.h"

int variant_opt_parse(const char *text, void *field, char *err, size_t errlen)
{
    if (game_variant_parse(text, (variant_t *)field) != 0) {
        snprintf(err, errlen, "unknown variant '%.40s' (octad, chess, chess960)", text);
        return -1;
    }
    return 0;
}
