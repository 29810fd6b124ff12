/* test_child.c: a child process over pipes (core/base/child.h): lines in and out, arguments
 * passed whole, deadlines, how a child ended, and that stopping kills its whole process group. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "child.h"

static child_t *s_start(const char *command, const char *const *args, int nargs)
{
    char err[128] = "";
    child_t *c = child_new(command, args, nargs, err, sizeof err);
    assert_non_null(c);
    return c;
}

static child_read_t s_read(child_t *c, char *line, size_t cap, int ms)
{
    return child_read_line(c, line, cap, child_now_ms() + ms);
}

static void test_echo_lines(void **state)
{
    char line[64], how[128];
    child_t *c = s_start("while read -r l; do echo \"got $l\"; done", NULL, 0);
    (void)state;
    assert_int_equal(child_send(c, "one\ntwo\r\n"), 0);
    assert_int_equal(s_read(c, line, sizeof line, 5000), CHILD_LINE);
    assert_string_equal(line, "got one");
    assert_int_equal(s_read(c, line, sizeof line, 5000), CHILD_LINE);
    assert_string_equal(line, "got two"); /* the CR before the newline is dropped */
    child_close_input(c);
    assert_int_equal(s_read(c, line, sizeof line, 5000), CHILD_EOF);
    assert_int_equal(child_stop(c, 5000, how, sizeof how), 0);
    assert_string_equal(how, "exited with status 0");
    child_destroy(&c);
    assert_null(c);
    child_destroy(&c); /* safe on NULL */
}

static void test_arguments_whole_and_last_line(void **state)
{
    const char *args[] = {"two words", "fen r3k2r/8 w KQkq - 0 1", ""};
    char line[64];
    child_t *c = s_start("printf '%s|' \"$#\"; printf '[%s]' ", args, 3);
    (void)state;
    assert_int_equal(s_read(c, line, sizeof line, 5000), CHILD_LINE); /* no newline at the end: still a line */
    assert_string_equal(line, "3|[two words][fen r3k2r/8 w KQkq - 0 1][]");
    assert_int_equal(s_read(c, line, sizeof line, 5000), CHILD_EOF);
    child_destroy(&c);
}

static void test_long_line_cut(void **state)
{
    char line[16];
    child_t *c = s_start("head -c 40000 /dev/zero | tr '\\0' x; echo; echo after", NULL, 0);
    (void)state;
    assert_int_equal(s_read(c, line, sizeof line, 5000), CHILD_LINE);
    assert_string_equal(line, "xxxxxxxxxxxxxxx"); /* cut to cap - 1 */
    while (s_read(c, line, sizeof line, 5000) == CHILD_LINE && strcmp(line, "after") != 0)
        assert_int_equal(line[0], 'x');
    assert_string_equal(line, "after");
    child_destroy(&c);
}

/* True while pid runs (a zombie, not yet reaped by whoever inherited it, does not). */
static bool s_alive(pid_t pid)
{
    char path[64], stat[256];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return false;
    size_t n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[n] = '\0';
    const char *close = strrchr(stat, ')');
    return close != NULL && close[1] == ' ' && close[2] != 'Z' && close[2] != 'X';
}

static void test_timeout_and_group_killed(void **state)
{
    char line[64], how[128];
    /* a script whose engine is a grandchild: stopping the script must stop it too */
    child_t *c = s_start("sleep 30 & echo $!; wait", NULL, 0);
    (void)state;
    assert_int_equal(s_read(c, line, sizeof line, 5000), CHILD_LINE);
    pid_t grandchild = (pid_t)atoi(line);
    assert_true(grandchild > 0);
    long t0 = child_now_ms();
    assert_int_equal(s_read(c, line, sizeof line, 200), CHILD_TIMEOUT);
    assert_true(child_now_ms() - t0 < 3000);
    assert_int_equal(child_stop(c, 0, how, sizeof how), -1);
    assert_string_equal(how, "stopped by us after 0 ms");
    for (int i = 0; i < 200 && s_alive(grandchild); i++)
        usleep(10000);
    assert_false(s_alive(grandchild));
    child_destroy(&c);
}

static void test_how_it_ended(void **state)
{
    char line[8], how[128];
    child_t *c = s_start("exit 3", NULL, 0);
    (void)state;
    assert_int_equal(s_read(c, line, sizeof line, 5000), CHILD_EOF);
    child_stop(c, 5000, how, sizeof how);
    assert_string_equal(how, "exited with status 3");
    child_destroy(&c);
    c = s_start("kill -SEGV $$", NULL, 0);
    assert_int_equal(s_read(c, line, sizeof line, 5000), CHILD_EOF);
    child_stop(c, 5000, how, sizeof how);
    assert_non_null(strstr(how, "killed by signal 11"));
    child_destroy(&c);
    c = s_start("sh -c 'kill -SEGV $$'; exit $?", NULL, 0); /* a shell reports its child's signal as 128 + N */
    assert_int_equal(s_read(c, line, sizeof line, 5000), CHILD_EOF);
    child_stop(c, 5000, how, sizeof how);
    assert_non_null(strstr(how, "exited with status 139, a shell's word for killed by signal 11"));
    child_destroy(&c);
}

static void test_send_to_gone_child(void **state)
{
    char line[8];
    child_t *c = s_start("exec 0<&-; exit 0", NULL, 0);
    (void)state;
    assert_int_equal(s_read(c, line, sizeof line, 5000), CHILD_EOF);
    usleep(50000);
    assert_int_equal(child_send(c, "x\n"), -1); /* EPIPE, not SIGPIPE */
    child_destroy(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_echo_lines),
        cmocka_unit_test(test_arguments_whole_and_last_line),
        cmocka_unit_test(test_long_line_cut),
        cmocka_unit_test(test_timeout_and_group_killed),
        cmocka_unit_test(test_how_it_ended),
        cmocka_unit_test(test_send_to_gone_child),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
