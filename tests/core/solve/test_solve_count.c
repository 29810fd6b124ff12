/* test_solve_count.c: `octad solve --count`'s arithmetic (core/solve/tbcount.h)
 * against a plain enumeration of positions. For a few materials, every
 * placement of the pieces on the 16 squares, with either side to move, is
 * given to the OFEN parser (which refuses the side not to move in check and
 * pawns on their promotion rank); each accepted one counts once for every
 * set of castling rights the rules allow there (RULES: a right is held by a
 * knight beside the king or a pawn one or two files from it, on the home
 * rank, the king on its home rank, at most one knight: only original pieces
 * hold rights). The tables' count, from their records and the multiplicities
 * of tbcount.h (mirror and colour flip), must be the same number. */
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
#include "octad/octad.h"
#include "sig.h"
#include "solve.h"
#include "tbcount.h"
#include "tbfile.h"

static char s_dir[256];

/* Solves `name` and every table it depends on into s_dir. */
static int s_solve(const char *name)
{
    int table, pairs[2000];
    char err[256];
    if (sig_table_parse(name, &table, err, sizeof err) < 0 || sig_pair_nb() > 2000)
        return -1;
    store_t *store = store_new(s_dir);
    solve_opts_t o = {.dir = s_dir, .max_pieces = 8, .threads = 2};
    gen_stats_t st = {0};
    int n = solve_closure(table, pairs), rc = store ? 0 : -1;
    for (int i = 0; i < n && rc == 0; i++)
        if (!solve_pair_done(s_dir, pairs[i]) && solve_pair(store, pairs[i], &o, &st, err, sizeof err) < 0) {
            fprintf(stderr, "%s: %s\n", name, err);
            rc = -1;
        }
    store_destroy(&store);
    return rc;
}

static int s_setup(void **state)
{
    (void)state;
    octad_init();
    index_init();
    snprintf(s_dir, sizeof s_dir, "/tmp/test_solve_count.XXXXXX");
    if (!mkdtemp(s_dir))
        return -1;
    const char *need[] = {"KNPvKP", "KNPvKN", "KPPvK", "KNNvK", "KQvKR"};
    for (size_t i = 0; i < sizeof need / sizeof *need; i++)
        if (s_solve(need[i]) < 0)
            return -1;
    return 0;
}

static int s_teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", s_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Rights sets of colour c's side on board[16] (square = rank * 4 + file,
 * letters as in OFEN): 1 if its king is off its home rank, else (1 + the
 * knights beside it) * 2^(pawns one or two files away), all on that rank. */
static uint64_t s_rights_sets(const char *board, int c)
{
    int home = c == 0 ? 0 : 12, king = -1;
    char k = c == 0 ? 'K' : 'k', n = c == 0 ? 'N' : 'n', p = c == 0 ? 'P' : 'p';
    for (int f = 0; f < 4; f++)
        if (board[home + f] == k)
            king = f;
    if (king < 0)
        return 1;
    uint64_t knights = 0, sets = 1;
    for (int f = 0; f < 4; f++) {
        int d = abs(f - king);
        if (board[home + f] == n && d == 1)
            knights++;
        if (board[home + f] == p && (d == 1 || d == 2))
            sets *= 2;
    }
    return sets * (1 + knights);
}

/* The positions of this placement: each side to move the parser accepts,
 * times the rights sets of both sides. */
static uint64_t s_positions_of(const char *board)
{
    char text[64];
    int t = 0;
    for (int r = 3; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 4; f++) {
            char ch = board[r * 4 + f];
            if (ch == '.') {
                empty++;
                continue;
            }
            if (empty)
                text[t++] = (char)('0' + empty);
            empty = 0;
            text[t++] = ch;
        }
        if (empty)
            text[t++] = (char)('0' + empty);
        if (r > 0)
            text[t++] = '/';
    }
    uint64_t n = 0;
    for (int side = 0; side < 2; side++) {
        snprintf(text + t, sizeof text - (size_t)t, " %c - - 0 1", side == 0 ? 'w' : 'b');
        octad_pos_t pos;
        char err[128];
        if (octad_parse(text, &pos, err, sizeof err) == 0)
            n += s_rights_sets(board, 0) * s_rights_sets(board, 1);
        text[t] = '\0';
    }
    return n;
}

/* Places pieces[i..] (identical neighbours on increasing squares). */
static uint64_t s_place(char *board, const char *pieces, int i, int from)
{
    if (pieces[i] == '\0')
        return s_positions_of(board);
    uint64_t n = 0;
    int start = i > 0 && pieces[i] == pieces[i - 1] ? from : 0;
    for (int sq = start; sq < 16; sq++)
        if (board[sq] == '.') {
            board[sq] = pieces[i];
            n += s_place(board, pieces, i + 1, sq + 1);
            board[sq] = '.';
        }
    return n;
}

/* Positions with White's men `white` and Black's `black` (OFEN letters,
 * identical ones together), either side to move. */
static uint64_t s_enumerate(const char *white, const char *black)
{
    char pieces[20], board[17];
    snprintf(pieces, sizeof pieces, "%s", white);
    size_t w = strlen(pieces);
    for (size_t i = 0; black[i]; i++)
        pieces[w + i] = (char)(black[i] - 'A' + 'a');
    pieces[w + strlen(black)] = '\0';
    memset(board, '.', 16);
    board[16] = '\0';
    return s_place(board, pieces, 0, 0);
}

/* tbcount's positions for table `name` (from its file, or its layout when
 * the material has no file). */
static uint64_t s_table_count(const char *name)
{
    int table;
    char err[256];
    assert_int_equal(sig_table_parse(name, &table, err, sizeof err), 0);
    tbcount_t c = {0};
    if (sig_table_dead(table)) {
        layout_pair_t lp;
        assert_int_equal(layout_pair_build(sig_pair_of(table), &lp), 0);
        for (int t = 0; t < lp.ntables; t++)
            if (lp.tables[t].table == table)
                count_table(&lp.tables[t], NULL, &c);
        layout_pair_free(&lp);
    } else {
        tbfile_t f;
        if (tbfile_read(s_dir, table, &f, err, sizeof err) < 0)
            fail_msg("%s", err);
        count_table(&f.layout, f.recs, &c);
        tbfile_close(&f);
    }
    assert_int_equal(c.tables, 1);
    return c.positions;
}

/* Material X (White) against Y: all positions of X v Y and Y v X, either
 * side to move, by enumeration and by the tables XvY and YvX. */
static void s_check(const char *x, const char *y)
{
    char xy[32], yx[32];
    snprintf(xy, sizeof xy, "%sv%s", x, y);
    snprintf(yx, sizeof yx, "%sv%s", y, x);
    bool same = strcmp(x, y) == 0;
    uint64_t plain = s_enumerate(x, y) + (same ? 0 : s_enumerate(y, x));
    uint64_t tables = s_table_count(xy) + (same ? 0 : s_table_count(yx));
    if (plain != tables)
        fail_msg("%s: %llu positions by enumeration, %llu by the tables", xy, (unsigned long long)plain,
                 (unsigned long long)tables);
}

static void test_bare_kings(void **state)
{
    (void)state;
    s_check("K", "K");
    /* Two kings apart: 156 placements, either side to move. */
    assert_int_equal(s_enumerate("K", "K"), 312);
}

static void test_no_file(void **state)
{
    (void)state;
    s_check("KN", "K");
    s_check("KB", "K");
}

static void test_pieces(void **state)
{
    (void)state;
    s_check("KQ", "KR");
    s_check("KNN", "K");
}

static void test_rights(void **state)
{
    (void)state;
    s_check("KPP", "K");
    s_check("KNP", "KP");
    s_check("KNP", "KN");
}

/* The directory count sums the same tables. */
static void test_count_dir(void **state)
{
    (void)state;
    char other[300];
    snprintf(other, sizeof other, "%s/small", s_dir);
    solve_opts_t o = {.dir = other, .max_pieces = 3, .threads = 2};
    gen_stats_t st = {0};
    char err[256];
    assert_int_equal(mkdir(other, 0755), 0);
    assert_int_equal(solve_all(&o, &st, err, sizeof err), 0);
    tbcount_t by[9];
    assert_int_equal(count_dir(other, 3, NULL, NULL, by, err, sizeof err), 0);
    assert_int_equal(by[2].positions, 312);
    assert_int_equal(by[2].tables, 1);
    assert_int_equal(by[3].tables, 10);
    uint64_t three = 0;
    const char *sides[] = {"KQ", "KR", "KB", "KN", "KP"};
    for (int i = 0; i < 5; i++)
        three += s_enumerate(sides[i], "K") + s_enumerate("K", sides[i]);
    assert_int_equal(by[3].positions, three);
    /* A missing table is named. */
    char path[400];
    snprintf(path, sizeof path, "%s/KQvK.otb", other);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(count_dir(other, 3, NULL, NULL, by, err, sizeof err), -1);
    assert_non_null(strstr(err, "KQvK"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bare_kings), cmocka_unit_test(test_no_file), cmocka_unit_test(test_pieces),
        cmocka_unit_test(test_rights),     cmocka_unit_test(test_count_dir),
    };
    return cmocka_run_group_tests(tests, s_setup, s_teardown);
}
