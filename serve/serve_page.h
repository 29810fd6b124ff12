/* serve_page.h: the explorer page (serve/explorer/index.html), embedded in the
 * binary at build time (tools/cmake/embed.cmake): served at / with nothing
 * loaded from elsewhere. */
#pragma once

#include <stddef.h>

extern const unsigned char serve_page[];
extern const size_t serve_page_len;
