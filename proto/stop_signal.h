/* stop_signal.h: SIGTERM/SIGINT as a readable descriptor (the self-pipe trick),
 * shared by the coordinator and the worker, whose loops poll it next to their socket. */
#pragma once

/* Makes a non-blocking, close-on-exec pipe; SIGTERM and SIGINT then write one
 * byte (the signal number) to it, and SIGPIPE is ignored. Returns the read
 * end, or -1 (errno set) if no pipe can be made. Call once per process. */
int stop_signal_open(void);
