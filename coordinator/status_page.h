/* status_page.h: the coordinator's live status page (status_page.html), embedded in the
 * binary at build time (tools/cmake/embed.cmake): served at GET / of --http
 * (status_http.h), loading nothing from elsewhere. */
#pragma once

#include <stddef.h>

extern const unsigned char status_page[];
extern const size_t status_page_len;
