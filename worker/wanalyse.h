/* wanalyse.h: the worker's OCTP/3 ANALYSE tasks (proto/PROTOCOL.md section
 * 12): checked and parsed on the I/O thread, searched on a compute thread
 * (engine_split_move, the computation of `octad search --split`), answered
 * with ANALYSED. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "compute.h"
#include "engine.h"
#include "msg.h"

/* Checks an ANALYSE and fills *job (job->game is allocated: the compute
 * pool frees it). Returns 0, or the msg_code_t to REFUSE it with and the
 * reason in reason (VARIANT, POSITION for a start position, a game move or
 * a root move that is not legal, INTERNAL out of memory). */
int wanalyse_prepare(const msg_analyse_t *a, uint32_t gen, compute_job_t *job, char *reason, size_t len);

/* wanalyse_prepare, then the job queued on pool (delay_ms: testing only, the
 * thread waits that long first). 0, or the REFUSE code and reason. */
int wanalyse_submit(compute_t *pool, const msg_analyse_t *a, uint32_t gen, unsigned delay_ms, char *reason,
                    size_t len);

/* Runs an analysis job on this thread's engine *eng (made, or re-made when
 * the table size *eng_mb differs); fills out (out->failed when the table
 * cannot be allocated). */
void wanalyse_run(const compute_job_t *job, engine_t **eng, uint32_t *eng_mb, compute_done_t *out);

/* The ANALYSED of a finished analysis. perturb (testing only) adds 1 to the score. */
void wanalyse_answer(const compute_done_t *d, bool perturb, msg_t *m);
