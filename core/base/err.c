/* err.c: the one way parsers report a problem (see err.h). */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>

int err_printf(char *err, size_t errlen, const char *fmt, ...)
{
    if (err != NULL && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}
