/* err.h: the one way parsers report a problem: a message into the caller's buffer. */
#pragma once

#include <stddef.h>

/* Writes the printf-style message into err (errlen bytes; err may be NULL or
 * errlen 0, then nothing is written). Always returns -1, so a parser can
 * `return err_printf(err, errlen, "field: problem");`. */
int err_printf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
