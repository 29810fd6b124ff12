/* test_log_line.c: the text log line (proto/log_line.h): UTF-8 as it is, anything else made
 * printable (\xNN), so a log every reader decodes whatever bytes reach a message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log_line.h"

/* What log_say writes to stderr, caught through a pipe. */
static void s_said(const char *name, const char *msg, char *out, size_t cap)
{
    int fds[2], saved = dup(STDERR_FILENO);
    assert_int_equal(pipe(fds), 0);
    dup2(fds[1], STDERR_FILENO);
    log_say(LOG_INFO, name, "%s", msg);
    dup2(saved, STDERR_FILENO);
    close(saved);
    close(fds[1]);
    ssize_t n = read(fds[0], out, cap - 1);
    close(fds[0]);
    out[n > 0 ? n : 0] = '\0';
}

static void test_utf8_as_is(void **state)
{
    (void)state;
    char out[256];
    log_setup(LOG_TEXT, "coordinator");
    s_said("w\xc3\xa9", "caf\xc3\xa9 ok", out, sizeof out);
    assert_string_equal(out, "coordinator w\xc3\xa9: caf\xc3\xa9 ok\n");
}

static void test_not_utf8_made_printable(void **state)
{
    (void)state;
    char out[256];
    log_setup(LOG_TEXT, "coordinator");
    s_said(NULL, "bad \xc1 byte, cut \xc3", out, sizeof out);
    assert_string_equal(out, "coordinator: bad \\xc1 byte, cut \\xc3\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_utf8_as_is),
        cmocka_unit_test(test_not_utf8_made_printable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
