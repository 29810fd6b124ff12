/* test_solve.c: the solver's index, table files and values on small material:
 * every slot decodes and encodes back, mirror images share a slot, files
 * round-trip and corruption is refused, known positions get known values,
 * the 25-move boundary, and a second solve resumes instead of recomputing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "index.h"
#include "octad/legal.h"
#include "octad/octad.h"
#include "probe.h"
#include "sig.h"
#include "repack.h"
#include "solve.h"
#include "tbfile.h"

static char s_dir[256];

static int s_group_setup(void **state)
{
    (void)state;
    octad_init();
    index_init();
    snprintf(s_dir, sizeof s_dir, "/tmp/test_solve.XXXXXX");
    if (!mkdtemp(s_dir))
        return -1;
    solve_opts_t o = {.dir = s_dir, .max_pieces = 4, .threads = 2};
    gen_stats_t st = {0};
    char err[256];
    if (solve_all(&o, &st, err, sizeof err) < 0) {
        fprintf(stderr, "solve_all: %s\n", err);
        return -1;
    }
    return 0;
}

static int s_group_teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", s_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static octad_pos_t s_pos(const char *text)
{
    octad_pos_t p;
    char err[128];
    if (octad_parse(text, &p, err, sizeof err) != 0)
        fail_msg("%s: %s", text, err);
    return p;
}

/* Every legal slot of every table up to 5 pieces decodes to a position that
 * encodes back to the same slot; its mirror image (without rights) too. */
static void test_index_round_trip(void **state)
{
    (void)state;
    uint64_t checked = 0;
    for (int i = 0; i < sig_pair_nb(); i++) {
        if (sig_table_pieces(sig_pair_table(i)) > 5)
            continue;
        layout_pair_t lp;
        assert_int_equal(layout_pair_build(i, &lp), 0);
        for (int t = 0; t < lp.ntables; t++) {
            const layout_table_t *lt = &lp.tables[t];
            for (int s = 0; s < lt->nslices; s++)
                for (uint32_t k = 0; k < lt->slices[s].size; k++) {
                    octad_pos_t p, m;
                    uint32_t idx;
                    index_decode(&lt->slices[s], k, &p);
                    assert_int_equal(index_table_of(&p), lt->table);
                    bb_t occ = (bb_t)(p.color[0] | p.color[1]);
                    if (legal_attackers_to(&p, p.ksq[1], occ, 0))
                        continue;
                    int sl = index_locate(lt, &p, &idx);
                    if (sl != s || idx != k)
                        fail_msg("table %d slice %d slot %u comes back as slice %d slot %u", lt->table, s, k, sl, idx);
                    if (p.castle == 0) {
                        index_mirror(&p, &m);
                        sl = index_locate(lt, &m, &idx);
                        if (sl != s || idx != k)
                            fail_msg("mirror of table %d slice %d slot %u is slice %d slot %u", lt->table, s, k, sl, idx);
                    }
                    checked++;
                }
        }
        layout_pair_free(&lp);
    }
    assert_true(checked > 1000000);
}

/* Every pair's units cover every slice exactly once. */
static void test_units_cover_slices(void **state)
{
    (void)state;
    for (int i = 0; i < sig_pair_nb(); i++) {
        if (sig_table_pieces(sig_pair_table(i)) > 6)
            continue;
        layout_pair_t lp;
        assert_int_equal(layout_pair_build(i, &lp), 0);
        int seen[2] = {0, 0};
        for (int u = 0; u < lp.nunits; u++)
            for (int k = 0; k < lp.units[u].n; k++)
                seen[lp.units[u].tab[k]]++;
        for (int t = 0; t < lp.ntables; t++)
            assert_int_equal(seen[t], lp.tables[t].nslices);
        layout_pair_free(&lp);
    }
}

static probe_value_t s_probe(store_t *st, const char *ofen)
{
    octad_pos_t p = s_pos(ofen);
    probe_value_t v;
    if (probe_position(st, &p, &v) != 0)
        fail_msg("%s: %s", ofen, store_error(st));
    return v;
}

static void test_known_values(void **state)
{
    (void)state;
    store_t *st = store_new(s_dir);
    /* The octad README's sample game ends drawn by insufficient material. */
    probe_value_t v = s_probe(st, "3k/4/1K2/4 b - - 0 12");
    assert_int_equal(v.wdl, REC_DRAW);
    /* Checkmated: lost at once. */
    v = s_probe(st, "3k/2Q1/1K2/4 b - - 0 1");
    assert_int_equal(v.status & OCTAD_CHECKMATE, OCTAD_CHECKMATE);
    assert_int_equal(v.wdl, REC_LOSS);
    assert_int_equal(v.dtm, 0);
    /* Mate in one: Qc3#. */
    v = s_probe(st, "3k/4/1KQ1/4 w - - 0 1");
    assert_int_equal(v.wdl, REC_WIN);
    assert_int_equal(v.dtm, 1);
    assert_int_equal(v.dtz, 1);
    /* Stalemate. */
    v = s_probe(st, "k3/2Q1/1K2/4 b - - 0 1");
    assert_int_equal(v.status & OCTAD_STALEMATE, OCTAD_STALEMATE);
    assert_int_equal(v.wdl, REC_DRAW);
    /* A lone rook wins on 4x4 from anywhere with its side to move. */
    v = s_probe(st, "3k/4/4/R2K w - - 0 1");
    assert_int_equal(v.wdl, REC_WIN);
    store_destroy(&st);
}

/* A win with dtz d stands at clock 50 - d and is drawn at 51 - d. */
static void test_clock_boundary(void **state)
{
    (void)state;
    store_t *st = store_new(s_dir);
    octad_pos_t p = s_pos("3k/4/4/R2K w - - 0 1");
    probe_value_t v;
    assert_int_equal(probe_position(st, &p, &v), 0);
    assert_int_equal(v.wdl, REC_WIN);
    p.halfmove = (uint32_t)(50 - v.dtz);
    assert_int_equal(probe_position(st, &p, &v), 0);
    assert_int_equal(v.wdl, REC_WIN);
    p.halfmove++;
    assert_int_equal(probe_position(st, &p, &v), 0);
    assert_int_equal(v.wdl, REC_CURSED);
    assert_int_equal(v.wdl0, REC_WIN);
    p.halfmove = 50;
    assert_int_equal(probe_position(st, &p, &v), 0);
    assert_int_equal(v.wdl, REC_DRAW);
    store_destroy(&st);
}

static void s_copy(const char *from, const char *to)
{
    char cmd[1300];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", from, to);
    assert_int_equal(system(cmd), 0);
}

/* A file reads back as written; a flipped byte, a bad header, a truncation
 * are refused with a message saying what is wrong, by tbfile_read and by
 * tbfile_check (which keeps no records) alike. */
static void test_file_corruption(void **state)
{
    (void)state;
    int table;
    char err[256], name[64], path[512], bad[300];
    assert_int_equal(sig_table_parse("KRvK", &table, err, sizeof err), 0);
    tbfile_t f;
    assert_int_equal(tbfile_read(s_dir, table, &f, err, sizeof err), 0);
    assert_true(f.info.counts[REC_WIN] > 0);
    tbfile_close(&f);
    assert_int_equal(tbfile_check(s_dir, table, err, sizeof err), 0);
    tbfile_name(table, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", s_dir, name);
    snprintf(bad, sizeof bad, "%s/bad", s_dir);
    assert_int_equal(mkdir(bad, 0755), 0);
    char bpath[600];
    snprintf(bpath, sizeof bpath, "%s/%s", bad, name);
    static const struct {
        long offset;
        const char *why;
    } cases[] = {{-5, "corrupted"}, {20, "header checksum"}, {0, "bad magic"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        s_copy(path, bpath);
        FILE *fp = fopen(bpath, "r+b");
        assert_non_null(fp);
        fseek(fp, cases[i].offset, cases[i].offset < 0 ? SEEK_END : SEEK_SET);
        int c = fgetc(fp);
        fseek(fp, -1, SEEK_CUR);
        fputc(c ^ 0x10, fp);
        fclose(fp);
        assert_int_not_equal(tbfile_read(bad, table, &f, err, sizeof err), 0);
        if (!strstr(err, cases[i].why))
            fail_msg("case %zu: '%s' does not say '%s'", i, err, cases[i].why);
        assert_int_not_equal(tbfile_check(bad, table, err, sizeof err), 0);
        if (!strstr(err, cases[i].why))
            fail_msg("check, case %zu: '%s' does not say '%s'", i, err, cases[i].why);
    }
    s_copy(path, bpath);
    assert_int_equal(truncate(bpath, 200), 0);
    assert_int_not_equal(tbfile_read(bad, table, &f, err, sizeof err), 0);
    assert_non_null(strstr(err, "truncated"));
    assert_int_not_equal(tbfile_check(bad, table, err, sizeof err), 0);
    assert_non_null(strstr(err, "truncated"));
    /* The prober says which file is bad. */
    store_t *st = store_new(bad);
    octad_pos_t p = s_pos("3k/4/4/R2K w - - 0 1");
    probe_value_t v;
    assert_int_not_equal(probe_position(st, &p, &v), 0);
    assert_non_null(strstr(store_error(st), name));
    store_destroy(&st);
}

/* Both format versions read back the same records; --repack turns a
 * version-1 file into version 2 with the same records, and only once. */
static void test_file_versions(void **state)
{
    (void)state;
    int table;
    char err[256], v1[300], path[400], name[64];
    assert_int_equal(sig_table_parse("KRvKN", &table, err, sizeof err), 0);
    tbfile_t f2, f1;
    assert_int_equal(tbfile_read(s_dir, table, &f2, err, sizeof err), 0);
    assert_int_equal(f2.info.version, 2);
    snprintf(v1, sizeof v1, "%s/v1", s_dir);
    assert_int_equal(mkdir(v1, 0755), 0);
    tbfile_info_t info;
    assert_int_equal(tbfile_write_as(v1, &f2.layout, f2.recs, 1, &info, err, sizeof err), 0);
    assert_int_not_equal(tbfile_write_as(v1, &f2.layout, f2.recs, 3, &info, err, sizeof err), 0);
    assert_non_null(strstr(err, "cannot write format version 3"));
    tbfile_name(table, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", v1, name);
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal((uint64_t)sb.st_size, TBFILE_HEADER + (uint64_t)f2.info.nslices * TBFILE_SLICE + 4 * f2.info.nrecords);
    assert_true(tbfile_complete(path, table));
    assert_int_equal(tbfile_read(v1, table, &f1, err, sizeof err), 0);
    assert_int_equal(f1.info.version, 1);
    assert_int_equal(f1.info.crc, f2.info.crc);
    assert_memory_equal(f1.recs, f2.recs, f2.info.nrecords * sizeof(rec_t));
    tbfile_close(&f1);
    assert_int_equal(tbfile_check(v1, table, err, sizeof err), 0);
    repack_stats_t rs;
    assert_int_equal(repack_dir(v1, NULL, NULL, &rs, err, sizeof err), 0);
    assert_int_equal(rs.files, 1);
    assert_int_equal(rs.repacked, 1);
    assert_true(rs.bytes_after < rs.bytes_before);
    assert_int_equal(tbfile_read(v1, table, &f1, err, sizeof err), 0);
    assert_int_equal(f1.info.version, 2);
    assert_memory_equal(f1.recs, f2.recs, f2.info.nrecords * sizeof(rec_t));
    tbfile_close(&f1);
    assert_int_equal(repack_dir(v1, NULL, NULL, &rs, err, sizeof err), 0);
    assert_int_equal(rs.repacked, 0);
    /* A version-1 record changed: its checksum no longer matches. */
    char spoilt[400];
    snprintf(spoilt, sizeof spoilt, "%s/v1b", s_dir);
    assert_int_equal(mkdir(spoilt, 0755), 0);
    assert_int_equal(tbfile_write_as(spoilt, &f2.layout, f2.recs, 1, &info, err, sizeof err), 0);
    snprintf(spoilt + strlen(spoilt), sizeof spoilt - strlen(spoilt), "/%s", name);
    FILE *fp = fopen(spoilt, "r+b");
    assert_non_null(fp);
    fseek(fp, -3, SEEK_END);
    fputc(0x55, fp);
    fclose(fp);
    spoilt[strlen(spoilt) - strlen(name) - 1] = '\0';
    assert_int_not_equal(tbfile_check(spoilt, table, err, sizeof err), 0);
    assert_non_null(strstr(err, "checksum mismatch"));
    /* A file cut anywhere is not complete, so a resumed solve redoes it. */
    assert_int_equal(truncate(path, 300), 0);
    assert_false(tbfile_complete(path, table));
    tbfile_close(&f2);
}

/* A second solve of the same set finds every pair done and solves nothing. */
static void test_resume(void **state)
{
    (void)state;
    solve_opts_t o = {.dir = s_dir, .max_pieces = 4, .threads = 1};
    gen_stats_t st = {0};
    char err[256];
    assert_int_equal(solve_all(&o, &st, err, sizeof err), 0);
    assert_int_equal(st.positions, 0);
    for (int i = 0; i < sig_pair_nb(); i++)
        if (sig_table_pieces(sig_pair_table(i)) <= 4 && !sig_table_dead(sig_pair_table(i)))
            assert_true(solve_pair_done(s_dir, i));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_index_round_trip), cmocka_unit_test(test_units_cover_slices),
        cmocka_unit_test(test_known_values),     cmocka_unit_test(test_clock_boundary),
        cmocka_unit_test(test_file_corruption),
        cmocka_unit_test(test_file_versions),
        cmocka_unit_test(test_resume),
    };
    return cmocka_run_group_tests(tests, s_group_setup, s_group_teardown);
}
