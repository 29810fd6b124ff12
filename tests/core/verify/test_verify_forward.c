/* test_verify_forward.c: the tables of `octad solve --max-pieces 4` against a
 * forward search (core/verify/vt_forward.h, a different algorithm): every position
 * reachable from the 3-piece tables and from KRvKB (dtz up to 47), at every
 * halfmove clock; `octad probe --json` agrees with the forward search at the
 * clocks where the 25-move rule decides (a win with dtz d is still won at
 * clock 50 - d and drawn at 51 - d); and a wrong record is a disagreement.
 * Argument: the octad program; a second argument selects a slow variant:
 * "all" compares every table up to 4 pieces with the forward search, "five"
 * makes every table up to 5 pieces, verifies them all one ply deep, compares
 * KRNvKR and KRvKRN (cursed wins, blessed losses) with the forward search
 * and probes KRNvKR at the 25-move boundary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vt_forward.h"
#include "vt_fwdcheck.h"
#include "vt_value.h"
#include "verify_fixup.h"

static const char *s_octad;
static const char *s_mode = "quick";
static int s_pieces = 4;
static const char *s_boundary_table = "KRvKB";
static char s_dir[64] = "/tmp/octad-fwd-XXXXXX";
static char s_out[1 << 16];

static int s_run(const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    FILE *f = popen(cmd, "r");
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
    return s_run("'%s' solve --max-pieces %d --tables %s --quiet --threads 2 2>&1", s_octad, s_pieces, s_dir) == 0
               ? 0
               : -1;
}

static int s_teardown(void **state)
{
    (void)state;
    return s_run("rm -rf '%s'", s_dir) == 0 ? 0 : -1;
}

/* The command over the named tables (all up to 4 pieces if none): status 0, no failure. */
static void test_forward_agrees(void **state)
{
    (void)state;
    bool all = strcmp(s_mode, "all") == 0, five = strcmp(s_mode, "five") == 0;
    const char *names = all ? "" : five ? "KRNvKR KRvKRN" : "KQvK KvKQ KRvK KvKR KPvK KvKP KRvKB";
    if (five) {
        int rc = s_run("'%s' verify-tables --tables %s --quiet --json", s_octad, s_dir);
        if (rc != 0 || !strstr(s_out, "\"failures\":0,"))
            fail_msg("one-ply check of every 5-piece table: exit %d: %.2000s", rc, s_out);
    }
    int rc = s_run("'%s' verify-tables --forward --tables %s --json %s", s_octad, s_dir, names);
    if (rc != 0 || !strstr(s_out, "\"failures\":0,\"status\":0}"))
        fail_msg("exit %d: %.3000s", rc, s_out);
    printf("# %.300s\n", strstr(s_out, "],\"positions\""));
    if (!all)
        assert_null(strstr(s_out, "\"status\":\"error\""));
    if (five)
        assert_non_null(strstr(s_out, "{\"table\":\"KRNvKR\",\"status\":\"ok\""));
}

/* The forward graph of table `name`, solved. */
static vt_fwd_t *s_graph(vt_store_t *st, const char *name)
{
    char err[512];
    const vt_table_t *t = vt_store_get(st, vt_table_parse(name), err, sizeof err);
    if (!t)
        fail_msg("%s", err);
    vt_fwd_t *fwd = vt_fwd_new();
    assert_non_null(fwd);
    for (uint32_t s = 0; s < t->nslices; s++)
        for (uint64_t i = 0; i < t->slices[s].size; i++) {
            octad_pos_t p;
            vt_slice_decode(&t->slices[s], i, &p);
            if (vt_placement_legal(&p))
                assert_int_equal(vt_fwd_add(fwd, &p), 0);
        }
    assert_int_equal(vt_fwd_solve(fwd), 0);
    return fwd;
}

static const char *s_json_str(const char *key)
{
    static char val[32];
    char pat[40];
    snprintf(pat, sizeof pat, "\"%s\":\"", key);
    const char *p = strstr(s_out, pat);
    if (!p)
        fail_msg("no %s in %s", key, s_out);
    p += strlen(pat);
    size_t n = strcspn(p, "\"");
    snprintf(val, sizeof val, "%.*s", (int)(n < 31 ? n : 31), p);
    return val;
}

static int s_json_int(const char *key)
{
    char pat[40];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(s_out, pat);
    if (!p)
        fail_msg("no %s in %s", key, s_out);
    return atoi(p + strlen(pat));
}

/* `octad probe --json` of node i at clock h against the forward search. */
static void s_probe_at(vt_fwd_t *fwd, uint32_t i, int h)
{
    octad_pos_t p = *vt_fwd_position(fwd, i);
    p.halfmove = (uint32_t)h;
    char ofen[128];
    octad_format(&p, ofen, sizeof ofen);
    if (s_run("'%s' probe --tables %s --json '%s'", s_octad, s_dir, ofen) != 0)
        fail_msg("probe %s failed: %s", ofen, s_out);
    vt_fwd_value_t v = vt_fwd_value(fwd, i);
    int at = vt_fwd_at_clock(fwd, i, h);
    /* Away from clock 0 a position the rule draws is reported as cursed/blessed. */
    const char *want = at == VT_WIN    ? "win"
                       : at == VT_LOSS ? "loss"
                       : v.code == VT_WIN || v.code == VT_CURSED ? "cursed-win"
                       : v.code == VT_LOSS || v.code == VT_BLESSED ? "blessed-loss"
                                                                   : "draw";
    const char *got = s_json_str("wdl");
    if (strcmp(got, want) != 0)
        fail_msg("%s: probe says %s, forward search with the clock %s", ofen, got, want);
    if (v.code != VT_DRAW && (s_json_int("dtz") != v.dtz || s_json_int("dtm") != v.dtm))
        fail_msg("%s: probe dtz %d dtm %d, forward search dtz %d dtm %d", ofen, s_json_int("dtz"),
                 s_json_int("dtm"), v.dtz, v.dtm);
}

/* Wins and losses with a long dtz, at the last clock that keeps them and the
 * first that draws them; and a spread of other positions and clocks. */
static void test_probe_at_the_boundary(void **state)
{
    (void)state;
    vt_store_t *st = vt_store_new(s_dir);
    vt_fwd_t *fwd = s_graph(st, s_boundary_table);
    int boundary = 0, spread = 0, longest = 0, cursed = 0;
    for (uint32_t i = 0; i < vt_fwd_size(fwd); i++) {
        vt_fwd_value_t v = vt_fwd_value(fwd, i);
        if ((v.code == VT_CURSED || v.code == VT_BLESSED) && cursed < 8) {
            s_probe_at(fwd, i, 0);
            s_probe_at(fwd, i, 10);
            cursed++;
        }
        if ((v.code == VT_WIN || v.code == VT_LOSS) && v.dtz >= 44 && boundary < 12) {
            assert_int_equal(vt_fwd_at_clock(fwd, i, 50 - v.dtz), v.code);
            assert_int_equal(vt_fwd_at_clock(fwd, i, 51 - v.dtz), VT_DRAW);
            s_probe_at(fwd, i, 50 - v.dtz);
            s_probe_at(fwd, i, 51 - v.dtz);
            boundary++;
            longest = v.dtz > longest ? v.dtz : longest;
        } else if (i % 4999 == 0) {
            s_probe_at(fwd, i, (int)(i % 50));
            spread++;
        }
    }
    printf("# %s: %d long wins/losses at both sides of the boundary (dtz up to %d), %d cursed/blessed, %d others\n",
           s_boundary_table, boundary, longest, cursed, spread);
    assert_true(boundary >= 12 && longest >= 47);
    assert_true(s_pieces < 5 || cursed > 0);
    vt_fwd_destroy(&fwd);
    vt_store_destroy(&st);
}

/* A record changed (checksums and all) is a disagreement with the forward search. */
static void test_forward_catches_a_lie(void **state)
{
    (void)state;
    char src[256], dir[128];
    snprintf(dir, sizeof dir, "%s/lie", s_dir);
    assert_int_equal(s_run("mkdir -p %s && cp %s/*.otb %s/", dir, s_dir, dir), 0);
    snprintf(src, sizeof src, "%s/KvKQ.otb", dir);
    char err[512];
    vt_table_t *t;
    if (vt_table_open(src, vt_table_parse("KvKQ"), &t, err, sizeof err) < 0)
        fail_msg("%s", err);
    uint64_t slot = 0;
    while (vt_rec_code(vt_table_record(t, slot)) != VT_LOSS || vt_rec_dtm(vt_table_record(t, slot)) < 4)
        slot++;
    uint32_t rec = vt_table_record(t, slot);
    vt_table_close(&t);
    /* dtm + 2 keeps it even: a plausible loss, only slower. */
    assert_int_equal(verify_fixup_record(src, slot, verify_fixup_rec(VT_LOSS, vt_rec_dtz(rec), vt_rec_dtm(rec) + 2)), 0);
    assert_int_equal(s_run("'%s' verify-tables --forward --tables %s KvKQ 2>&1", s_octad, dir), 1);
    assert_non_null(strstr(s_out, "KvKQ       DISAGREE"));
    assert_non_null(strstr(s_out, "; forward search: loss"));
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s PATH-TO-octad [all]\n", argv[0]);
        return 2;
    }
    s_octad = argv[1];
    if (argc > 2)
        s_mode = argv[2];
    if (strcmp(s_mode, "five") == 0)
        s_pieces = 5, s_boundary_table = "KRNvKR";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forward_agrees),
        cmocka_unit_test(test_probe_at_the_boundary),
        cmocka_unit_test(test_forward_catches_a_lie),
    };
    return cmocka_run_group_tests(tests, s_setup, s_teardown);
}
