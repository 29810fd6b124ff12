/* stop_signal.c: see stop_signal.h. */
#include "stop_signal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

static int s_stop_wr = -1;

static void s_on_signal(int sig)
{
    int saved = errno;
    char b = (char)sig;
    ssize_t rc = write(s_stop_wr, &b, 1); /* a full pipe already says "stop" */
    (void)rc;
    errno = saved;
}

int stop_signal_open(void)
{
    int fds[2];
    if (pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0)
        return -1;
    s_stop_wr = fds[1];
    struct sigaction sa = {.sa_handler = s_on_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    return fds[0];
}
