/* msg_samples.h: valid example messages of every type, for tests and the fuzz seed corpus. */
#pragma once

#include "msg.h"

/* Number of samples msg_sample knows for each type. */
enum { MSG_SAMPLES_PER_TYPE = 3 };

/* Fills *out with sample `which` (0..MSG_SAMPLES_PER_TYPE-1) of `type`: 0 is
 * typical, 1 uses minimum values and sizes, 2 maximum values and sizes
 * (counts of 2^128-1, strings and lists at their limits). Its bulk field, if
 * any, points into store, which must outlive *out. */
void msg_sample(msg_type_t type, int which, msg_t *out, msg_bulk_store_t *store);
