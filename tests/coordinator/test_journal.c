/* test_journal.c: the coordinator's journal: round trip, reopen, wrong job, torn and corrupt lines, duplicates, size,
 * the start record. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "hash.h"
#include "journal.h"
#include "journal_line.h"

typedef struct {
    char dir[64];
    char path[128];
    char err[512];
} fixture_t;

static int s_setup(void **state)
{
    fixture_t *f = calloc(1, sizeof *f);
    assert_non_null(f);
    strcpy(f->dir, "/tmp/test_journal.XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->path, sizeof f->path, "%s/job.journal", f->dir);
    *state = f;
    return 0;
}

static int s_teardown(void **state)
{
    fixture_t *f = *state;
    unlink(f->path);
    rmdir(f->dir);
    free(f);
    return 0;
}

static perft_stats_t s_stats(count_t nodes, unsigned seed)
{
    perft_stats_t st = { .nodes = nodes, .captures = seed, .en_passant = seed % 3, .castles = seed % 5,
                         .promotions = seed % 7, .checks = seed * 3, .mates = seed % 2,
                         .discovered_checks = seed % 11, .double_checks = seed % 13, .stalemates = seed % 17 };
    st.castle_kind[CASTLE_NEAR] = 1;
    st.castle_kind[CASTLE_CENTER] = 2;
    st.castle_kind[CASTLE_FAR] = (count_t)1 << 100; /* needs all 128 bits */
    return st;
}

static void s_append_raw(const char *path, const char *bytes, size_t len)
{
    int fd = open(path, O_WRONLY | O_APPEND);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, bytes, len), (ssize_t)len);
    close(fd);
}

static off_t s_file_size(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return st.st_size;
}

static void test_round_trip_and_reopen(void **state)
{
    fixture_t *f = *state;
    const count_t big = ((count_t)0x0123456789ABCDEFull << 64) | 0xFEDCBA9876543210ull;
    perft_stats_t st = s_stats(big, 11), got;
    journal_t *j = journal_open(f->path, "perft", "octad start depth 9", f->err, sizeof f->err);
    assert_non_null(j);
    assert_int_equal(journal_done_nb(j), 0);
    assert_int_equal(journal_append(j, 1, "octad ppkn/4/4/NKPP w NCFncf - 0 1 5", 12345, NULL), 0);
    assert_int_equal(journal_append(j, 7, "key\twith\ttabs\nand 100% newline", big, &st), 0);
    for (int pass = 0; pass < 2; pass++) {
        count_t nodes = 0;
        assert_int_equal(journal_done_nb(j), 2);
        assert_true(journal_lookup(j, 1, &nodes, &got));
        assert_true(nodes == 12345);
        assert_true(got.nodes == 0 && got.captures == 0); /* no stats recorded: zeroed */
        assert_false(journal_has_stats(j, 1));
        assert_true(journal_lookup(j, 7, &nodes, NULL));
        assert_true(nodes == big);
        assert_true(journal_lookup(j, 7, &nodes, &got));
        assert_memory_equal(&got, &st, sizeof st);
        assert_true(journal_has_stats(j, 7));
        assert_false(journal_lookup(j, 2, &nodes, NULL));
        assert_false(journal_has_stats(j, 2));
        journal_destroy(&j);
        assert_null(j);
        journal_destroy(&j); /* idempotent */
        j = journal_open(f->path, "perft", "octad start depth 9", f->err, sizeof f->err);
        assert_non_null(j);
    }
    journal_destroy(&j);
}

static void test_wrong_job_refused(void **state)
{
    fixture_t *f = *state;
    journal_t *j = journal_open(f->path, "perft", "job A", f->err, sizeof f->err);
    assert_non_null(j);
    assert_int_equal(journal_append(j, 3, "t", 9, NULL), 0);
    journal_destroy(&j);
    off_t size = s_file_size(f->path);
    assert_null(journal_open(f->path, "perft", "job B", f->err, sizeof f->err));
    assert_non_null(strstr(f->err, f->path));
    assert_non_null(strstr(f->err, "another job"));
    assert_int_equal(s_file_size(f->path), size); /* untouched */
}

static void test_not_a_journal_refused(void **state)
{
    fixture_t *f = *state;
    FILE *fp = fopen(f->path, "w");
    assert_non_null(fp);
    fputs("hello world, no newline", fp);
    fclose(fp);
    assert_null(journal_open(f->path, "perft", "job", f->err, sizeof f->err));
    assert_non_null(strstr(f->err, "not an octad journal"));
    assert_int_equal(s_file_size(f->path), 23); /* never truncated */
    fp = fopen(f->path, "w");
    assert_non_null(fp);
    fputs("OCTAD-JOURNAL\t2\tjob\t00000000\n", fp);
    fclose(fp);
    assert_null(journal_open(f->path, "perft", "job", f->err, sizeof f->err));
    assert_non_null(strstr(f->err, ":1: checksum mismatch"));
}

static void test_torn_last_line_is_cut(void **state)
{
    fixture_t *f = *state;
    journal_t *j = journal_open(f->path, "perft", "job", f->err, sizeof f->err);
    assert_non_null(j);
    assert_int_equal(journal_append(j, 1, "a", 10, NULL), 0);
    assert_int_equal(journal_append(j, 2, "b", 20, NULL), 0);
    journal_destroy(&j);
    off_t good = s_file_size(f->path);
    char line[JFILE_LINE_MAX];
    size_t n = jline_format_entry(3, "c", 30, NULL, line, sizeof line);
    s_append_raw(f->path, line, n - 4); /* crash mid-append: no newline */
    j = journal_open(f->path, "perft", "job", f->err, sizeof f->err);
    assert_non_null(j);
    assert_int_equal(journal_done_nb(j), 2);
    count_t nodes;
    assert_false(journal_lookup(j, 3, &nodes, NULL));
    assert_int_equal(s_file_size(f->path), good); /* cut at open */
    assert_int_equal(journal_append(j, 3, "c", 31, NULL), 0);
    journal_destroy(&j);
    j = journal_open(f->path, "perft", "job", f->err, sizeof f->err);
    assert_non_null(j);
    assert_int_equal(journal_done_nb(j), 3);
    assert_true(journal_lookup(j, 3, &nodes, NULL) && nodes == 31);
    journal_destroy(&j);
}

/* A journal holding only the header of job `key` (as a coordinator older than start records
 * left it when it finished no task); returns its size. */
static off_t s_header_only(fixture_t *f, const char *key)
{
    unlink(f->path);
    journal_t *j = journal_open(f->path, "perft", key, f->err, sizeof f->err);
    assert_non_null(j);
    journal_destroy(&j);
    char buf[JFILE_LINE_MAX];
    FILE *fp = fopen(f->path, "r");
    assert_non_null(fp);
    assert_non_null(fgets(buf, sizeof buf, fp));
    fclose(fp);
    assert_int_equal(truncate(f->path, (off_t)strlen(buf)), 0); /* its start record cut off */
    return s_file_size(f->path);
}

static void test_torn_header_is_rewritten(void **state)
{
    fixture_t *f = *state;
    off_t n = s_header_only(f, "job");
    assert_int_equal(truncate(f->path, n - 3), 0);
    journal_t *j = journal_open(f->path, "perft", "job", f->err, sizeof f->err);
    assert_non_null(j);
    assert_int_equal(journal_done_nb(j), 0);
    assert_false(journal_resumed(j)); /* a new journal: its header again, and its start record */
    assert_true(journal_started_at(j) > 0);
    assert_true(s_file_size(f->path) > (off_t)n);
    journal_destroy(&j);
}

static void test_corrupt_line_refused(void **state)
{
    fixture_t *f = *state;
    journal_t *j = journal_open(f->path, "perft", "job", f->err, sizeof f->err);
    assert_non_null(j);
    assert_int_equal(journal_append(j, 1, "a", 111, NULL), 0);
    assert_int_equal(journal_append(j, 2, "b", 222, NULL), 0);
    assert_int_equal(journal_append(j, 3, "c", 333, NULL), 0);
    journal_destroy(&j);
    FILE *fp = fopen(f->path, "r+");
    assert_non_null(fp);
    char buf[4096];
    size_t len = fread(buf, 1, sizeof buf, fp);
    char *hit = memmem(buf, len, "\t222\t", 5);
    assert_non_null(hit);
    hit[2] = '3'; /* 222 -> 232: a bit flip on disk */
    rewind(fp);
    fwrite(buf, 1, len, fp);
    fclose(fp);
    assert_null(journal_open(f->path, "perft", "job", f->err, sizeof f->err));
    assert_non_null(strstr(f->err, ":4: checksum mismatch")); /* line 2 is the start record */
    assert_non_null(strstr(f->err, f->path));
    /* a line with a good checksum but a bad field names the field */
    s_header_only(f, "job");
    fp = fopen(f->path, "a");
    assert_non_null(fp);
    strcpy(buf, "T\t12x\t5\t-\tk");
    fprintf(fp, "%s\t%08x\n", buf, (unsigned)hash_crc32(buf, strlen(buf)));
    fclose(fp);
    assert_null(journal_open(f->path, "perft", "job", f->err, sizeof f->err));
    assert_non_null(strstr(f->err, ":2: task id \"12x\""));
}

static void test_duplicates(void **state)
{
    fixture_t *f = *state;
    perft_stats_t st = s_stats(50, 4);
    journal_t *j = journal_open(f->path, "perft", "job", f->err, sizeof f->err);
    assert_non_null(j);
    assert_int_equal(journal_append(j, 5, "e", 50, NULL), 0);
    off_t size = s_file_size(f->path);
    assert_int_equal(journal_append(j, 5, "e", 50, NULL), 0); /* same again: nothing written */
    assert_int_equal(s_file_size(f->path), size);
    errno = 0;
    assert_int_equal(journal_append(j, 5, "e", 51, NULL), -1);
    assert_int_equal(errno, EEXIST);
    assert_int_equal(journal_append(j, 5, "other key", 50, NULL), -1);
    assert_int_equal(errno, EEXIST);
    assert_int_equal(journal_append(j, 5, "e", 50, &st), 0); /* adds the stats it lacked */
    assert_true(journal_has_stats(j, 5));
    assert_int_equal(journal_done_nb(j), 1);
    journal_destroy(&j);
    char line[JFILE_LINE_MAX];
    size_t n = jline_format_entry(5, "e", 50, NULL, line, sizeof line);
    s_append_raw(f->path, line, n); /* equal duplicate, as after a crash */
    j = journal_open(f->path, "perft", "job", f->err, sizeof f->err);
    assert_non_null(j);
    assert_int_equal(journal_done_nb(j), 1);
    perft_stats_t got;
    count_t nodes;
    assert_true(journal_lookup(j, 5, &nodes, &got));
    assert_memory_equal(&got, &st, sizeof st);
    journal_destroy(&j);
    n = jline_format_entry(5, "e", 49, NULL, line, sizeof line);
    s_append_raw(f->path, line, n); /* disagreeing duplicate */
    assert_null(journal_open(f->path, "perft", "job", f->err, sizeof f->err));
    assert_non_null(strstr(f->err, "task 5 is recorded twice with different counts"));
    assert_non_null(strstr(f->err, ":6:"));
}

static void test_second_open_is_locked_out(void **state)
{
    fixture_t *f = *state;
    journal_t *j = journal_open(f->path, "perft", "job", f->err, sizeof f->err);
    assert_non_null(j);
    assert_null(journal_open(f->path, "perft", "job", f->err, sizeof f->err));
    assert_non_null(strstr(f->err, "cannot lock"));
    journal_destroy(&j);
    j = journal_open(f->path, "perft", "job", f->err, sizeof f->err);
    assert_non_null(j);
    journal_destroy(&j);
}

enum { MANY_WRITTEN = 150000, MANY_APPENDED = 3000 };

static void test_many_entries(void **state)
{
    fixture_t *f = *state;
    /* a large journal written directly (no sync per line), then loaded */
    s_header_only(f, "big");
    FILE *fp = fopen(f->path, "a");
    assert_non_null(fp);
    char line[JFILE_LINE_MAX], key[64];
    for (uint64_t id = 1; id <= MANY_WRITTEN; id++) {
        snprintf(key, sizeof key, "pos %llu", (unsigned long long)id);
        perft_stats_t st = s_stats(id * 1000003u, (unsigned)id);
        fwrite(line, 1, jline_format_entry(id * 7919, key, id * 1000003u, id % 3 ? NULL : &st, line, sizeof line), fp);
    }
    fclose(fp);
    journal_t *j = journal_open(f->path, "perft", "big", f->err, sizeof f->err);
    assert_non_null(j);
    assert_int_equal(journal_done_nb(j), MANY_WRITTEN);
    /* and more through the API, which grows the table while appending */
    for (uint64_t id = MANY_WRITTEN + 1; id <= MANY_WRITTEN + MANY_APPENDED; id++) {
        snprintf(key, sizeof key, "pos %llu", (unsigned long long)id);
        assert_int_equal(journal_append(j, id * 7919, key, id * 1000003u, NULL), 0);
    }
    journal_destroy(&j);
    j = journal_open(f->path, "perft", "big", f->err, sizeof f->err);
    assert_non_null(j);
    assert_int_equal(journal_done_nb(j), MANY_WRITTEN + MANY_APPENDED);
    for (uint64_t id = 1; id <= MANY_WRITTEN + MANY_APPENDED; id++) {
        count_t nodes = 0;
        perft_stats_t got;
        assert_true(journal_lookup(j, id * 7919, &nodes, &got));
        assert_true(nodes == (count_t)id * 1000003u);
        bool want_stats = id <= MANY_WRITTEN && id % 3 == 0;
        assert_int_equal(journal_has_stats(j, id * 7919), want_stats);
        if (want_stats)
            assert_true(got.captures == id && got.castle_kind[CASTLE_FAR] == (count_t)1 << 100);
        assert_false(journal_lookup(j, id * 7919 + 1, &nodes, NULL));
    }
    journal_destroy(&j);
}

/* Credit records (C): written with their task, read back in order, checked on load. */
static void test_credits(void **state)
{
    fixture_t *f = *state;
    journal_t *j = journal_open(f->path, "perft", "job", f->err, sizeof f->err);
    assert_non_null(j);
    journal_credit_t c1 = {.task_id = 1, .worker = "alpha 1%\t", .amount = (count_t)1 << 70, .cpu_ms = 1500,
                           .wall_ms = 2000};
    journal_credit_t c2 = {.task_id = 2, .worker = "beta", .amount = 20, .cpu_ms = -1, .wall_ms = 7};
    assert_int_equal(journal_append_credited(j, 1, "a", 10, NULL, &c1), 0);
    assert_int_equal(journal_append_credited(j, 2, "b", 20, NULL, &c2), 0);
    assert_int_equal(journal_append_credited(j, 2, "b", 20, NULL, &c2), 0); /* known task: nothing written */
    assert_int_equal(journal_append(j, 3, "c", 30, NULL), 0);                 /* no credit */
    assert_int_equal(journal_credit_nb(j), 2);
    journal_destroy(&j);
    j = journal_open(f->path, "perft", "job", f->err, sizeof f->err);
    assert_non_null(j);
    assert_int_equal(journal_done_nb(j), 3);
    assert_int_equal(journal_credit_nb(j), 2);
    const journal_credit_t *r = journal_credit_at(j, 0);
    assert_true(r->task_id == 1 && strcmp(r->worker, "alpha 1%\t") == 0 && r->amount == ((count_t)1 << 70) &&
                r->cpu_ms == 1500 && r->wall_ms == 2000);
    r = journal_credit_at(j, 1);
    assert_true(r->task_id == 2 && strcmp(r->worker, "beta") == 0 && r->amount == 20 && r->cpu_ms == -1 &&
                r->wall_ms == 7);
    journal_destroy(&j);
    /* A credit that does not follow its task's record is refused, naming the line. */
    char line[JFILE_LINE_MAX];
    journal_credit_t stray = {.task_id = 1, .worker = "x", .amount = 1, .cpu_ms = -1};
    size_t n = jline_format_credit(&stray, line, sizeof line);
    assert_true(n > 0);
    s_append_raw(f->path, line, n);
    assert_null(journal_open(f->path, "perft", "job", f->err, sizeof f->err));
    assert_non_null(strstr(f->err, ":8: credit of task 1 does not follow"));
}

/* Short lines (empty, one byte) at the end are refused, never read past (the ASan build). */
static void test_short_lines(void **state)
{
    fixture_t *f = *state;
    journal_t *j = journal_open(f->path, "perft", "job", f->err, sizeof f->err);
    assert_non_null(j);
    journal_destroy(&j);
    s_append_raw(f->path, "T\n", 2);
    assert_null(journal_open(f->path, "perft", "job", f->err, sizeof f->err));
    assert_non_null(strstr(f->err, ":3:"));
    assert_int_equal(truncate(f->path, 0), 0); /* an empty file: a new journal again */
    j = journal_open(f->path, "perft", "job", f->err, sizeof f->err);
    assert_non_null(j);
    journal_destroy(&j);
    s_append_raw(f->path, "\n", 1);
    assert_null(journal_open(f->path, "perft", "job", f->err, sizeof f->err));
    assert_non_null(strstr(f->err, ":3:"));
}

/* A version-1 journal written by the code before jfile (tests/data/journal-v1.txt)
 * resumes: every task, its counts, its key and its credit; it is appended to with the same
 * records and keeps its header, so it reads the same again. */
static void test_version_1_resumes(void **state)
{
    fixture_t *f = *state;
    const char *data = getenv("OCTAD_TEST_DATA");
    assert_non_null(data);
    char src[512], cmd[1200];
    snprintf(src, sizeof src, "%s/journal-v1.txt", data);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", src, f->path);
    assert_int_equal(system(cmd), 0);
    off_t size = s_file_size(f->path);
    journal_t *j = journal_open_keys(f->path, "perft", "octad-cluster job v1; sample", f->err, sizeof f->err);
    assert_non_null(j);
    assert_int_equal(journal_done_nb(j), 3);
    count_t nodes = 0;
    perft_stats_t st;
    assert_true(journal_lookup(j, 1, &nodes, &st) && nodes == 1234);
    assert_true(journal_has_stats(j, 1) && st.captures == 5 && st.checks == 7 && st.mates == 1 &&
                st.castle_kind[CASTLE_NEAR] == 2);
    assert_true(journal_key_matches(j, 1, "key\tone %"));
    assert_string_equal(journal_key_text(j, 1), "key%09one %25");
    assert_true(journal_lookup(j, 2, &nodes, NULL) && nodes == 99 && !journal_has_stats(j, 2));
    assert_int_equal(journal_credit_nb(j), 2);
    assert_true(journal_resumed(j) && journal_started_at(j) == 0); /* no start record: unknown */
    assert_string_equal(journal_credit_at(j, 0)->worker, "w\tone");
    assert_true(journal_credit_at(j, 0)->cpu_ms == 40 && journal_credit_at(j, 0)->wall_ms == 55);
    assert_true(journal_credit_at(j, 1)->task_id == 3 && journal_credit_at(j, 1)->cpu_ms == -1);
    assert_int_equal(s_file_size(f->path), size); /* read, not rewritten */
    journal_credit_t c = {.task_id = 4, .amount = 8, .cpu_ms = 1, .wall_ms = 2};
    strcpy(c.worker, "three");
    assert_int_equal(journal_append_credited(j, 4, "key four", 8, NULL, &c), 0);
    journal_destroy(&j);
    /* the lines this build writes are version 1's, byte for byte */
    char line[JFILE_LINE_MAX], buf[4096];
    FILE *fp = fopen(src, "r");
    assert_non_null(fp);
    size_t len = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[len] = '\0';
    perft_stats_t want = {.nodes = 1234, .captures = 5, .checks = 7, .mates = 1};
    want.castle_kind[CASTLE_NEAR] = 2;
    size_t n = jline_format_entry(1, "key\tone %", 1234, &want, line, sizeof line);
    line[n] = '\0';
    assert_non_null(strstr(buf, line));
    /* another job's key is refused, and the version-1 header is kept */
    assert_null(journal_open(f->path, "perft", "another", f->err, sizeof f->err));
    assert_non_null(strstr(f->err, "another job"));
    j = journal_open(f->path, "analyse", "octad-cluster job v1; sample", f->err, sizeof f->err);
    assert_non_null(j);
    assert_int_equal(journal_done_nb(j), 4);
    assert_int_equal(journal_credit_nb(j), 3);
    journal_destroy(&j);
    fp = fopen(f->path, "r");
    assert_non_null(fp);
    assert_non_null(fgets(buf, sizeof buf, fp));
    fclose(fp);
    assert_memory_equal(buf, "OCTAD-JOURNAL\t1\t", 16);
    fp = fopen(f->path, "r");
    assert_non_null(fp);
    len = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[len] = '\0';
    assert_null(strstr(buf, "\nS\t")); /* never given a start record: its coordinator reads it still */
}

/* The start record: written once by the open that creates the file, read back by every later
 * open; a journal without one (older) says unknown and gets none; a second or a bad one is
 * refused naming its line. */
static void test_start_record(void **state)
{
    fixture_t *f = *state;
    time_t before = time(NULL);
    journal_t *j = journal_open(f->path, "perft", "job", f->err, sizeof f->err);
    time_t after = time(NULL);
    assert_non_null(j);
    int64_t at = journal_started_at(j);
    assert_false(journal_resumed(j));
    assert_true(at >= (int64_t)before && at <= (int64_t)after);
    assert_int_equal(journal_append(j, 1, "a", 10, NULL), 0);
    journal_destroy(&j);
    char buf[4096], line[JFILE_LINE_MAX];
    FILE *fp = fopen(f->path, "r");
    assert_non_null(fp);
    assert_non_null(fgets(buf, sizeof buf, fp));
    assert_non_null(fgets(buf, sizeof buf, fp)); /* line 2, right after the header */
    fclose(fp);
    size_t n = jline_format_start(at, line, sizeof line);
    assert_true(n > 0 && strlen(buf) == n && memcmp(buf, line, n) == 0);
    for (int pass = 0; pass < 2; pass++) { /* resumed: the same start, nothing more written */
        off_t size = s_file_size(f->path);
        j = journal_open(f->path, "perft", "job", f->err, sizeof f->err);
        assert_non_null(j);
        assert_true(journal_resumed(j) && journal_started_at(j) == at && journal_done_nb(j) == 1);
        journal_destroy(&j);
        assert_int_equal(s_file_size(f->path), size);
    }
    off_t size = s_header_only(f, "job"); /* before start records: unknown, and it stays so */
    j = journal_open(f->path, "perft", "job", f->err, sizeof f->err);
    assert_non_null(j);
    assert_true(journal_resumed(j) && journal_started_at(j) == 0);
    journal_destroy(&j);
    assert_int_equal(s_file_size(f->path), size);
    n = jline_format_start(1764892800, line, sizeof line);
    s_append_raw(f->path, line, n);
    j = journal_open(f->path, "perft", "job", f->err, sizeof f->err);
    assert_non_null(j);
    assert_true(journal_started_at(j) == 1764892800);
    journal_destroy(&j);
    s_append_raw(f->path, line, n);
    assert_null(journal_open(f->path, "perft", "job", f->err, sizeof f->err));
    assert_non_null(strstr(f->err, ":3: a second start record"));
    s_header_only(f, "job");
    strcpy(buf, "S\t0");
    n = (size_t)snprintf(line, sizeof line, "%s\t%08x\n", buf, (unsigned)hash_crc32(buf, strlen(buf)));
    s_append_raw(f->path, line, n);
    assert_null(journal_open(f->path, "perft", "job", f->err, sizeof f->err));
    assert_non_null(strstr(f->err, ":2: start: started_at \"0\" is not a positive decimal number"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_credits, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_short_lines, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_round_trip_and_reopen, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_wrong_job_refused, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_not_a_journal_refused, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_torn_last_line_is_cut, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_torn_header_is_rewritten, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_corrupt_line_refused, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_duplicates, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_second_open_is_locked_out, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_many_entries, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_version_1_resumes, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown(test_start_record, s_setup, s_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
