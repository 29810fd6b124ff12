/* wsolve.h: the worker's OCTP/2 SOLVE and VERIFY tasks (proto/PROTOCOL.md section 11), an
 * exclusive pool kind (wkind.h): checked on the I/O thread, the tables the task reads fetched
 * into the cache (or read from a directory shared with the coordinator) in a phase before it
 * runs, then the pair solved or verified with every thread of the pool (wsolve_run.h); the
 * FETCHes of the files this worker made are answered from the cache. */
#pragma once

#include "wkind.h"

/* The solve row. open makes the table directory (--tables DIR, or a private temporary one
 * that close removes, unless a pair still runs). prepare refuses BAD_MESSAGE (not a pair's
 * primary table, a VERIFY's tables not the pair's), MEMORY (a pair estimated beyond
 * --memory), TABLE (a table the task reads is not in the shared directory as the
 * coordinator has it), INTERNAL (out of memory). fetch (and message, on each CHUNK) fetches
 * the missing tables one by one and refuses TABLE when a transfer fails. message answers a
 * FETCH with a CHUNK of a file made here lately, or an ERROR TABLE. The pool's shared state
 * is the store over the directory, kept across pairs. answer: SOLVED or VERIFIED; a failed
 * run is refused INTERNAL; perturb changes nothing (under --inject-fault, every Nth CHUNK
 * this worker serves is corrupt instead). */
extern const wkind_t WSOLVE_KIND;
