/* test_xfer.c: table files in checksummed chunks (proto/xfer/): real tables made by
 * solve_all, sent through xfer_serve and received by xfer_on_chunk in one
 * process, with corrupt chunks, resumed transfers and wrong files. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "solve.h"
#include "xfer.h"

static char s_src[96], s_dst[96];
static uint64_t s_big; /* the size of s_src/KNvKN.otb, made three chunks long by the setup */

/* The FETCHes a transfer sent, answered by the test (xfer_send_fn's ctx). */
typedef struct {
    msg_fetch_t f[64];
    int n;
} s_asked_t;

static int s_collect(void *ctx, const msg_t *m)
{
    s_asked_t *asked = ctx;
    assert_true(m->type == MSG_FETCH && m->version == 2);
    assert_true(asked->n < 64);
    asked->f[asked->n++] = m->u.fetch;
    return 0;
}

/* How the test's "peer" spoils its answers. */
typedef struct {
    int corrupt_first;    /* corrupt this many answers first */
    bool short_answer;    /* answer the first with one byte too few */
    int stop_after;       /* stop after this many good chunks (0: never) */
} s_peer_t;

/* Runs one transfer to its end (or stop_after): answers every FETCH from s_src. */
static xfer_status_t s_run(xfer_t *x, const s_peer_t *peer, char *err, size_t errlen)
{
    msg_t chunk;
    uint8_t data[MSG_CHUNK_MAX];
    s_asked_t asked = {.n = 0};
    int answered = 0, good = 0;
    xfer_status_t st = XFER_MORE;
    assert_int_equal(xfer_pump(x, s_collect, &asked), 0);
    while (st == XFER_MORE && asked.n > 0) {
        msg_fetch_t f = asked.f[0];
        memmove(asked.f, asked.f + 1, sizeof asked.f[0] * (size_t)--asked.n);
        assert_int_equal(xfer_serve(s_src, &f, &chunk, data, err, errlen), 0);
        if (answered < peer->corrupt_first)
            data[chunk.u.chunk.n_data / 2] ^= 0x40;
        if (answered == 0 && peer->short_answer)
            chunk.u.chunk.n_data--;
        bool spoiled = answered < peer->corrupt_first || (answered == 0 && peer->short_answer);
        answered++;
        st = xfer_on_chunk(x, &chunk.u.chunk, s_collect, &asked, err, errlen);
        if (!spoiled && ++good == peer->stop_after && st == XFER_MORE)
            return XFER_MORE;
    }
    if (st == XFER_DONE)
        assert_int_equal(asked.n, 0); /* nothing asked beyond the file */
    return st;
}

static bool s_same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    bool same = fa != NULL && fb != NULL;
    while (same) {
        int ca = fgetc(fa), cb = fgetc(fb);
        same = ca == cb;
        if (ca == EOF)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

/* Whether dir holds a part file. */
static bool s_count_parts(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    bool found = false;
    while (d != NULL && (e = readdir(d)) != NULL)
        found |= strstr(e->d_name, ".part") != NULL;
    if (d)
        closedir(d);
    return found;
}

/* Whether s_dst holds an exact copy of s_src's table `name`. */
static bool s_copied(const char *name)
{
    char a[300], b[300];
    snprintf(a, sizeof a, "%s/%s.otb", s_src, name);
    snprintf(b, sizeof b, "%s/%s.otb", s_dst, name);
    return s_same_file(a, b);
}

static int s_setup(void **state)
{
    (void)state;
    char err[512];
    snprintf(s_src, sizeof s_src, "/tmp/test_xfer_src_%d", (int)getpid());
    snprintf(s_dst, sizeof s_dst, "/tmp/test_xfer_dst_%d", (int)getpid());
    mkdir(s_src, 0755);
    solve_opts_t so = {.dir = s_src, .max_pieces = 4, .threads = 2};
    gen_stats_t st = {0};
    if (solve_all(&so, &st, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    /* Files are opaque bytes to xfer (only their header is read at the end),
     * so padding one makes it span several chunks whatever the table format. */
    char path[200];
    snprintf(path, sizeof path, "%s/KNvKN.otb", s_src);
    FILE *f = fopen(path, "ab");
    for (int i = 0; f != NULL && i < 2 * MSG_CHUNK_MAX + 1000; i++)
        fputc(i * 131 % 251, f);
    struct stat sb;
    if (f == NULL || fclose(f) != 0 || stat(path, &sb) != 0)
        return -1;
    s_big = (uint64_t)sb.st_size;
    return 0;
}

static int s_teardown(void **state)
{
    (void)state;
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", s_src, s_dst);
    return system(cmd) == 0 ? 0 : -1;
}

static void s_fresh_dst(void)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir %s", s_dst, s_dst);
    assert_int_equal(system(cmd), 0);
}

static void test_file_ref_and_serve(void **state)
{
    (void)state;
    char err[512];
    msg_tableref_t a, b;
    msg_t chunk;
    uint8_t data[MSG_CHUNK_MAX];
    assert_int_equal(xfer_file_ref(s_src, "KNvKN", &a, err, sizeof err), 0);
    assert_int_equal(a.size, s_big); /* three chunks at least: two full, one partial */
    assert_true(a.size > 2 * MSG_CHUNK_MAX && a.size % MSG_CHUNK_MAX != 0);
    assert_int_equal(xfer_file_ref(s_src, "KNvKN", &b, err, sizeof err), 0);
    assert_int_equal(a.crc, b.crc);
    assert_int_equal(xfer_file_ref(s_src, "KQRvKQ", &b, err, sizeof err), -1); /* 5 pieces: not made */
    assert_non_null(strstr(err, "KQRvKQ.otb"));
    msg_fetch_t f = {.table = "KNvKN", .offset = s_big - 1000, .length = MSG_CHUNK_MAX};
    assert_int_equal(xfer_serve(s_src, &f, &chunk, data, err, sizeof err), 0);
    assert_int_equal(chunk.u.chunk.n_data, 1000);
    assert_int_equal(chunk.u.chunk.size, s_big);
    f.offset = s_big + 1;
    assert_int_equal(xfer_serve(s_src, &f, &chunk, data, err, sizeof err), 0);
    assert_int_equal(chunk.u.chunk.n_data, 0);
    strcpy(f.table, "../etc");
    assert_int_equal(xfer_serve(s_src, &f, &chunk, data, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a table name"));
    strcpy(f.table, "knvkn"); /* one spelling per table: no second file name */
    assert_int_equal(xfer_serve(s_src, &f, &chunk, data, err, sizeof err), -1);
}

static void test_whole_transfer(void **state)
{
    (void)state;
    char err[512];
    msg_tableref_t ref;
    xfer_t x;
    s_fresh_dst();
    assert_int_equal(xfer_file_ref(s_src, "KNvKN", &ref, err, sizeof err), 0);
    assert_int_equal(xfer_start(&x, s_dst, &ref, false, err, sizeof err), 0);
    s_peer_t peer = {0};
    assert_int_equal(s_run(&x, &peer, err, sizeof err), XFER_DONE);
    assert_true(s_copied("KNvKN"));
    assert_int_equal(x.rejected, 0);
    assert_false(s_count_parts(s_dst));
}

static void test_corrupt_chunks_asked_again(void **state)
{
    (void)state;
    char err[512];
    msg_tableref_t ref;
    xfer_t x;
    s_fresh_dst();
    assert_int_equal(xfer_file_ref(s_src, "KNvKN", &ref, err, sizeof err), 0);
    assert_int_equal(xfer_start(&x, s_dst, &ref, false, err, sizeof err), 0);
    s_peer_t peer = {.corrupt_first = 2, .short_answer = false};
    assert_int_equal(s_run(&x, &peer, err, sizeof err), XFER_DONE);
    assert_int_equal(x.rejected, 2);
    assert_true(s_copied("KNvKN"));
    /* A chunk one byte short is rejected too (its CRC matches its own bytes). */
    s_fresh_dst();
    assert_int_equal(xfer_start(&x, s_dst, &ref, false, err, sizeof err), 0);
    s_peer_t shorter = {.short_answer = true};
    assert_int_equal(s_run(&x, &shorter, err, sizeof err), XFER_DONE);
    assert_int_equal(x.rejected, 1);
    assert_true(s_copied("KNvKN"));
}

static void test_third_rejection_fails(void **state)
{
    (void)state;
    char err[512], b[300];
    msg_tableref_t ref;
    xfer_t x;
    s_fresh_dst();
    assert_int_equal(xfer_file_ref(s_src, "KPvK", &ref, err, sizeof err), 0); /* one chunk */
    assert_int_equal(xfer_start(&x, s_dst, &ref, false, err, sizeof err), 0);
    s_peer_t peer = {.corrupt_first = 3};
    assert_int_equal(s_run(&x, &peer, err, sizeof err), XFER_FAILED);
    assert_non_null(strstr(err, "rejected 3 times"));
    snprintf(b, sizeof b, "%s/KPvK.otb", s_dst);
    assert_int_equal(access(b, F_OK), -1);
    assert_false(s_count_parts(s_dst));
}

static void test_resume(void **state)
{
    (void)state;
    char err[512];
    msg_tableref_t ref;
    xfer_t x;
    struct stat sb;
    s_fresh_dst();
    assert_int_equal(xfer_file_ref(s_src, "KNvKN", &ref, err, sizeof err), 0);
    assert_int_equal(xfer_start(&x, s_dst, &ref, true, err, sizeof err), 0);
    s_peer_t stop = {.stop_after = 1};
    assert_int_equal(s_run(&x, &stop, err, sizeof err), XFER_MORE);
    xfer_abort(&x); /* the session ends: the good prefix stays */
    char part[300];
    snprintf(part, sizeof part, "%s/.KNvKN.otb.part-%08x", s_dst, ref.crc);
    assert_int_equal(stat(part, &sb), 0);
    assert_int_equal(sb.st_size, MSG_CHUNK_MAX);
    assert_int_equal(xfer_start(&x, s_dst, &ref, true, err, sizeof err), 0);
    assert_int_equal(x.next, MSG_CHUNK_MAX); /* continues after the piece it has */
    s_peer_t peer = {0};
    assert_int_equal(s_run(&x, &peer, err, sizeof err), XFER_DONE); /* and nothing more asked (s_run) */
    assert_true(s_copied("KNvKN"));
}

static void test_wrong_whole_file(void **state)
{
    (void)state;
    char err[512], b[300];
    msg_tableref_t ref, other;
    xfer_t x;
    s_fresh_dst();
    /* The chunks are good but the whole file is not what the reference says. */
    assert_int_equal(xfer_file_ref(s_src, "KNvKN", &ref, err, sizeof err), 0);
    ref.crc ^= 1;
    assert_int_equal(xfer_start(&x, s_dst, &ref, true, err, sizeof err), 0);
    s_peer_t peer = {0};
    assert_int_equal(s_run(&x, &peer, err, sizeof err), XFER_FAILED);
    assert_non_null(strstr(err, "CRC-32C"));
    assert_false(s_count_parts(s_dst)); /* a whole file that fails is not kept, even resumable */
    /* Another table's bytes under this name: size and CRC agree, the header does not. */
    assert_int_equal(xfer_file_ref(s_src, "KBvKN", &other, err, sizeof err), 0);
    strcpy(other.name, "KNvKB"); /* the test serves KNvKB's name from a copy of KBvKN */
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "cp %s/KNvKB.otb %s/KNvKB.keep && cp %s/KBvKN.otb %s/KNvKB.otb", s_src, s_src, s_src,
             s_src);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(xfer_start(&x, s_dst, &other, false, err, sizeof err), 0);
    assert_int_equal(s_run(&x, &peer, err, sizeof err), XFER_FAILED);
    assert_non_null(strstr(err, "not that table"));
    snprintf(b, sizeof b, "%s/KNvKB.otb", s_dst);
    assert_int_equal(access(b, F_OK), -1);
    snprintf(cmd, sizeof cmd, "mv %s/KNvKB.keep %s/KNvKB.otb", s_src, s_src);
    assert_int_equal(system(cmd), 0);
    /* Sizes outside 1..2^40 are refused before anything is asked. */
    ref.size = 0;
    assert_int_equal(xfer_start(&x, s_dst, &ref, false, err, sizeof err), -1);
    ref.size = XFER_FILE_MAX + 1;
    assert_int_equal(xfer_start(&x, s_dst, &ref, false, err, sizeof err), -1);
    assert_non_null(strstr(err, "2^40"));
}

static void test_dir_id(void **state)
{
    (void)state;
    char err[512], id[MSG_TABLE_NAME_MAX], again[MSG_TABLE_NAME_MAX];
    s_fresh_dst();
    assert_int_equal(xfer_dir_id(s_dst, false, id, sizeof id, err, sizeof err), 1);
    assert_string_equal(id, "");
    assert_int_equal(xfer_dir_id(s_dst, true, id, sizeof id, err, sizeof err), 0);
    assert_int_equal(strlen(id), 16);
    assert_int_equal(xfer_dir_id(s_dst, false, again, sizeof again, err, sizeof err), 0);
    assert_string_equal(id, again);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_file_ref_and_serve), cmocka_unit_test(test_whole_transfer),
        cmocka_unit_test(test_corrupt_chunks_asked_again), cmocka_unit_test(test_third_rejection_fails),
        cmocka_unit_test(test_resume), cmocka_unit_test(test_wrong_whole_file), cmocka_unit_test(test_dir_id),
    };
    return cmocka_run_group_tests(tests, s_setup, s_teardown);
}
