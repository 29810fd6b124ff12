/* exit_deadline.c: the worker's bounded close (see exit_deadline.h). */
#include "exit_deadline.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static struct {
    int exit_code, ms;
    char text[256];
} s_deadline;

static void *s_main(void *arg)
{
    (void)arg;
    struct timespec left = {s_deadline.ms / 1000, (s_deadline.ms % 1000) * 1000000L};
    while (nanosleep(&left, &left) != 0 && errno == EINTR)
        ;
    ssize_t n = write(STDERR_FILENO, s_deadline.text, strlen(s_deadline.text));
    (void)n;
    _exit(s_deadline.exit_code);
}

void exit_deadline_arm(int exit_code, const char *name, int ms)
{
    pthread_t t;
    s_deadline.exit_code = exit_code;
    s_deadline.ms = ms;
    snprintf(s_deadline.text, sizeof s_deadline.text,
             "worker %.63s: gave up closing the session after %d ms (coordinator unreachable)\n", name, ms);
    if (pthread_create(&t, NULL, s_main, NULL) == 0)
        pthread_detach(t);
}
