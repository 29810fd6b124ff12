/* variant_opt.h: --variant V as an option row's parser (core/base/opt.h, OPT_CUSTOM). */
#pragma once

#include <stddef.h>

/* Reads "octad", "chess" or "chess960" into the variant_t at field; 0, or -1 with
 * "unknown variant 'V' (octad, chess, chess960)" in err. */
int variant_opt_parse(const char *text, void *field, char *err, size_t errlen);
