/* test_verify_tables.c: `octad verify-tables` against real tables made by
 * `octad solve --max-pieces 4`: all of them pass; a flipped record or header
 * byte and a truncated file are refused (status 2, the problem named); a
 * record changed to a wrong but plausible value, with the header counts and
 * both checksums recomputed, is caught by the one-ply check (status 1). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vt_check.h"
#include "verify_fixup.h"
#include "vt_value.h"

static const char *s_octad;
static char s_dir[64] = "/tmp/octad-verify-XXXXXX";
static char s_out[1 << 16];

/* Runs the shell command cmd; its stdout and stderr into s_out; returns the exit status. */
static int s_run(const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    char full[2200];
    snprintf(full, sizeof full, "%s 2>&1", cmd);
    FILE *f = popen(full, "r");
    if (!f)
        return -1;
    size_t n = fread(s_out, 1, sizeof s_out - 1, f);
    s_out[n] = '\0';
    int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int s_setup(void **state)
{
    (void)state;
    octad_init();
    vt_material_init();
    vt_index_init();
    if (!mkdtemp(s_dir))
        return -1;
    int rc = s_run("'%s' solve --max-pieces 4 --tables %s --quiet --threads 2", s_octad, s_dir);
    if (rc != 0)
        fprintf(stderr, "solve failed (%d): %s\n", rc, s_out);
    return rc == 0 ? 0 : -1;
}

static int s_teardown(void **state)
{
    (void)state;
    s_run("rm -rf '%s'", s_dir);
    return 0;
}

static void test_all_tables_pass(void **state)
{
    (void)state;
    int rc = s_run("'%s' verify-tables --tables %s --quiet --json", s_octad, s_dir);
    if (rc != 0)
        fail_msg("verify-tables exited %d: %.2000s", rc, s_out);
    assert_non_null(strstr(s_out, "\"failures\":0,"));
    assert_non_null(strstr(s_out, "\"table\":\"KRvKB\",\"status\":\"ok\""));
    assert_null(strstr(s_out, "\"status\":\"inconsistent\""));
}

/* --journal: a second run skips what the first found consistent, and checks
 * again a table whose file changed; a torn last line is ignored. */
static void test_journal_resumes(void **state)
{
    (void)state;
    char journal[128];
    snprintf(journal, sizeof journal, "%s.journal", s_dir);
    s_run("rm -f '%s'", journal);
    int rc = s_run("'%s' verify-tables KvKQ KQvK KRvKB --tables %s --journal %s --quiet --json", s_octad, s_dir,
                   journal);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(s_out, "\"table\":\"KRvKB\",\"status\":\"ok\""));
    assert_null(strstr(s_out, "journaled"));
    s_run("printf 'KRvKB 12 3' >> '%s'", journal); /* a torn append */
    s_run("touch '%s/KQvK.otb'", s_dir);           /* a table rewritten since */
    rc = s_run("'%s' verify-tables KvKQ KQvK KRvKB --tables %s --journal %s --quiet --json", s_octad, s_dir, journal);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(s_out, "{\"table\":\"KvKQ\",\"status\":\"journaled\"}"));
    assert_non_null(strstr(s_out, "{\"table\":\"KRvKB\",\"status\":\"journaled\"}"));
    assert_non_null(strstr(s_out, "\"table\":\"KQvK\",\"status\":\"ok\",\"records\":"));
    assert_int_equal(s_run("'%s' verify-tables KvKQ --tables %s --journal /proc/version/x --quiet", s_octad, s_dir), 2);
    assert_non_null(strstr(s_out, "journal /proc/version/x: cannot open"));
    /* the journal of another directory is refused, naming the key */
    rc = s_run("'%s' verify-tables KvKQ --tables %s/. --journal %s --quiet", s_octad, s_dir, journal);
    assert_int_equal(rc, 0); /* the same directory under another name */
    rc = s_run("mkdir -p %s.other && cp %s/KvKQ.otb %s.other/ && '%s' verify-tables KvKQ --tables %s.other --journal %s "
               "--quiet", s_dir, s_dir, s_dir, s_octad, s_dir, journal);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(s_out, "belongs to another job (header field key"));
    s_run("rm -rf '%s' '%s.other'", journal, s_dir);
}

/* A journal of the format before docs/journal.md (`NAME SIZE MTIME_NS ok` lines) is read once
 * and converted: its tables count as checked, the old file is kept as FILE.old. */
static void test_journal_old_format_converted(void **state)
{
    (void)state;
    char journal[128], table[128];
    struct stat sb;
    snprintf(journal, sizeof journal, "%s.old-format", s_dir);
    snprintf(table, sizeof table, "%s/KvKQ.otb", s_dir);
    assert_int_equal(stat(table, &sb), 0);
    FILE *f = fopen(journal, "w");
    assert_non_null(f);
    fprintf(f, "KvKQ %llu %llu ok\nKQvK 1 2 ok\nKRvKB 12", (unsigned long long)sb.st_size,
            (unsigned long long)sb.st_mtim.tv_sec * 1000000000ull + (unsigned long long)sb.st_mtim.tv_nsec);
    fclose(f);
    int rc = s_run("cp '%s' '%s.before' && '%s' verify-tables KvKQ KQvK --tables %s --journal %s --quiet --json",
                   journal, journal, s_octad, s_dir, journal);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(s_out, "{\"table\":\"KvKQ\",\"status\":\"journaled\"}"));
    assert_non_null(strstr(s_out, "\"table\":\"KQvK\",\"status\":\"ok\",\"records\":"));
    assert_non_null(strstr(s_out, "converted; the old file is kept as"));
    assert_int_equal(s_run("cmp '%s.before' '%s.old' && head -c 24 '%s'", journal, journal, journal), 0);
    assert_non_null(strstr(s_out, "OCTAD-JOURNAL\t2\tverify-"));
    /* the converted journal resumes: both tables journaled now */
    rc = s_run("'%s' verify-tables KvKQ KQvK --tables %s --journal %s --quiet --json", s_octad, s_dir, journal);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(s_out, "{\"table\":\"KQvK\",\"status\":\"journaled\"}"));
    assert_null(strstr(s_out, "converted"));
    s_run("rm -f '%s' '%s.old' '%s.before'", journal, journal, journal);
}

/* A directory with links to every table but `name`, which is a copy; returns its path. */
static const char *s_scratch(const char *name)
{
    static char dir[128];
    snprintf(dir, sizeof dir, "%s/scratch", s_dir);
    assert_int_equal(s_run("rm -rf %s && mkdir %s && ln -s %s/*.otb %s/ && rm %s/%s.otb && cp %s/%s.otb %s/", dir, dir,
                           s_dir, dir, dir, name, s_dir, name, dir),
                     0);
    return dir;
}

static void s_poke(const char *path, long offset, int xor_mask)
{
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, offset, offset < 0 ? SEEK_END : SEEK_SET), 0);
    int c = fgetc(f);
    assert_int_equal(fseek(f, -1, SEEK_CUR), 0);
    fputc(c ^ xor_mask, f);
    fclose(f);
}

static void test_flipped_record_byte_refused(void **state)
{
    (void)state;
    const char *dir = s_scratch("KRvKB");
    char path[256];
    snprintf(path, sizeof path, "%s/KRvKB.otb", dir);
    s_poke(path, -37, 0x10);
    assert_int_equal(s_run("'%s' verify-tables --tables %s --quiet KRvKB", s_octad, dir), 2);
    assert_non_null(strstr(s_out, "KRvKB.otb: records: block 0:"));
}

static void test_flipped_header_byte_refused(void **state)
{
    (void)state;
    const char *dir = s_scratch("KRvKB");
    char path[256];
    snprintf(path, sizeof path, "%s/KRvKB.otb", dir);
    s_poke(path, 100, 0x01); /* largest dtm */
    assert_int_equal(s_run("'%s' verify-tables --tables %s --quiet KRvKB", s_octad, dir), 2);
    assert_non_null(strstr(s_out, "KRvKB.otb: header checksum mismatch"));
}

static void test_truncated_refused(void **state)
{
    (void)state;
    const char *dir = s_scratch("KRvKB");
    char path[256];
    snprintf(path, sizeof path, "%s/KRvKB.otb", dir);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(truncate(path, st.st_size - 4), 0);
    assert_int_equal(s_run("'%s' verify-tables --tables %s --quiet KRvKB", s_octad, dir), 2);
    assert_non_null(strstr(s_out, "KRvKB.otb: records: the frames end at"));
    assert_int_equal(truncate(path, 60), 0);
    assert_int_equal(s_run("'%s' verify-tables --tables %s --quiet KRvKB", s_octad, dir), 2);
    assert_non_null(strstr(s_out, "KRvKB.otb: truncated: 60 bytes"));
    assert_int_equal(unlink(path), 0);
    assert_int_equal(s_run("'%s' verify-tables --tables %s --quiet KRvKB", s_octad, dir), 2);
    assert_non_null(strstr(s_out, "KRvKB.otb: cannot open"));
}

/* A corrupt table that another table's moves need: that table cannot be checked. */
static void test_corrupt_dependency_refused(void **state)
{
    (void)state;
    const char *dir = s_scratch("KvKR");
    char path[256];
    snprintf(path, sizeof path, "%s/KvKR.otb", dir);
    s_poke(path, -5, 0x04);
    assert_int_equal(s_run("'%s' verify-tables --tables %s --quiet KRvKB", s_octad, dir), 2);
    assert_non_null(strstr(s_out, "KvKR.otb: records: block 0:"));
}

/* Decoded tables are closed when they hold more than the budget, and reopen. */
static void test_store_trim(void **state)
{
    (void)state;
    char err[512];
    vt_store_t *st = vt_store_new(s_dir);
    assert_non_null(st);
    const vt_table_t *a = vt_store_get(st, vt_table_parse("KRvKB"), err, sizeof err);
    assert_non_null(a);
    uint64_t want = 4 * a->nrecords;
    assert_non_null(vt_store_get(st, vt_table_parse("KBvKR"), err, sizeof err));
    assert_true(vt_store_bytes(st) > want);
    vt_store_trim(st, vt_store_bytes(st)); /* within the budget: kept */
    assert_true(vt_store_bytes(st) > want);
    vt_store_trim(st, want);
    assert_int_equal(vt_store_bytes(st), 0);
    a = vt_store_get(st, vt_table_parse("KRvKB"), err, sizeof err);
    assert_non_null(a);
    assert_int_equal(vt_store_bytes(st), want);
    vt_store_destroy(&st);
}

static void test_bad_usage(void **state)
{
    (void)state;
    assert_int_equal(s_run("'%s' verify-tables --tables %s KXvK", s_octad, s_dir), 2);
    assert_non_null(strstr(s_out, "not a table name"));
    assert_int_equal(s_run("'%s' verify-tables --bogus", s_octad), 2);
    assert_int_equal(s_run("'%s' verify-tables --tables %s/none", s_octad, s_dir), 2);
    assert_int_equal(s_run("'%s' verify-tables --help", s_octad), 0);
    assert_non_null(strstr(s_out, "usage: octad verify-tables"));
}


static uint32_t s_rec(int code, int dtz, int dtm)
{
    return verify_fixup_rec(code, dtz, dtm);
}

/* One lie: in `table`, the first record with code `code` and dtz, dtm at
 * least min_dtz, min_dtm becomes what `lie` makes of it. */
typedef struct {
    const char *table;
    int code, min_dtz, min_dtm;
    uint32_t (*lie)(uint32_t rec);
    const char *what;
} s_lie_t;

static uint32_t s_dtz_down(uint32_t r) { return s_rec(vt_rec_code(r), vt_rec_dtz(r) - 1, vt_rec_dtm(r)); }
static uint32_t s_dtz_up(uint32_t r) { return s_rec(vt_rec_code(r), vt_rec_dtz(r) + 1, vt_rec_dtm(r)); }
static uint32_t s_dtm_up(uint32_t r) { return s_rec(vt_rec_code(r), vt_rec_dtz(r), vt_rec_dtm(r) + 2); }
static uint32_t s_dtm_down(uint32_t r) { return s_rec(vt_rec_code(r), vt_rec_dtz(r), vt_rec_dtm(r) - 2); }
static uint32_t s_to_win(uint32_t r) { (void)r; return s_rec(VT_WIN, 1, 1); }
static uint32_t s_to_draw(uint32_t r) { (void)r; return s_rec(VT_DRAW, 0, 0); }
static uint32_t s_to_invalid(uint32_t r) { (void)r; return s_rec(VT_INVALID, 0, 0); }
static uint32_t s_curse(uint32_t r) { return s_rec(VT_CURSED, vt_rec_dtz(r), vt_rec_dtm(r)); }
static uint32_t s_bless(uint32_t r) { return s_rec(VT_BLESSED, vt_rec_dtz(r), vt_rec_dtm(r)); }

static void s_one_lie(const s_lie_t *lie)
{
    char path[256], err[512];
    snprintf(path, sizeof path, "%s/%s.otb", s_dir, lie->table);
    vt_table_t *t;
    if (vt_table_open(path, vt_table_parse(lie->table), &t, err, sizeof err) < 0)
        fail_msg("%s", err);
    uint64_t slot = 0;
    uint32_t rec = 0;
    for (; slot < t->nrecords; slot++) {
        rec = vt_table_record(t, slot);
        if (vt_rec_code(rec) == lie->code && vt_rec_dtz(rec) >= lie->min_dtz && vt_rec_dtm(rec) >= lie->min_dtm)
            break;
    }
    if (slot == t->nrecords)
        fail_msg("%s: no record fits '%s'", lie->table, lie->what);
    vt_table_close(&t);
    const char *dir = s_scratch(lie->table);
    snprintf(path, sizeof path, "%s/%s.otb", dir, lie->table);
    assert_int_equal(verify_fixup_record(path, slot, lie->lie(rec)), 0);
    int rc = s_run("'%s' verify-tables --tables %s --quiet %s", s_octad, dir, lie->table);
    if (rc != 1)
        fail_msg("%s (%s, slot %llu): exit %d: %s", lie->table, lie->what, (unsigned long long)slot, rc, s_out);
    assert_non_null(strstr(s_out, "INCONSISTENT"));
    vt_store_t *st = vt_store_new(dir);
    const vt_table_t *mt = vt_store_get(st, vt_table_parse(lie->table), err, sizeof err);
    assert_non_null(mt);
    bool ranged;
    char msg[256];
    if (vt_check_slot(st, mt, slot, &ranged, msg, sizeof msg) != 1)
        fail_msg("%s (%s): slot %llu not flagged", lie->table, lie->what, (unsigned long long)slot);
    printf("# %s, %s: slot %llu: %s\n", lie->table, lie->what, (unsigned long long)slot, msg);
    vt_store_destroy(&st);
}

static void test_plausible_lies_caught(void **state)
{
    (void)state;
    static const s_lie_t lies[] = {
        {"KRvKB", VT_WIN, 2, 0, s_dtz_down, "a win one ply faster to zeroing"},
        {"KRvKB", VT_WIN, 40, 0, s_dtz_up, "a long win one ply slower to zeroing"},
        {"KRvKB", VT_WIN, 0, 3, s_dtm_up, "a win two plies slower to mate"},
        {"KBvKR", VT_LOSS, 0, 2, s_dtm_down, "a loss two plies faster to mate"},
        {"KBvKR", VT_LOSS, 2, 0, s_dtz_down, "a loss one ply faster to zeroing"},
        {"KRvKB", VT_DRAW, 0, 0, s_to_win, "a draw called a mate in one"},
        {"KBvKR", VT_LOSS, 1, 0, s_to_draw, "a loss called a draw"},
        {"KBvKR", VT_LOSS, 30, 0, s_bless, "a loss called blessed"},
        {"KRvKB", VT_WIN, 30, 0, s_curse, "a win called cursed"},
        {"KRvKB", VT_INVALID, 0, 0, s_to_draw, "an illegal placement called a draw"},
        {"KRvKB", VT_DRAW, 0, 0, s_to_invalid, "a legal draw called invalid"},
        {"KPvK", VT_WIN, 1, 0, s_to_draw, "a pawn win called a draw"},
    };
    for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++)
        s_one_lie(&lies[i]);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s PATH-TO-octad\n", argv[0]);
        return 2;
    }
    s_octad = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_tables_pass),
        cmocka_unit_test(test_journal_resumes),
        cmocka_unit_test(test_journal_old_format_converted),
        cmocka_unit_test(test_flipped_record_byte_refused),
        cmocka_unit_test(test_flipped_header_byte_refused),
        cmocka_unit_test(test_truncated_refused),
        cmocka_unit_test(test_corrupt_dependency_refused),
        cmocka_unit_test(test_store_trim),
        cmocka_unit_test(test_bad_usage),
        cmocka_unit_test(test_plausible_lies_caught),
    };
    return cmocka_run_group_tests(tests, s_setup, s_teardown);
}
