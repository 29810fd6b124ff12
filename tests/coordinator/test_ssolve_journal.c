/* test_ssolve_journal.c: DIR/solve.journal, the solve job's journal (coordinator/ssolve_journal.h):
 * DIR/VERIFIED of an earlier coordinator (tests/data/solve-verified-v1.txt) converted to V records,
 * its torn last line ignored, a damaged line refused naming the file, line and field, and a
 * resume after a kill that still knows the verified pairs. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "sdag.h"
#include "sig.h"
#include "ssolve_journal.h"

typedef struct {
    char dir[64];
    char verified[128];
    char journal[128];
    char err[1024];
    sdag_t g;
} fixture_t;

static int s_setup(void **state)
{
    fixture_t *f = calloc(1, sizeof *f);
    assert_non_null(f);
    strcpy(f->dir, "/tmp/test_ssolve_journal.XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->verified, sizeof f->verified, "%s/VERIFIED", f->dir);
    snprintf(f->journal, sizeof f->journal, "%s/solve.journal", f->dir);
    sig_init();
    assert_int_equal(sdag_build(&f->g, 4), 0); /* the 33 pairs of up to 4 pieces */
    *state = f;
    return 0;
}

static int s_teardown(void **state)
{
    fixture_t *f = *state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
    assert_int_equal(system(cmd), 0);
    sdag_free(&f->g);
    free(f);
    return 0;
}

/* Copies the committed sample (the format of DIR/VERIFIED before the journal) to DIR/VERIFIED. */
static void s_put_sample(const fixture_t *f)
{
    const char *data = getenv("OCTAD_TEST_DATA");
    assert_non_null(data);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cp '%s/solve-verified-v1.txt' '%s'", data, f->verified);
    assert_int_equal(system(cmd), 0);
}

static void s_append_text(const char *path, const char *text, size_t len)
{
    FILE *fp = fopen(path, "a");
    assert_non_null(fp);
    assert_int_equal(fwrite(text, 1, len, fp), len);
    assert_int_equal(fclose(fp), 0);
}

static bool s_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Lines of the journal that start with type and a TAB. */
static int s_records(const char *path, char type)
{
    char line[4096];
    int n = 0;
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    while (fgets(line, sizeof line, fp))
        n += line[0] == type && line[1] == '\t';
    fclose(fp);
    return n;
}

static int s_pair(const fixture_t *f, const char *name)
{
    for (int k = 0; k < f->g.n; k++)
        if (strcmp(f->g.pairs[k].name, name) == 0)
            return k;
    fail_msg("pair %s is not in the graph", name);
    return -1;
}

/* Fills refs with n files (names, sizes, CRCs). */
static void s_refs(msg_tableref_t *refs, int n, const char *const *files, const uint64_t *sizes, const uint32_t *crcs)
{
    memset(refs, 0, (size_t)n * sizeof *refs);
    for (int c = 0; c < n; c++) {
        snprintf(refs[c].name, sizeof refs[c].name, "%s", files[c]);
        refs[c].size = sizes[c];
        refs[c].crc = crcs[c];
    }
}

/* Whether pair name (primary table first, n files) is verified with these sizes and CRCs. */
static bool s_verified(const fixture_t *f, ssolve_journal_t *j, const char *name, int n, const char *const *files,
                       const uint64_t *sizes, const uint32_t *crcs)
{
    msg_tableref_t refs[2];
    s_refs(refs, n, files, sizes, crcs);
    return ssolve_journal_verified(j, s_pair(f, name), refs, n);
}

static const char *const s_kp[] = {"KvKP", "KPvK"}, *const s_kr[] = {"KvKR", "KRvK"}, *const s_kq[] = {"KvKQ", "KQvK"};
static const uint64_t s_kp_size[] = {1187, 1423}, s_kr_size[] = {2210, 2398}, s_kq_size[] = {2204, 2204};
static const uint32_t s_kp_crc[] = {0x3f0a9c12, 0xb7e1d004}, s_kr_crc[] = {0xe2a49b06, 0x41f7c3d8},
                      s_kr_old_crc[] = {0x00c4e9f7, 0x9d2f6a51}, s_kq_crc[] = {0x1c3b5d7e, 0x1c3b5d7e};

/* What the sample says, through the journal: the pairs whose files it all lists, as last listed. */
static void s_check_sample(const fixture_t *f, ssolve_journal_t *j)
{
    static const uint64_t kpkp_size = 30110;
    static const uint32_t kpkp_crc = 0x5a5a0f3c, kpkp_bad = 0x5a5a0f3d;
    static const char *const kpkp[] = {"KPvKP"};
    assert_true(s_verified(f, j, "KvKP", 2, s_kp, s_kp_size, s_kp_crc));
    assert_true(s_verified(f, j, "KvKR", 2, s_kr, s_kr_size, s_kr_crc));
    assert_false(s_verified(f, j, "KvKR", 2, s_kr, s_kr_size, s_kr_old_crc)); /* its last listing counts */
    assert_true(s_verified(f, j, "KPvKP", 1, kpkp, &kpkp_size, &kpkp_crc));
    assert_false(s_verified(f, j, "KPvKP", 1, kpkp, &kpkp_size, &kpkp_bad));
    assert_false(s_verified(f, j, "KvKQ", 2, s_kq, s_kq_size, s_kq_crc)); /* KQvK is not listed */
}

/* An earlier coordinator's DIR/VERIFIED becomes V records (one a pair whose files it all lists,
 * including a pair of another graph), and the list is kept as VERIFIED.old. */
static void test_old_list_converted(void **state)
{
    fixture_t *f = *state;
    s_put_sample(f);
    ssolve_journal_t *j = ssolve_journal_open(f->dir, "dir-id", &f->g, f->err, sizeof f->err);
    assert_non_null(j);
    assert_int_equal(ssolve_journal_converted(j), 4); /* KvKP, KvKR, KPvKP, KNvKNP */
    s_check_sample(f, j);
    ssolve_journal_destroy(&j);
    assert_null(j);
    assert_false(s_exists(f->verified));
    char old[160];
    snprintf(old, sizeof old, "%s.old", f->verified);
    assert_true(s_exists(old));
    assert_int_equal(s_records(f->journal, 'V'), 4);
    /* reopened without the list: the records alone say the same */
    j = ssolve_journal_open(f->dir, "dir-id", &f->g, f->err, sizeof f->err);
    assert_non_null(j);
    assert_int_equal(ssolve_journal_converted(j), -1);
    s_check_sample(f, j);
    ssolve_journal_destroy(&j);
}

/* A last line without its newline (an append a crash cut) is ignored: it would complete KvKQ. */
static void test_old_torn_last_line_ignored(void **state)
{
    fixture_t *f = *state;
    static const char torn[] = "KQvK 2204 1c3b5d7e A";
    s_put_sample(f);
    s_append_text(f->verified, torn, strlen(torn));
    ssolve_journal_t *j = ssolve_journal_open(f->dir, "dir-id", &f->g, f->err, sizeof f->err);
    assert_non_null(j);
    assert_int_equal(ssolve_journal_converted(j), 4);
    s_check_sample(f, j);
    ssolve_journal_destroy(&j);
}

/* A damaged complete line stops the job: the message names the file, the line and the field,
 * errno is EINVAL (the coordinator exits 2), and the list is left as it is. */
static void test_old_damaged_line_refused(void **state)
{
    fixture_t *f = *state;
    static const struct {
        const char *line, *want;
        size_t len; /* 0: strlen */
    } cases[] = {
        {"KvKN 1187 3f0a9c1 A\n", "VERIFIED:11: CRC \"3f0a9c1\" is not 8 lower-case hex digits", 0},
        {"KvKN 1187 3F0A9C12 A\n", "VERIFIED:11: CRC \"3F0A9C12\"", 0},
        {"KvKN 11x7 3f0a9c12 A\n", "VERIFIED:11: SIZE \"11x7\" is not a decimal number", 0},
        {"KvKX 1187 3f0a9c12 A\n", "VERIFIED:11: NAME \"KvKX\"", 0},
        {"kvkn 1187 3f0a9c12 A\n", "VERIFIED:11: NAME \"kvkn\" is not spelt as the table's file (KvKN)", 0},
        {"KvKN 1187 3f0a9c12 \n", "VERIFIED:11: WORKER \"\" is empty", 0},
        {"KvKN 1187 3f0a9c12\n", "VERIFIED:11: 3 fields: expected NAME SIZE CRC WORKER", 0},
        {"\n", "VERIFIED:11: 1 field: expected NAME SIZE CRC WORKER", 0},
        {"KvKN 1187\0 3f0a9c12 A\n", "VERIFIED:11: a NUL byte at column 10", sizeof "KvKN 1187\0 3f0a9c12 A\n" - 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        s_put_sample(f);
        size_t len = cases[c].len ? cases[c].len : strlen(cases[c].line);
        s_append_text(f->verified, cases[c].line, len);
        s_append_text(f->verified, "KQvK 2204 1c3b5d7e A\n", 21); /* damage is not only at the end */
        errno = 0;
        ssolve_journal_t *j = ssolve_journal_open(f->dir, "dir-id", &f->g, f->err, sizeof f->err);
        assert_null(j);
        assert_int_equal(errno, EINVAL);
        if (strstr(f->err, f->verified) == NULL || strstr(f->err, cases[c].want) == NULL)
            fail_msg("case %zu: \"%s\" does not name %s and \"%s\"", c, f->err, f->verified, cases[c].want);
        assert_true(s_exists(f->verified));
        assert_int_equal(s_records(f->journal, 'V'), 0);
    }
}

/* A coordinator killed after the conversion and a record: the next one knows every verified
 * pair and the maker; the list put back (a crash before its rename) adds no record, and a V
 * record written after the list wins over it. */
static void test_resume_after_kill(void **state)
{
    fixture_t *f = *state;
    s_put_sample(f);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char err[1024];
        msg_tableref_t refs[2];
        s_refs(refs, 2, s_kq, s_kq_size, s_kq_crc);
        ssolve_journal_t *j = ssolve_journal_open(f->dir, "dir-id", &f->g, err, sizeof err);
        if (j == NULL || ssolve_journal_made(j, s_pair(f, "KvKQ"), "A", refs, 2, err, sizeof err) != 0)
            _exit(1);
        kill(getpid(), SIGKILL);
        _exit(2);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    ssolve_journal_t *j = ssolve_journal_open(f->dir, "dir-id", &f->g, f->err, sizeof f->err);
    assert_non_null(j);
    s_check_sample(f, j);
    msg_tableref_t refs[2];
    s_refs(refs, 2, s_kq, s_kq_size, s_kq_crc);
    const char *maker = ssolve_journal_maker(j, s_pair(f, "KvKQ"), refs, 2);
    assert_non_null(maker);
    assert_string_equal(maker, "A");
    /* KvKP verified again after its files were remade: this record is newer than the list */
    uint32_t new_crc[2] = {0x01020304, 0x05060708};
    s_refs(refs, 2, s_kp, s_kp_size, new_crc);
    assert_int_equal(ssolve_journal_checked(j, s_pair(f, "KvKP"), "B", refs, 2, f->err, sizeof f->err), 0);
    ssolve_journal_destroy(&j);
    s_put_sample(f); /* as if the kill came between the records and the rename */
    j = ssolve_journal_open(f->dir, "dir-id", &f->g, f->err, sizeof f->err);
    assert_non_null(j);
    assert_int_equal(ssolve_journal_converted(j), 0);
    assert_int_equal(s_records(f->journal, 'V'), 5);
    assert_true(s_verified(f, j, "KvKP", 2, s_kp, s_kp_size, new_crc));
    assert_false(s_verified(f, j, "KvKP", 2, s_kp, s_kp_size, s_kp_crc));
    assert_true(s_verified(f, j, "KvKR", 2, s_kr, s_kr_size, s_kr_crc));
    ssolve_journal_destroy(&j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_old_list_converted, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_old_torn_last_line_ignored, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_old_damaged_line_refused, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_resume_after_kill, s_setup, s_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
