/* test_jfile.c: the one journal file: records round trip, torn tail cut, bad CRC refused with
 * its line, wrong kind or key refused naming the field, the lock against another process,
 * version-1 files, fresh files and renames. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "hash.h"
#include "jfile.h"

typedef struct {
    char dir[64];
    char path[160];
    char err[1024];
    char seen[16][128]; /* the records the visitor saw: "TYPE|field|field..." unescaped */
    int seen_nb;
    char refuse_type;   /* the visitor refuses records of this type */
} fixture_t;

static int s_setup(void **state)
{
    fixture_t *f = calloc(1, sizeof *f);
    assert_non_null(f);
    strcpy(f->dir, "/tmp/test_jfile.XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->path, sizeof f->path, "%s/j.journal", f->dir);
    *state = f;
    return 0;
}

static int s_teardown(void **state)
{
    fixture_t *f = *state;
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf %s", f->dir);
    assert_int_equal(system(cmd), 0);
    free(f);
    return 0;
}

static int s_visit(void *ctx, jfile_rec_t *rec, char *err, size_t errlen)
{
    fixture_t *f = ctx;
    if (rec->type == f->refuse_type) {
        snprintf(err, errlen, "record %c: field 1 \"%s\" refused", rec->type, rec->field_nb ? rec->field[0] : "");
        return -1;
    }
    assert_true(f->seen_nb < 16);
    char *out = f->seen[f->seen_nb++];
    size_t n = (size_t)snprintf(out, 128, "%c", rec->type);
    for (int i = 0; i < rec->field_nb; i++) {
        char plain[64];
        assert_int_equal(jfile_unescape(rec->field[i], plain, sizeof plain), 0);
        n += (size_t)snprintf(out + n, 128 - n, "|%s", plain);
    }
    return 0;
}

static jfile_spec_t s_spec(fixture_t *f, const char *kind, const char *key)
{
    return (jfile_spec_t){.kind = kind, .key = key, .visit = s_visit, .ctx = f};
}

static jfile_t *s_open(fixture_t *f, const char *kind, const char *key)
{
    jfile_spec_t spec = s_spec(f, kind, key);
    f->seen_nb = 0;
    return jfile_open(f->path, &spec, f->err, sizeof f->err);
}

static void s_add(jfile_t *j, char type, int n, const char *const *fields)
{
    char line[JFILE_LINE_MAX + 1];
    size_t len = jfile_format(line, sizeof line, type, n, fields);
    assert_true(len > 0);
    assert_int_equal(jfile_append(j, line, len), 0);
}

static void s_write_file(const char *path, const char *text, size_t len)
{
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    assert_int_equal(fwrite(text, 1, len, fp), len);
    fclose(fp);
}

static void s_append_raw(const char *path, const char *bytes, size_t len)
{
    int fd = open(path, O_WRONLY | O_APPEND);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, bytes, len), (ssize_t)len);
    close(fd);
}

static off_t s_size(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return st.st_size;
}

static void test_round_trip(void **state)
{
    fixture_t *f = *state;
    jfile_t *j = s_open(f, "perft", "job\twith tab %");
    assert_non_null(j);
    assert_int_equal(jfile_version(j), 2);
    assert_true(jfile_created(j)); /* this open wrote the header */
    s_add(j, 'T', 2, (const char *[]){"1", "a key"});
    s_add(j, 'C', 3, (const char *[]){"1", "w\n", ""});
    s_add(j, 'E', 0, NULL);
    jfile_destroy(&j);
    assert_null(j);
    jfile_destroy(&j); /* idempotent */

    FILE *fp = fopen(f->path, "r");
    char head[256];
    assert_non_null(fgets(head, sizeof head, fp));
    fclose(fp);
    /* the header names the version, the kind and the escaped key, then its CRC */
    assert_memory_equal(head, "OCTAD-JOURNAL\t2\tperft\tjob%09with tab %25\t", 40);

    j = s_open(f, "perft", "job\twith tab %");
    assert_non_null(j);
    assert_false(jfile_created(j)); /* an earlier open did */
    assert_int_equal(f->seen_nb, 3);
    assert_string_equal(f->seen[0], "T|1|a key");
    assert_string_equal(f->seen[1], "C|1|w\n|");
    assert_string_equal(f->seen[2], "E");
    jfile_destroy(&j);
}

/* A crash mid-append leaves a line without '\n': it is cut off, never a complete line. */
static void test_torn_tail_cut(void **state)
{
    fixture_t *f = *state;
    jfile_t *j = s_open(f, "perft", "job");
    s_add(j, 'T', 1, (const char *[]){"1"});
    jfile_destroy(&j);
    off_t whole = s_size(f->path);
    s_append_raw(f->path, "T\t2\tdeadbe", 10);
    j = s_open(f, "perft", "job");
    assert_non_null(j);
    assert_int_equal(f->seen_nb, 1);
    assert_int_equal(s_size(f->path), whole);
    s_add(j, 'T', 1, (const char *[]){"2"});
    jfile_destroy(&j);
    j = s_open(f, "perft", "job");
    assert_non_null(j);
    assert_int_equal(f->seen_nb, 2);
    assert_string_equal(f->seen[1], "T|2");
    jfile_destroy(&j);

    /* a torn header (a crash while the file was created) is written again */
    s_write_file(f->path, "OCTAD-JOURNAL\t2\tper", 19);
    j = s_open(f, "perft", "job");
    assert_non_null(j);
    assert_int_equal(f->seen_nb, 0);
    jfile_destroy(&j);
    assert_true(s_size(f->path) > 19);
    /* an unterminated first line that is not our header is not ours to cut */
    s_write_file(f->path, "hello", 5);
    assert_null(s_open(f, "perft", "job"));
    assert_non_null(strstr(f->err, "not an octad journal"));
    assert_int_equal(errno, EINVAL);
}

/* One changed byte in a complete line: refused with that line's number, nothing cut. */
static void test_bad_crc_refused_with_line(void **state)
{
    fixture_t *f = *state;
    jfile_t *j = s_open(f, "solve", "dir");
    s_add(j, 'M', 2, (const char *[]){"p1", "w1"});
    s_add(j, 'M', 2, (const char *[]){"p2", "w2"});
    s_add(j, 'V', 2, (const char *[]){"p1", "w3"});
    jfile_destroy(&j);
    off_t size = s_size(f->path);
    FILE *fp = fopen(f->path, "r+");
    char buf[512];
    size_t len = fread(buf, 1, sizeof buf, fp);
    char *third = strstr(buf, "M\tp2");
    assert_non_null(third);
    third[3] = '3'; /* line 3: p2 becomes p3 */
    rewind(fp);
    assert_int_equal(fwrite(buf, 1, len, fp), len);
    fclose(fp);
    assert_null(s_open(f, "solve", "dir"));
    assert_int_equal(errno, EINVAL);
    assert_non_null(strstr(f->err, f->path));
    assert_non_null(strstr(f->err, ":3: checksum mismatch"));
    assert_int_equal(s_size(f->path), size);

    /* a record without its CRC field, and a record whose type is not a letter */
    s_write_file(f->path, "", 0);
    j = s_open(f, "solve", "dir");
    jfile_destroy(&j);
    s_append_raw(f->path, "M p1\n", 5);
    assert_null(s_open(f, "solve", "dir"));
    assert_non_null(strstr(f->err, ":2: no checksum field"));
    s_write_file(f->path, "", 0);
    j = s_open(f, "solve", "dir");
    jfile_destroy(&j);
    snprintf(buf, sizeof buf, "m\tp1");
    snprintf(buf + 4, sizeof buf - 4, "\t%08x\n", (unsigned)hash_crc32(buf, 4));
    s_append_raw(f->path, buf, strlen(buf));
    assert_null(s_open(f, "solve", "dir"));
    assert_non_null(strstr(f->err, ":2: record type \"m\" is not one capital letter"));
}

static void test_wrong_kind_or_key_refused(void **state)
{
    fixture_t *f = *state;
    jfile_t *j = s_open(f, "analyse", "job A");
    jfile_destroy(&j);
    assert_null(s_open(f, "perft", "job A"));
    assert_int_equal(errno, EINVAL);
    assert_non_null(strstr(f->err, ":1: header: kind \"analyse\" is not this job's \"perft\""));
    assert_null(s_open(f, "analyse", "job B"));
    assert_int_equal(errno, EINVAL);
    assert_non_null(strstr(f->err, "another job (header field key \"job A\", not \"job B\")"));
    assert_non_null(strstr(f->err, f->path));
    /* a version this build does not know */
    char line[128];
    int n = snprintf(line, sizeof line, "OCTAD-JOURNAL\t3\tanalyse\tjob A");
    snprintf(line + n, sizeof line - (size_t)n, "\t%08x\n", (unsigned)hash_crc32(line, (size_t)n));
    s_write_file(f->path, line, strlen(line));
    assert_null(s_open(f, "analyse", "job A"));
    assert_non_null(strstr(f->err, ":1: header: format version \"3\""));
}

/* The visitor's refusal is reported with the file and the line. */
static void test_visitor_refusal_has_line(void **state)
{
    fixture_t *f = *state;
    jfile_t *j = s_open(f, "perft", "job");
    s_add(j, 'T', 1, (const char *[]){"1"});
    s_add(j, 'X', 1, (const char *[]){"odd"});
    jfile_destroy(&j);
    f->refuse_type = 'X';
    assert_null(s_open(f, "perft", "job"));
    assert_int_equal(errno, EINVAL);
    assert_non_null(strstr(f->err, ":3: record X: field 1 \"odd\" refused"));
}

/* Another process holds the journal: refused while it does, opened once it is gone. */
static void test_lock_held_by_another_process(void **state)
{
    fixture_t *f = *state;
    int ready[2], go[2];
    assert_int_equal(pipe(ready), 0);
    assert_int_equal(pipe(go), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) { /* holds the journal until the test writes to go, or ends (EOF) */
        close(go[1]), close(ready[0]);
        jfile_spec_t spec = {.kind = "perft", .key = "job"};
        char err[512], c = 'x';
        jfile_t *j = jfile_open(f->path, &spec, err, sizeof err);
        c = j != NULL ? 'y' : 'n';
        if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
            _exit(2); /* the test failed and ended first */
        _exit(j != NULL ? 0 : 1);
    }
    close(go[0]), close(ready[1]);
    char c = 0;
    assert_int_equal(read(ready[0], &c, 1), 1);
    assert_int_equal(c, 'y');
    assert_null(s_open(f, "perft", "job"));
    assert_int_equal(errno, EWOULDBLOCK);
    assert_non_null(strstr(f->err, "cannot lock"));
    assert_non_null(strstr(f->err, f->path));
    assert_int_equal(write(go[1], "g", 1), 1);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    jfile_t *j = s_open(f, "perft", "job");
    assert_non_null(j);
    jfile_destroy(&j);
    close(ready[0]), close(go[1]);
}

/* A version-1 file (the cluster journal's old header, no kind) is read only where accepted. */
static void test_version_1(void **state)
{
    fixture_t *f = *state;
    char line[256];
    int n = snprintf(line, sizeof line, "OCTAD-JOURNAL\t1\told job");
    n += snprintf(line + n, sizeof line - (size_t)n, "\t%08x\n", (unsigned)hash_crc32(line, (size_t)n));
    int m = snprintf(line + n, sizeof line - (size_t)n, "T\t1");
    snprintf(line + n + m, sizeof line - (size_t)(n + m), "\t%08x\n", (unsigned)hash_crc32(line + n, (size_t)m));
    s_write_file(f->path, line, strlen(line));
    assert_null(s_open(f, "perft", "old job"));
    assert_non_null(strstr(f->err, ":1: header: format version 1"));
    jfile_spec_t spec = s_spec(f, "perft", "old job");
    spec.accept_v1 = true;
    jfile_t *j = jfile_open(f->path, &spec, f->err, sizeof f->err);
    assert_non_null(j);
    assert_int_equal(jfile_version(j), 1);
    assert_int_equal(f->seen_nb, 1);
    assert_string_equal(f->seen[0], "T|1");
    jfile_destroy(&j);
    spec.key = "new job";
    assert_null(jfile_open(f->path, &spec, f->err, sizeof f->err));
    assert_non_null(strstr(f->err, "another job (header field key \"old job\""));
}

/* A fresh open discards the content; a rename keeps the file open, locked and appendable. */
static void test_fresh_and_rename(void **state)
{
    fixture_t *f = *state;
    s_write_file(f->path, "old text\n", 9);
    jfile_spec_t spec = {.kind = "verify-tables", .key = "/t", .fresh = true};
    char to[160];
    snprintf(to, sizeof to, "%s/moved.journal", f->dir);
    jfile_t *j = jfile_open(f->path, &spec, f->err, sizeof f->err);
    assert_non_null(j);
    assert_int_equal(jfile_rename(j, to), 0);
    assert_string_equal(jfile_path(j), to);
    s_add(j, 'V', 1, (const char *[]){"x"});
    snprintf(f->path, sizeof f->path, "%s", to);
    assert_null(s_open(f, "verify-tables", "/t"));
    assert_non_null(strstr(f->err, "cannot lock"));
    jfile_destroy(&j);
    j = s_open(f, "verify-tables", "/t");
    assert_non_null(j);
    assert_int_equal(f->seen_nb, 1);
    jfile_destroy(&j);
}

static void test_format_limits(void **state)
{
    (void)state;
    char big[JFILE_LINE_MAX], line[2 * JFILE_LINE_MAX];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    assert_int_equal(jfile_format(line, sizeof line, 'T', 1, (const char *[]){big}), 0);
    assert_int_equal(jfile_format(line, 8, 'T', 1, (const char *[]){"abc"}), 0);
    char out[8];
    assert_int_equal(jfile_unescape("%4", out, sizeof out), -1);
    assert_int_equal(jfile_unescape("%41%25", out, sizeof out), 0);
    assert_string_equal(out, "A%");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_round_trip, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_torn_tail_cut, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_bad_crc_refused_with_line, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_wrong_kind_or_key_refused, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_visitor_refusal_has_line, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_lock_held_by_another_process, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_version_1, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_fresh_and_rename, s_setup, s_teardown),
        cmocka_unit_test(test_format_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
