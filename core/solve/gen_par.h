/* gen_par.h: a parallel loop for the generator: [0, n) cut into chunks that
 * `threads` threads take in turn. */
#pragma once

#include <stdint.h>

/* Processes [from, to) as worker `worker` (0 .. threads-1); 0, or -1 to stop
 * every worker at its next chunk. */
typedef int (*gen_par_fn)(void *ctx, int worker, uint32_t from, uint32_t to);

enum { GEN_PAR_MAX = 16 }; /* most threads a loop uses */

/* Runs fn over [0, n) in chunks of `chunk` with min(threads, GEN_PAR_MAX)
 * threads (the caller's thread is worker 0); returns once all are done. 0,
 * or -1 if any call returned -1 or no thread could be started. */
int gen_par_for(int threads, uint32_t n, uint32_t chunk, gen_par_fn fn, void *ctx);
