/* json.h: the one JSON string writer of the octad command's --json outputs. */
#pragma once

#include <stdio.h>

/* Writes s as a quoted JSON string (escapes quotes, backslashes and control bytes). */
void json_write_string(FILE *f, const char *s);
