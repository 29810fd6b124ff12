/* wperft.h: the worker's OCTP/1 perft TASKs (proto/PROTOCOL.md section 5):
 * checked and parsed on the I/O thread, counted by the compute pool
 * (compute.h), answered with RESULT. The OCTP/3 counterpart is wanalyse.h. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compute.h"
#include "msg.h"

/* The deepest perft a TASK may ask for. */
enum { WPERFT_DEPTH_MAX = 40 };

/* Checks a TASK of session generation gen and queues it on pool. Returns 0,
 * or the msg_code_t to REFUSE it with and the reason in reason (len bytes):
 * VARIANT, DEPTH (above WPERFT_DEPTH_MAX), POSITION (naming the parser's
 * problem), INTERNAL (out of memory). */
int wperft_submit(compute_t *pool, const msg_task_t *t, uint32_t gen, char *reason, size_t len);

/* The RESULT of a finished count. perturb (testing only, for verify mode)
 * makes it wrong by one node. */
void wperft_answer(const compute_done_t *d, bool perturb, msg_t *m);
