/* test_opt.c: the option parser of the three programs: values, ranges, errors and the generated help. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exit_codes.h"
#include "opt.h"

typedef struct {
    int threads;
    uint32_t lease;
    uint64_t big;
    size_t hash;
    bool quiet;
    double ratio;
    const char *name, *dir;
    uint64_t memory;
    int mode;
    const char *plain[4];
    int plain_nb;
} s_opts_t;

static int s_mode(const char *text, void *field, char *err, size_t errlen)
{
    if (strcmp(text, "fast") != 0 && strcmp(text, "slow") != 0) {
        snprintf(err, errlen, "give fast or slow, not '%s'", text);
        return -1;
    }
    *(int *)field = text[0] == 'f' ? 1 : 2;
    return 0;
}

static int s_plain(const char *arg, void *base, char *err, size_t errlen)
{
    s_opts_t *o = base;
    if (o->plain_nb == 4) {
        snprintf(err, errlen, "too many arguments");
        return -1;
    }
    o->plain[o->plain_nb++] = arg;
    return 0;
}

#define T(field) OPT_AT(s_opts_t, field)
static const opt_t s_rows[] = {
    {"--threads", 't', OPT_INT, "N", T(threads), "threads", .lo = 1, .hi = 256},
    {"--lease-ms", 0, OPT_INT, "MS", T(lease), "lease\nsecond line", .lo = 20, .hi = 86400000},
    {"--big", 0, OPT_INT, "N", T(big), "a 64-bit value", .lo = 0, .hi = 1LL << 40},
    {"--hash", 0, OPT_INT, "MB", T(hash), "table", .lo = 0, .hi = 1 << 20},
    {"--quiet", 'q', OPT_FLAG, NULL, T(quiet), "quiet"},
    {"--ratio", 0, OPT_DOUBLE, "R", T(ratio), "a ratio", .dlo = 0.5, .dhi = 2},
    {"--name", 0, OPT_STRING, "NAME", T(name), "a name"},
    {"--dir", 0, OPT_TEXT, "DIR", T(dir), "a directory", .alias = "--folder"},
    {"--memory", 0, OPT_GB, "GB", T(memory), "memory"},
    {"--mode", 0, OPT_CUSTOM, "M", T(mode), "fast or slow", .parse = s_mode},
};
#undef T

static const opt_spec_t s_spec = {.prog = "prog", .usage = "usage: prog [options]\n", .epilogue = "the end\n",
                                  .rows = s_rows, .row_nb = sizeof s_rows / sizeof s_rows[0], .plain = s_plain};

static char s_err[512];

/* Parses the NULL-terminated arguments into *o (zeroed first), stderr into s_err. */
static int s_run(s_opts_t *o, const char *first, ...)
{
    char *argv[32];
    int argc = 0;
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a != NULL && argc < 32; a = va_arg(ap, const char *))
        argv[argc++] = (char *)a;
    va_end(ap);
    memset(o, 0, sizeof *o);
    fflush(stderr);
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    int saved = dup(STDERR_FILENO);
    dup2(fileno(tmp), STDERR_FILENO);
    int rc = opt_parse(&s_spec, argc, argv, o);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    rewind(tmp);
    size_t n = fread(s_err, 1, sizeof s_err - 1, tmp);
    s_err[n] = '\0';
    fclose(tmp);
    return rc;
}

static void test_values_both_spellings(void **state)
{
    s_opts_t o;
    (void)state;
    assert_int_equal(s_run(&o, "--threads", "8", "--lease-ms=500", "--big", "1099511627776", "--hash=0", NULL), 0);
    assert_int_equal(o.threads, 8);
    assert_int_equal(o.lease, 500);
    assert_true(o.big == 1ULL << 40);
    assert_int_equal(o.hash, 0);
    assert_string_equal(s_err, "");
    assert_int_equal(s_run(&o, "-t", "3", "-q", "--ratio", "1.5", "--name=", "--folder", "d", NULL), 0);
    assert_int_equal(o.threads, 3);
    assert_true(o.quiet);
    assert_true(o.ratio == 1.5);
    assert_string_equal(o.name, "");
    assert_string_equal(o.dir, "d");
    assert_int_equal(s_run(&o, "-t7", "--memory", "11.5", "--mode", "slow", "file", "-", NULL), 0);
    assert_int_equal(o.threads, 7);
    assert_true(o.memory == 11500000000ULL);
    assert_int_equal(o.mode, 2);
    assert_int_equal(o.plain_nb, 2);
    assert_string_equal(o.plain[0], "file");
    assert_string_equal(o.plain[1], "-");
}

static void test_bad_integer(void **state)
{
    s_opts_t o;
    (void)state;
    assert_int_equal(s_run(&o, "--threads", "x", NULL), EXIT_USAGE);
    assert_string_equal(s_err, "prog: --threads: expected an integer in 1..256, got 'x' (see prog --help)\n");
    assert_int_equal(s_run(&o, "--threads", "4x", NULL), EXIT_USAGE);
    assert_int_equal(s_run(&o, "--threads", "", NULL), EXIT_USAGE);
    assert_int_equal(s_run(&o, "--threads", " 4", NULL), EXIT_USAGE);
    assert_int_equal(s_run(&o, "--big", "99999999999999999999999", NULL), EXIT_USAGE);
    assert_string_equal(s_err, "prog: --big: expected an integer in 0..1099511627776, got '99999999999999999999999' "
                               "(see prog --help)\n");
}

static void test_out_of_range(void **state)
{
    s_opts_t o;
    (void)state;
    assert_int_equal(s_run(&o, "--threads=0", NULL), EXIT_USAGE);
    assert_string_equal(s_err, "prog: --threads: expected an integer in 1..256, got '0' (see prog --help)\n");
    assert_int_equal(s_run(&o, "--threads", "257", NULL), EXIT_USAGE);
    assert_int_equal(s_run(&o, "--threads", "256", NULL), 0);
    assert_int_equal(s_run(&o, "--lease-ms", "-5", NULL), EXIT_USAGE);
    assert_int_equal(s_run(&o, "--ratio", "2.5", NULL), EXIT_USAGE);
    assert_string_equal(s_err, "prog: --ratio: expected a number in 0.5..2, got '2.5' (see prog --help)\n");
    assert_int_equal(s_run(&o, "--memory", "0", NULL), EXIT_USAGE);
    assert_string_equal(s_err, "prog: --memory: expected a number of GB in (0, 1000000], got '0' (see prog --help)\n");
}

static void test_missing_argument(void **state)
{
    s_opts_t o;
    (void)state;
    assert_int_equal(s_run(&o, "--threads", NULL), EXIT_USAGE);
    assert_string_equal(s_err, "prog: --threads needs a value (see prog --help)\n");
    assert_int_equal(s_run(&o, "--quiet", "-t", NULL), EXIT_USAGE);
    assert_string_equal(s_err, "prog: --threads needs a value (see prog --help)\n");
    assert_int_equal(s_run(&o, "--dir", "", NULL), EXIT_USAGE);
    assert_string_equal(s_err, "prog: --dir: expected a non-empty value (see prog --help)\n");
}

static void test_unknown_option(void **state)
{
    s_opts_t o;
    (void)state;
    assert_int_equal(s_run(&o, "--bogus", NULL), EXIT_USAGE);
    assert_string_equal(s_err, "prog: unknown option '--bogus' (see prog --help)\n");
    assert_int_equal(s_run(&o, "--thread", "4", NULL), EXIT_USAGE); /* no prefix matching */
    assert_string_equal(s_err, "prog: unknown option '--thread' (see prog --help)\n");
    assert_int_equal(s_run(&o, "--threadsx=4", NULL), EXIT_USAGE);
    assert_int_equal(s_run(&o, "--quiet=yes", NULL), EXIT_USAGE);
    assert_string_equal(s_err, "prog: --quiet takes no value, got '--quiet=yes' (see prog --help)\n");
    assert_int_equal(s_run(&o, "--mode", "medium", NULL), EXIT_USAGE);
    assert_string_equal(s_err, "prog: --mode: give fast or slow, not 'medium' (see prog --help)\n");
    assert_int_equal(s_run(&o, "a", "b", "c", "d", "e", NULL), EXIT_USAGE);
    assert_string_equal(s_err, "prog: too many arguments (see prog --help)\n");
}

static void test_help_from_rows(void **state)
{
    char buf[4096];
    (void)state;
    FILE *f = fmemopen(buf, sizeof buf, "w");
    assert_non_null(f);
    opt_help(&s_spec, f);
    fclose(f);
    assert_non_null(strstr(buf, "usage: prog [options]\n"));
    assert_non_null(strstr(buf, "\n  --threads N, -t          threads\n"));
    assert_non_null(strstr(buf, "\n  --lease-ms MS            lease\n                           second line\n"));
    assert_non_null(strstr(buf, "\n  --dir DIR, --folder DIR  a directory\n"));
    assert_non_null(strstr(buf, "\n  --help, -h               this text\nthe end\n"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_both_spellings), cmocka_unit_test(test_bad_integer),
        cmocka_unit_test(test_out_of_range),          cmocka_unit_test(test_missing_argument),
        cmocka_unit_test(test_unknown_option),        cmocka_unit_test(test_help_from_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
