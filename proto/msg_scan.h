/* msg_scan.h: bounds check of raw MessagePack before any allocation (private to proto/). */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* Deepest container nesting an OCTP message needs: envelope > stats > count. */
enum { MSG_SCAN_DEPTH_MAX = 3 };

/* Checks that data[0..len) is exactly one well-formed MessagePack value whose
 * containers nest at most MSG_SCAN_DEPTH_MAX deep and never declare more
 * elements than bytes remain (so unpacking allocates O(len)). Returns 0, or
 * -1 with a message naming the byte offset and the problem. */
int msg_scan(const uint8_t *data, size_t len, char *err, size_t errlen);
