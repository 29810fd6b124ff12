/* exit_codes.h: the exit statuses of the three programs (octad, coordinator, worker), defined once. */
#pragma once

/* Contract: these numbers are part of the user interface. Scripts, the tests and the
 * man pages (EXIT STATUS of octad(1), coordinator(1), worker(1)) depend on them, so a
 * value never changes; a new status gets a new, higher number.
 *
 *   EXIT_OK        0  the command did what it was asked (a worker also after SIGTERM/SIGINT)
 *   EXIT_FAIL      1  it could not: an I/O or system error, a lost coordinator, an
 *                     inconsistent table file (octad verify-tables)
 *   EXIT_USAGE     2  bad usage or bad input: an unknown option, a bad option value, a
 *                     bad position or file; a one-line message on stderr names the problem
 *   EXIT_MISMATCH  3  coordinator: the total differs from the reference or --expect,
 *                     or --verify left tasks whose results disagree (listed on stderr);
 *                     octad perft --compare/--check-engine: the engine's counts differ from ours
 *   EXIT_NO_COORDINATOR 4  worker --once: after a session, no new one with the coordinator for
 *                     --once-wait seconds (its job most likely ended unheard: a missed BYE) */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2, EXIT_MISMATCH = 3, EXIT_NO_COORDINATOR = 4 };
