/* worker_page.h: one worker's live status page (worker_page.html), embedded in the binary
 * at build time (tools/cmake/embed.cmake): served at GET / of --http (status_http.h),
 * loading nothing from elsewhere. */
#pragma once

#include <stddef.h>

extern const unsigned char worker_page[];
extern const size_t worker_page_len;
