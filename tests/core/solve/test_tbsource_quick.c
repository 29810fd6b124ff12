/* test_tbsource_quick.c: the two checks of a table file opened by blocks
 * (core/solve/tbsource.h) on KBNvKN and its flip KNvKBN (5 blocks, 49 slices;
 * the test solves the 4 pairs they need): undamaged, the quick and the full
 * check give the same layout, the same blocks and the same record for every
 * slot through a store; a damaged last frame is refused at open by the full
 * check, and under the quick one fails the read of that block (the file and
 * the block named, no record given), the other blocks still right; a changed
 * directory entry, a padding byte, two entries swapped, a damaged block
 * index and a short file are refused at open by both, a frame without its
 * content checksum when it is read; a bounded store opens with the quick check; the bytes
 * store_tables counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "crc32c.h"
#include "index.h"
#include "le.h"
#include "octad/octad.h"
#include "sig.h"
#include "solve.h"
#include "store.h"
#include "tbblocks.h"
#include "tbfile.h"
#include "tbsource.h"

static char s_dir[64] = "/tmp/test_tbsource_quick.XXXXXX";
static int s_table, s_flip; /* KBNvKN, KNvKBN */

static int s_setup(void **state)
{
    (void)state;
    octad_init();
    index_init();
    char err[256];
    if (!mkdtemp(s_dir) || sig_table_parse("KBNvKN", &s_table, err, sizeof err) < 0)
        return -1;
    s_flip = sig_table_flip(s_table);
    int *pairs = malloc(sizeof *pairs * (size_t)sig_pair_nb());
    store_t *store = store_new(s_dir);
    solve_opts_t o = {.dir = s_dir, .max_pieces = 5, .threads = 2};
    gen_stats_t st = {0};
    int n = pairs ? solve_closure(s_table, pairs) : 0, rc = store && n > 0 ? 0 : -1;
    for (int i = 0; i < n && rc == 0; i++)
        if ((rc = solve_pair(store, pairs[i], &o, &st, err, sizeof err)) < 0)
            fprintf(stderr, "solve_pair: %s\n", err);
    store_destroy(&store);
    free(pairs);
    return rc;
}

static int s_teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", s_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* A fresh directory holding a copy of KBNvKN.otb (its name into dir). */
static void s_copy(char *dir, size_t len)
{
    char cmd[256];
    snprintf(dir, len, "/tmp/test_tbsource_bad.XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "cp %s/KBNvKN.otb %s/", s_dir, dir);
    assert_int_equal(system(cmd), 0);
}

static void s_remove(const char *dir)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* The whole of dir/KBNvKN.otb into *len bytes (the caller frees it). */
static unsigned char *s_load(const char *dir, size_t *len)
{
    char path[128];
    snprintf(path, sizeof path, "%s/KBNvKN.otb", dir);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    rewind(f);
    unsigned char *b = malloc(*len);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, *len, f), *len);
    fclose(f);
    return b;
}

static void s_save(const char *dir, const unsigned char *b, size_t len)
{
    char path[128];
    snprintf(path, sizeof path, "%s/KBNvKN.otb", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* Where the parts of a version-2 file b start: the directory, the offsets,
 * the frames; the number of blocks. */
typedef struct {
    size_t dir, offsets, frames;
    uint64_t nblocks;
} s_parts_t;

static s_parts_t s_parts(const unsigned char *b)
{
    s_parts_t p;
    uint32_t nslices = le_get32(b + 20);
    uint64_t nrecords = le_get64(b + 24);
    p.dir = TBFILE_HEADER;
    p.nblocks = (nrecords + TBSOURCE_BLOCK - 1) / TBSOURCE_BLOCK;
    p.offsets = p.dir + (size_t)nslices * TBFILE_SLICE + TBBLOCK_HEADER;
    p.frames = p.offsets + 8 * (size_t)(p.nblocks + 1);
    return p;
}

/* Both checks refuse dir/KBNvKN.otb at open with a message holding the file's
 * name and `what`. */
static void s_refused(const char *dir, const char *what)
{
    char err[256];
    for (int c = TBSOURCE_CHECK_FULL; c <= TBSOURCE_CHECK_QUICK; c++) {
        tbsource_t *src = tbsource_open(dir, s_table, (tbsource_check_t)c, err, sizeof err);
        if (src)
            fail_msg("%s check: opened a file with %s", c == TBSOURCE_CHECK_FULL ? "full" : "quick", what);
        assert_non_null(strstr(err, "KBNvKN.otb"));
    }
    tbsource_t *src = tbsource_open(dir, s_table, TBSOURCE_CHECK_QUICK, err, sizeof err);
    assert_null(src);
    if (!strstr(err, what))
        fail_msg("quick check: \"%s\" does not say \"%s\"", err, what);
}

/* Undamaged: the same layout and blocks under both checks, and the same
 * record for every slot of both tables through a bounded store of each
 * check and a store reading them whole. */
static void test_identical(void **state)
{
    (void)state;
    char err[256];
    rec_t *a = malloc(sizeof(rec_t) * TBSOURCE_BLOCK), *b = malloc(sizeof(rec_t) * TBSOURCE_BLOCK);
    assert_non_null(a);
    assert_non_null(b);
    const int tables[2] = {s_table, s_flip};
    for (int k = 0; k < 2; k++) {
        tbsource_t *full = tbsource_open(s_dir, tables[k], TBSOURCE_CHECK_FULL, err, sizeof err);
        tbsource_t *quick = tbsource_open(s_dir, tables[k], TBSOURCE_CHECK_QUICK, err, sizeof err);
        assert_non_null(full);
        assert_non_null(quick);
        const layout_table_t *lf = tbsource_layout(full), *lq = tbsource_layout(quick);
        assert_int_equal(lf->nslices, lq->nslices);
        assert_int_equal(lf->size, lq->size);
        assert_int_equal(lf->nrights, lq->nrights);
        assert_memory_equal(lf->slices, lq->slices, (size_t)lf->nslices * sizeof *lf->slices);
        assert_memory_equal(lf->base, lq->base, (size_t)lf->npcfg * sizeof *lf->base);
        assert_int_equal(tbsource_blocks(full), 5);
        for (uint64_t i = 0; i < tbsource_blocks(full); i++) {
            int64_t n = tbsource_read(full, i, a, err, sizeof err);
            assert_int_equal(tbsource_read(quick, i, b, err, sizeof err), n);
            assert_memory_equal(a, b, (size_t)n * sizeof(rec_t));
        }
        assert_int_equal(tbsource_bytes(full), tbsource_bytes(quick));
        tbsource_close(&full);
        tbsource_close(&quick);
    }
    free(a);
    free(b);
    store_t *sq = store_new_bounded(s_dir, 1 << 20), *sf = store_new_bounded(s_dir, 1 << 20), *sw = store_new(s_dir);
    assert_non_null(sq);
    assert_non_null(sf);
    assert_non_null(sw);
    store_set_check(sf, TBSOURCE_CHECK_FULL);
    uint64_t slots = 0, valued = 0;
    for (int k = 0; k < 2; k++) {
        layout_table_t t;
        assert_int_equal(layout_table_expected(tables[k], &t), 0);
        for (int s = 0; s < t.nslices; s++)
            for (uint32_t i = 0; i < t.slices[s].size; i++, slots++) {
                octad_pos_t p;
                index_decode(&t.slices[s], i, &p); /* White to move: table k's material */
                rec_t q = store_record(sq, &p), f = store_record(sf, &p), w = store_record(sw, &p);
                if (q != f || q != w)
                    fail_msg("table %d slice %d slot %u: quick %08x, full %08x, whole %08x", k, s, i, q, f, w);
                valued += rec_wdl(q) != REC_INVALID;
            }
        layout_table_free(&t);
    }
    assert_int_equal(slots, 2 * 288720);
    if (valued < slots / 3) /* 48% are legal positions */
        fail_msg("%llu of %llu slots have a value", (unsigned long long)valued, (unsigned long long)slots);
    store_destroy(&sq);
    store_destroy(&sf);
    store_destroy(&sw);
}

/* The last frame damaged (inside, or its checksum): the full check refuses
 * the file at open; the quick one opens it, reads the other blocks right and
 * fails the last with the file and the block named; a store answers no
 * record there and says why. */
static void test_damaged_last_frame(void **state)
{
    (void)state;
    static const int from_end[] = {40, 1}; /* compressed data; the content checksum */
    for (size_t d = 0; d < sizeof from_end / sizeof from_end[0]; d++) {
        char dir[64], err[256];
        s_copy(dir, sizeof dir);
        size_t len;
        unsigned char *bytes = s_load(dir, &len);
        bytes[len - (size_t)from_end[d]] ^= 0x5a;
        s_save(dir, bytes, len);
        free(bytes);
        assert_null(tbsource_open(dir, s_table, TBSOURCE_CHECK_FULL, err, sizeof err));
        assert_non_null(strstr(err, "KBNvKN.otb"));
        tbsource_t *ok = tbsource_open(s_dir, s_table, TBSOURCE_CHECK_QUICK, err, sizeof err);
        tbsource_t *src = tbsource_open(dir, s_table, TBSOURCE_CHECK_QUICK, err, sizeof err);
        if (!src)
            fail_msg("quick check refused a damaged frame at open: %s", err);
        assert_non_null(ok);
        rec_t *a = malloc(sizeof(rec_t) * TBSOURCE_BLOCK), *b = malloc(sizeof(rec_t) * TBSOURCE_BLOCK);
        assert_non_null(a);
        assert_non_null(b);
        uint64_t last = tbsource_blocks(src) - 1;
        for (uint64_t i = 0; i < last; i++) {
            int64_t n = tbsource_read(src, i, a, err, sizeof err);
            assert_int_equal(tbsource_read(ok, i, b, err, sizeof err), n);
            assert_memory_equal(a, b, (size_t)n * sizeof(rec_t));
        }
        assert_int_equal(tbsource_read(src, last, a, err, sizeof err), -1);
        char want[64];
        snprintf(want, sizeof want, "KBNvKN.otb: block %llu: ", (unsigned long long)last);
        if (!strstr(err, want))
            fail_msg("\"%s\" does not name the file and the block (%s)", err, want);
        free(a);
        free(b);
        tbsource_close(&src);
        tbsource_close(&ok);
        /* through a store: the last slot is in the last block */
        store_t *st = store_new_bounded(dir, 1 << 20);
        assert_non_null(st);
        layout_table_t t;
        assert_int_equal(layout_table_expected(s_table, &t), 0);
        store_t *good = store_new(s_dir);
        assert_non_null(good);
        octad_pos_t p;
        bool found = false;
        /* a position of block 0 first: the store opened the file (the quick check) and answers it */
        for (uint32_t i = 0; i < t.slices[0].size && !found; i++) {
            index_decode(&t.slices[0], i, &p);
            rec_t r = store_record(good, &p);
            found = rec_wdl(r) != REC_INVALID;
            if (found && store_record(st, &p) != r)
                fail_msg("block 0: %08x, not %08x (%s)", store_record(st, &p), r, store_error(st));
        }
        assert_true(found);
        found = false;
        for (int s = t.nslices - 1; s >= 0 && !found; s--)
            for (uint32_t i = t.slices[s].size; i > 0 && !found; i--) {
                uint32_t idx;
                index_decode(&t.slices[s], i - 1, &p);
                int at = index_locate(&t, &p, &idx);
                found = at >= 0 && t.slices[at].offset + idx >= last * TBSOURCE_BLOCK
                        && rec_wdl(store_record(good, &p)) != REC_INVALID;
            }
        assert_true(found);
        store_destroy(&good);
        assert_int_equal(rec_wdl(store_record(st, &p)), REC_INVALID);
        assert_non_null(strstr(store_error(st), want));
        layout_table_free(&t);
        store_destroy(&st);
        s_remove(dir);
    }
}

/* The slice directory changed: a field of an entry, a padding byte, two
 * entries swapped (each entry a valid slice: only the comparison with the
 * table's layout sees it); both checks refuse the file at open. */
static void test_directory(void **state)
{
    (void)state;
    for (int c = 0; c < 3; c++) {
        char dir[64];
        s_copy(dir, sizeof dir);
        size_t len;
        unsigned char *bytes = s_load(dir, &len);
        s_parts_t p = s_parts(bytes);
        unsigned char *e3 = bytes + p.dir + 3 * TBFILE_SLICE, *e4 = e3 + TBFILE_SLICE, tmp[TBFILE_SLICE];
        if (c == 0)
            e3[6] ^= 0x01; /* pcfg */
        else if (c == 1)
            e3[15] ^= 0x01; /* padding */
        else {
            assert_memory_not_equal(e3, e4, TBFILE_SLICE);
            memcpy(tmp, e3, TBFILE_SLICE);
            memcpy(e3, e4, TBFILE_SLICE);
            memcpy(e4, tmp, TBFILE_SLICE);
        }
        s_save(dir, bytes, len);
        free(bytes);
        s_refused(dir, "slice 3 of the directory");
        s_remove(dir);
    }
}

/* dir/KBNvKN.otb with block 1 compressed again without a content checksum:
 * a sound frame of the right records, the offsets after it and the block
 * header's checksum made to match. */
static void s_unchecked_frame(const char *dir)
{
    char err[256];
    size_t len;
    unsigned char *old = s_load(dir, &len);
    s_parts_t p = s_parts(old);
    rec_t *recs = malloc(sizeof(rec_t) * TBSOURCE_BLOCK);
    tbsource_t *src = tbsource_open(dir, s_table, TBSOURCE_CHECK_FULL, err, sizeof err);
    assert_non_null(recs);
    assert_non_null(src);
    int64_t n = tbsource_read(src, 1, recs, err, sizeof err);
    assert_int_equal(n, TBSOURCE_BLOCK);
    tbsource_close(&src);
    size_t cap = ZSTD_compressBound((size_t)n * sizeof(rec_t));
    unsigned char *frame = malloc(cap), *b = malloc(len + cap);
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    assert_non_null(frame);
    assert_non_null(b);
    assert_non_null(cc);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 0);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 1);
    size_t z = ZSTD_compress2(cc, frame, cap, recs, (size_t)n * sizeof(rec_t));
    assert_false(ZSTD_isError(z));
    ZSTD_freeCCtx(cc);
    uint64_t o1 = le_get64(old + p.offsets + 8), o2 = le_get64(old + p.offsets + 16);
    size_t head = p.frames + (size_t)o1, tail = len - p.frames - (size_t)o2;
    memcpy(b, old, head);
    memcpy(b + head, frame, z);
    memcpy(b + head + z, old + p.frames + o2, tail);
    for (uint64_t i = 2; i <= p.nblocks; i++)
        le_put64(b + p.offsets + 8 * i, le_get64(old + p.offsets + 8 * i) - (o2 - o1) + z);
    unsigned char *bh = b + p.offsets - TBBLOCK_HEADER;
    le_put32(bh + 12, crc32c(crc32c(0, bh, 12), b + p.offsets, 8 * (size_t)(p.nblocks + 1)));
    s_save(dir, b, head + z + tail);
    free(old);
    free(recs);
    free(frame);
    free(b);
}

/* The block index damaged, the file cut short: refused at open by both
 * checks. A frame without its content checksum (which is all the quick
 * check has against a damaged frame): refused when read, by the full check
 * at open. */
static void test_blocks(void **state)
{
    (void)state;
    char dir[64], err[256];
    size_t len;
    s_copy(dir, sizeof dir);
    unsigned char *bytes = s_load(dir, &len);
    s_parts_t p = s_parts(bytes);
    bytes[p.offsets + 8 * 2] ^= 0x10; /* the offset of block 2 */
    s_save(dir, bytes, len);
    s_refused(dir, "block header checksum mismatch");
    bytes[p.offsets + 8 * 2] ^= 0x10;
    s_save(dir, bytes, len - 3);
    s_refused(dir, "truncated?");
    s_save(dir, bytes, len);
    free(bytes);
    s_unchecked_frame(dir);
    assert_null(tbsource_open(dir, s_table, TBSOURCE_CHECK_FULL, err, sizeof err));
    tbsource_t *src = tbsource_open(dir, s_table, TBSOURCE_CHECK_QUICK, err, sizeof err);
    assert_non_null(src);
    rec_t *recs = malloc(sizeof(rec_t) * TBSOURCE_BLOCK);
    assert_non_null(recs);
    assert_int_equal(tbsource_read(src, 2, recs, err, sizeof err), TBSOURCE_BLOCK); /* the offsets after it are right */
    assert_int_equal(tbsource_read(src, 1, recs, err, sizeof err), -1);
    assert_non_null(strstr(err, "KBNvKN.otb: block 1: frame without a content checksum"));
    free(recs);
    tbsource_close(&src);
    s_remove(dir);
}

/* What store_tables counts: the open sources' bytes in a bounded store; the
 * layouts and records of tables read whole. */
static void test_store_tables(void **state)
{
    (void)state;
    char err[256];
    octad_pos_t p, q;
    assert_int_equal(octad_parse("kn2/4/4/KBN1 w - - 0 1", &p, err, sizeof err), 0);
    assert_int_equal(octad_parse("kn2/4/4/KBN1 b - - 0 1", &q, err, sizeof err), 0);
    store_t *st = store_new_bounded(s_dir, 1 << 20), *whole = store_new(s_dir);
    assert_non_null(st);
    assert_non_null(whole);
    store_tables_t t = store_tables(st);
    assert_int_equal(t.open, 0);
    assert_int_equal(t.bytes, 0);
    assert_int_not_equal(rec_wdl(store_record(st, &p)), REC_INVALID);
    assert_int_not_equal(rec_wdl(store_record(st, &q)), REC_INVALID);
    assert_int_not_equal(rec_wdl(store_record(whole, &p)), REC_INVALID);
    tbsource_t *a = tbsource_open(s_dir, s_table, TBSOURCE_CHECK_QUICK, err, sizeof err);
    tbsource_t *b = tbsource_open(s_dir, s_flip, TBSOURCE_CHECK_QUICK, err, sizeof err);
    assert_non_null(a);
    assert_non_null(b);
    t = store_tables(st);
    assert_int_equal(t.open, 2);
    assert_int_equal(t.bytes, tbsource_bytes(a) + tbsource_bytes(b));
    const layout_table_t *l = tbsource_layout(a);
    assert_int_equal(layout_table_bytes(l), (size_t)l->nslices * (sizeof(layout_slice_t) + 8 + 4) + (size_t)l->npcfg * 4);
    /* the same table in format version 1 (no block offsets): 8 bytes a block + 1 fewer */
    char v1[64] = "/tmp/test_tbsource_v1.XXXXXX";
    tbfile_t f;
    tbfile_info_t info;
    assert_non_null(mkdtemp(v1));
    assert_int_equal(tbfile_read(s_dir, s_table, &f, err, sizeof err), 0);
    assert_int_equal(tbfile_write_as(v1, &f.layout, f.recs, 1, &info, err, sizeof err), 0);
    tbfile_close(&f);
    tbsource_t *c = tbsource_open(v1, s_table, TBSOURCE_CHECK_QUICK, err, sizeof err);
    assert_non_null(c);
    assert_int_equal(tbsource_bytes(a) - tbsource_bytes(c), 8 * (tbsource_blocks(a) + 1));
    assert_true(tbsource_bytes(c) > layout_table_bytes(l));
    tbsource_close(&c);
    s_remove(v1);
    t = store_tables(whole);
    assert_int_equal(t.open, 1);
    assert_int_equal(t.bytes, sizeof(tbfile_t) + layout_table_bytes(tbsource_layout(a)) + 288720 * sizeof(rec_t));
    tbsource_close(&a);
    tbsource_close(&b);
    store_destroy(&st);
    store_destroy(&whole);
}

/* The directories the solver writes, pinned: every table up to 8 pieces
 * (its pair's layout, the file's directory bytes) hashed with FNV-1a, against
 * the hash of the tables made so far (the quick check refuses a file whose
 * directory differs, so a change here would make every table file unreadable);
 * and layout_table_expected gives each table up to 6 pieces exactly its part
 * of its pair's layout, the flip's too. */
static void test_layouts_pinned(void **state)
{
    (void)state;
    uint64_t h = 0xcbf29ce484222325ull;
    int tables = 0;
    for (int i = 0; i < sig_pair_nb(); i++) {
        if (sig_table_pieces(sig_pair_table(i)) > 8 || sig_table_dead(sig_pair_table(i)))
            continue;
        layout_pair_t lp;
        assert_int_equal(layout_pair_build(i, &lp), 0);
        for (int t = 0; t < lp.ntables; t++, tables++) {
            const layout_table_t *l = &lp.tables[t];
            for (int s = 0; s < l->nslices; s++) {
                unsigned char e[TBFILE_SLICE];
                tbfile_slice_entry(&l->slices[s], e);
                for (int k = 0; k < TBFILE_SLICE; k++)
                    h = (h ^ e[k]) * 0x100000001b3ull;
            }
            if (sig_table_pieces(l->table) > 6)
                continue;
            layout_table_t x;
            assert_int_equal(layout_table_expected(l->table, &x), 0);
            assert_int_equal(x.nslices, l->nslices);
            assert_memory_equal(x.slices, l->slices, (size_t)l->nslices * sizeof *l->slices);
            layout_table_free(&x);
        }
        layout_pair_free(&lp);
    }
    assert_int_equal(tables, 1291);
    if (h != 0x247cebccfb802b26ull)
        fail_msg("the directories of the tables changed: hash %016llx", (unsigned long long)h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_identical),  cmocka_unit_test(test_damaged_last_frame),
        cmocka_unit_test(test_directory),  cmocka_unit_test(test_blocks),
        cmocka_unit_test(test_store_tables), cmocka_unit_test(test_layouts_pinned),
    };
    return cmocka_run_group_tests(tests, s_setup, s_teardown);
}
