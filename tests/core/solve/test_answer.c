/* test_answer.c: core/solve/answer.c, the values printed by octad probe --deployed
 * and coordinator --solve --ofen/--starts: they must be right in a process that
 * never initialised the move generator itself (the coordinator's case). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "answer.h"
#include "index.h"
#include "solve.h"
#include "tb_record.h"

static char s_dir[64];

/* The tables up to 3 pieces, made in a child process so that this one has
 * not initialised anything when the test runs. */
static int s_setup(void **state)
{
    (void)state;
    snprintf(s_dir, sizeof s_dir, "/tmp/test_answer.XXXXXX");
    if (!mkdtemp(s_dir))
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        octad_init();
        solve_opts_t o = {.dir = s_dir, .max_pieces = 3, .threads = 1};
        gen_stats_t st = {0};
        char err[256];
        _exit(solve_all(&o, &st, err, sizeof err) == 0 ? 0 : 1);
    }
    int status = 0;
    return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int s_teardown(void **state)
{
    (void)state;
    char cmd[100];
    snprintf(cmd, sizeof cmd, "rm -rf %s", s_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* The best moves of text in a child process that initialised the move
 * generator first, as octad probe does: the reference. Returns nbest. */
static int s_reference(const char *text, octad_move_t *best)
{
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        octad_init();
        octad_pos_t p;
        char err[128];
        probe_move_t moves[GAME_MOVES_MAX];
        int nbest = 0;
        store_t *store = store_new(s_dir);
        if (octad_parse(text, &p, err, sizeof err) != 0 || probe_moves(store, &p, moves, &nbest) < 0)
            _exit(1);
        for (int i = 0; i < nbest; i++)
            if (write(fd[1], &moves[i].move, sizeof moves[i].move) != (ssize_t)sizeof moves[i].move)
                _exit(1);
        _exit(0);
    }
    close(fd[1]);
    int n = 0;
    while (n < GAME_MOVES_MAX && read(fd[0], &best[n], sizeof best[n]) == (ssize_t)sizeof best[n])
        n++;
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? n : -1;
}

static void test_answer_in_a_fresh_process(void **state)
{
    (void)state;
    const char *text = "k3/4/4/1KQ1 w - - 0 1"; /* KQvK: a win */
    octad_move_t want[GAME_MOVES_MAX];
    int nwant = s_reference(text, want);
    assert_true(nwant > 0);
    /* This process has not called octad_init: answer_get must not depend on that. */
    store_t *store = store_new(s_dir);
    answer_t a;
    char err[256];
    assert_int_equal(answer_get(store, text, &a, err, sizeof err), 0);
    assert_int_equal(a.v.wdl, REC_WIN);
    assert_int_equal(a.nbest, nwant);
    for (int i = 0; i < nwant; i++)
        assert_int_equal(a.best[i], want[i]);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    answer_print_starts(f, &a, 1, true);
    fclose(f);
    char json[GAME_TEXT_MAX + 80];
    snprintf(json, sizeof json, "{\"start\":0,\"position\":\"%s\",\"wdl\":\"win\",\"dtz\":%d,", a.text, a.v.dtz);
    assert_non_null(strstr(buf, json));
    free(buf);
    store_destroy(&store);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_answer_in_a_fresh_process)};
    return cmocka_run_group_tests(tests, s_setup, s_teardown);
}
