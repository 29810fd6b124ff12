/* child.h: a child process spoken to over pipes, line by line, with deadlines.
 *
 * Used by whatever drives another program: the UCI player (core/engine) and the
 * perft comparison of `octad perft --compare` (cli/perft_engine.c). The child runs
 * `sh -c 'COMMAND "$@"' sh ARG...` (just `sh -c COMMAND` without arguments) in its own process group, so a command that is
 * a shell pipeline or a script is stopped whole; its stderr is ours. */
#pragma once

#include <stddef.h>

typedef struct child child_t;

/* What child_read_line() found. */
typedef enum { CHILD_LINE = 0, CHILD_EOF = -1, CHILD_TIMEOUT = -2 } child_read_t;

/* Starts COMMAND with the extra arguments args[0..nargs-1] (passed as "$@", never
 * re-split by the shell), its stdin and stdout on pipes. SIGPIPE is ignored from
 * then on (a child that exits must not kill us on our next write). NULL with a
 * message in err if the pipes or the process cannot be had. The caller owns it. */
child_t *child_new(const char *command, const char *const *args, int nargs, char *err, size_t errlen);

/* Writes text to the child's stdin; 0, or -1 if the child no longer reads. */
int child_send(child_t *self, const char *text);

/* Closes the child's stdin (it sees end of input). Idempotent. */
void child_close_input(child_t *self);

/* Reads the next line (without its newline or a trailing CR, cut to cap - 1
 * bytes) into line, waiting until deadline_ms (child_now_ms() clock) at most. */
child_read_t child_read_line(child_t *self, char *line, size_t cap, long deadline_ms);

/* Monotonic milliseconds, the clock of the deadlines. */
long child_now_ms(void);

/* Closes the pipes, waits up to grace_ms for the child to exit, then kills its
 * process group; writes how it ended ("exited with status 0", "killed by signal
 * 11 (Segmentation fault)") into how (howlen bytes, may be 0). Returns its wait
 * status, or -1 if it was killed here. Idempotent: a second call repeats the first answer. */
int child_stop(child_t *self, int grace_ms, char *how, size_t howlen);

/* child_stop(self, 1000, NULL, 0) if not stopped yet, frees *self_p, sets it to NULL; safe on NULL. */
void child_destroy(child_t **self_p);
