/* test_pgn.c: the PGN reader and writer: a multi-game file with comments,
 * variations, NAGs, glyphs, escapes, a BOM and two broken games in the middle;
 * errors by game, line and column; write, read, write gives the same text;
 * the visitor's skips; variations checked, kept and written on request. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgn_game.h"

enum { S_GAMES = 16 };

/* What the tests keep of each game read. */
typedef struct {
    int n;
    long number[S_GAMES];
    int plies[S_GAMES], errors[S_GAMES], variations[S_GAMES];
    result_t result[S_GAMES];
    termination_t term[S_GAMES];
    char first_error[S_GAMES][PGN_ERROR_MAX];
    char final[S_GAMES][GAME_TEXT_MAX];
    char *written; /* the games without errors, written again */
    size_t written_len;
} s_read_t;

static void s_keep(void *ctx, pgn_game_t *g)
{
    s_read_t *r = ctx;
    assert_true(r->n < S_GAMES);
    int i = r->n++;
    r->number[i] = g->number;
    r->errors[i] = g->error_nb;
    snprintf(r->first_error[i], PGN_ERROR_MAX, "%s", g->error_nb ? g->errors[0] : "");
    r->plies[i] = g->has_record ? g->rec.ply_nb : -1;
    r->variations[i] = pgn_game_variation_count(g);
    if (!g->has_record)
        return;
    r->result[i] = g->rec.result;
    r->term[i] = g->rec.termination;
    game_format(record_pos(&g->rec), r->final[i], GAME_TEXT_MAX);
    if (g->error_nb == g->variation_error_nb) { /* as octad pgn --write: bad variations are cut */
        char *text = pgn_write_string(g);
        assert_non_null(text);
        size_t n = strlen(text);
        r->written = realloc(r->written, r->written_len + n + 1);
        memcpy(r->written + r->written_len, text, n + 1);
        r->written_len += n;
        free(text);
    }
}

static char *s_slurp(const char *name, size_t *len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/pgn/%s", getenv("OCTAD_TEST_DATA"), name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *text = NULL;
    size_t cap = 0;
    ssize_t n = getdelim(&text, &cap, '\0', f);
    fclose(f);
    assert_true(n > 0);
    *len = (size_t)n;
    return text;
}

static void s_read(const char *text, size_t len, s_read_t *out, bool variations)
{
    memset(out, 0, sizeof *out);
    pgn_replay_t o = {.default_variant = VARIANT_CHESS, .keep_variations = variations, .on_game = s_keep, .ctx = out};
    long games = pgn_replay_text(text, len, &o);
    assert_int_equal(games, out->n);
}

static void test_features_and_errors(void **state)
{
    (void)state;
    size_t len;
    char *text = s_slurp("features.pgn", &len);
    s_read_t r;
    s_read(text, len, &r, false);
    assert_int_equal(r.n, 6);
    int plies[] = {9, 2, -1, 3, 11, 2};
    for (int i = 0; i < 6; i++) {
        assert_int_equal(r.number[i], i + 1);
        assert_int_equal(r.plies[i], plies[i]);
        assert_int_equal(r.errors[i], i == 1 || i == 2);
    }
    assert_string_equal(r.first_error[1],
                        "game 2, line 18, column 13: move 'Ke3': illegal (no such legal move in this position)");
    assert_non_null(strstr(r.first_error[2], "game 3, line 21, column 1: tag: value not closed"));
    assert_int_equal(r.result[0], RESULT_WHITE);
    assert_int_equal(r.term[0], TERM_DECLARED);
    assert_int_equal(r.term[4], TERM_CHECKMATE);
    assert_string_equal(r.final[3], "8/8/3k4/8/4P3/8/8/4K3 w - - 1 3");
    assert_string_equal(r.final[4], "1k1Q/1p2/1K2/n3 b - - 0 6");
    assert_string_equal(r.final[5], "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w - - 2 2");
    /* what was written reads back to the same games and writes the same text */
    assert_non_null(strstr(r.written, "{A comment before the first move, over two lines} 1. e4 $1 e5 $5"));
    assert_non_null(strstr(r.written, "a6 $6 {[%clk 0:05:00] [%cal Gb5c6]}"));
    assert_non_null(strstr(r.written, "1... Kd7 2. e4 Kd6 *"));
    assert_non_null(strstr(r.written, "[Variant \"Octad\"]"));
    assert_non_null(strstr(r.written, "[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"rk5r/"));
    assert_non_null(strstr(r.written, "[Event \"Tags with \\\"escapes\\\" and \\\\ backslashes\"]"));
    s_read_t again;
    s_read(r.written, r.written_len, &again, false);
    assert_int_equal(again.n, 4);
    assert_string_equal(again.written, r.written);
    for (const char *line = r.written; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != 0))
        assert_true(strcspn(line, "\n") <= 80);
    free(again.written);
    free(r.written);
    free(text);
}

static void test_variations_checked_on_request(void **state)
{
    (void)state;
    const char *text = "[Event \"x\"]\n\n1. e4 (1. d4 d5 (1... Nf3) 2. c4) (1. e5) e5 2. Nf3 *\n";
    s_read_t r;
    s_read(text, strlen(text), &r, false);
    assert_int_equal(r.errors[0], 0);
    assert_int_equal(r.plies[0], 3);
    free(r.written);
    s_read(text, strlen(text), &r, true);
    assert_int_equal(r.plies[0], 3);
    assert_int_equal(r.errors[0], 2); /* 1... Nf3 (no black knight reaches f3) and 1. e5 */
    assert_non_null(strstr(r.first_error[0], "line 3, column 23: in a variation: move 'Nf3': illegal"));
    assert_non_null(strstr(r.written, "1. e4 (1. d4 d5 2. c4) 1... e5 2. Nf3 *")); /* (1. e5) had no legal move */
    free(r.written);
}

/* The text with its line breaks made spaces (what the tests look for may wrap). */
static char *s_one_line(const char *text)
{
    char *t = strdup(text);
    for (char *p = t; *p; p++)
        if (*p == '\n')
            *p = ' ';
    return t;
}

/* The first game's tree, as read from variations.pgn. */
static void s_check_tree(void *ctx, pgn_game_t *g)
{
    int *calls = ctx;
    if ((*calls)++ != 0)
        return;
    char san[MOVE_TEXT_MAX];
    assert_true(g->note_cap > 4);
    assert_string_equal(g->notes[0].comment, "Start");
    const pgn_note_t *e4 = &g->notes[1];
    assert_int_equal(e4->var_nb, 2); /* 1. d4 ... and 1. c4 replace 1. e4 */
    assert_int_equal(e4->nag_nb, 1);
    const pgn_line_t *d4 = &e4->vars[0];
    assert_int_equal(d4->move_nb, 3);
    gmove_san(record_pos_at(&g->rec, 0), d4->moves[0], san);
    assert_string_equal(san, "d4");
    assert_string_equal(d4->notes[1].comment, "the queen's pawn");
    assert_int_equal(d4->notes[3].nags[0], 14);
    assert_int_equal(d4->notes[2].var_nb, 1); /* 1... Nf6 replaces 1... d5 */
    const pgn_line_t *nf6 = &d4->notes[2].vars[0];
    assert_int_equal(nf6->move_nb, 3);
    assert_int_equal(nf6->notes[2].var_nb, 1); /* 2. Nf3 replaces 2. c4 */
    assert_int_equal(nf6->notes[2].vars[0].notes[2].var_nb, 1); /* and 2... d5 replaces 2... g6 */
    assert_int_equal(g->notes[2].var_nb, 2); /* 1... c5 and 1... e6 replace 1... e5 */
    assert_string_equal(g->notes[4].vars[0].notes[0].comment, "before the move");
}

/* Keeps the comment after the first move of the first game. */
static void s_first_comment(void *ctx, pgn_game_t *g)
{
    char **out = ctx;
    if (*out == NULL && g->note_cap > 1 && g->notes[1].comment != NULL)
        *out = strdup(g->notes[1].comment);
}

/* Comment words that would change meaning at the start of a line (% escape
 * lines, a new game's [Event) never start one; tag values stay on their line. */
static void test_line_starts(void **state)
{
    (void)state;
    char comment[4096] = "", text[8192];
    for (int i = 0; i < 40; i++)
        strcat(comment, i ? " w%d %%lines [Event x" : "w%d %%lines [Event x");
    record_t rec;
    game_pos_t start;
    pgn_game_t g;
    char err[128];
    assert_int_equal(game_parse(VARIANT_CHESS, CHESS_START_FEN, &start, NULL, 0), 0);
    assert_int_equal(record_init(&rec, &start), 0);
    assert_int_equal(record_play_text(&rec, "e4", err, sizeof err), 0);
    assert_int_equal(pgn_game_from_record(&g, &rec), 0);
    assert_int_equal(pgn_note_comment(pgn_game_note(&g, 1), comment), 0);
    assert_int_equal(pgn_game_set_tag(&g, "White", "two\nlines"), 0);
    char *written = pgn_write_string(&g);
    assert_non_null(strstr(written, "[White \"two lines\"]"));
    for (const char *line = written; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != 0))
        assert_true(line[0] != '%' && strncmp(line, "[Event x", 8) != 0 && strcspn(line, "\n") <= 80);
    snprintf(text, sizeof text, "%s", written);
    char *back = NULL;
    pgn_replay_t o = {.default_variant = VARIANT_CHESS, .on_game = s_first_comment, .ctx = &back};
    assert_int_equal(pgn_replay_text(text, strlen(text), &o), 1);
    assert_non_null(back);
    assert_string_equal(back, comment);
    free(back);
    free(written);
    pgn_game_free(&g);
    record_free(&rec);
}

/* An open comment running into the next game, with "[Event " at every offset
 * around the end of the reader's 64 KiB buffer, read from a FILE. */
static void test_open_comment_across_buffer(void **state)
{
    (void)state;
    enum { BUF = 1 << 16 };
    static char text[BUF + 256];
    for (int nl = BUF - 10; nl <= BUF + 2; nl++) {
        int n = snprintf(text, sizeof text, "[Event \"a\"]\n\n1. e4 {open");
        memset(text + n, 'x', (size_t)(nl - n));
        n = nl + snprintf(text + nl, sizeof text - (size_t)nl, "\n[Event \"b\"]\n\n1. d4 d5 *\n");
        FILE *f = fmemopen(text, (size_t)n, "rb");
        assert_non_null(f);
        s_read_t r;
        memset(&r, 0, sizeof r);
        pgn_replay_t o = {.default_variant = VARIANT_CHESS, .on_game = s_keep, .ctx = &r};
        assert_int_equal(pgn_replay(f, &o), 2);
        fclose(f);
        assert_string_equal(r.first_error[0],
                            "game 1, line 3, column 7: comment: '{' not closed by '}' before the next game's [Event tag");
        assert_int_equal(r.errors[1], 0);
        assert_int_equal(r.plies[1], 2);
        free(r.written);
    }
}

/* A comment left open between two games is reported as a game of its own. */
static void test_open_comment_between_games(void **state)
{
    (void)state;
    const char *text = "1. e4 *\n\n{open\n[Event \"b\"]\n\n1. d4 d5 *\n{open at the end\n";
    s_read_t r;
    s_read(text, strlen(text), &r, false);
    assert_int_equal(r.n, 4);
    assert_int_equal(r.errors[0], 0);
    assert_string_equal(r.first_error[1], "game 2, line 3, column 1: comment: '{' not closed by '}' before the next "
                                          "game's [Event tag");
    assert_int_equal(r.errors[2], 0);
    assert_int_equal(r.plies[2], 2);
    assert_string_equal(r.first_error[3],
                        "game 4, line 7, column 1: comment: '{' not closed by '}' before the end of the input");
    free(r.written);
}

/* "exd6 e.p.", the remark written apart from its move, is read as a remark. */
static void test_ep_remark(void **state)
{
    (void)state;
    const char *text = "1. e4 Nf6 2. e5 d5 3. exd6 e.p. cxd6 *\n";
    s_read_t r;
    s_read(text, strlen(text), &r, false);
    assert_int_equal(r.errors[0], 0);
    assert_int_equal(r.plies[0], 6);
    assert_non_null(strstr(r.written, "3. exd6 cxd6 *"));
    free(r.written);
}

static void test_variations_kept_and_written(void **state)
{
    (void)state;
    size_t len;
    char *text = s_slurp("variations.pgn", &len);
    s_read_t r, again;
    s_read(text, len, &r, true);
    assert_int_equal(r.n, 3);
    int variations[] = {9, 3, 3};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(r.errors[i], 0);
        assert_int_equal(r.variations[i], variations[i]);
    }
    char *flat = s_one_line(r.written);
    const char *want[] = {
        "{Start} 1. e4 $1 {best by test} (1. d4 {the queen's pawn} 1... d5 (1... Nf6 2. c4 (2. Nf3 {a second "
        "level} 2... g6 (2... d5 {a third level})) 2... e6) 2. c4 $14) (1. c4) 1... e5 (1... c5 {the Sicilian} "
        "2. Nf3 (2. Nc3) 2... d6) (1... e6) 2. Nf3",
        "2... Nc6 ({before the move} 2... d6 $2 {after it}) 3. Bb5 *",
        "\n1... Kd7 (1... Ke7 2. e4 (2. Kd2) 2... Kd6) (1... Kf7) 2. e4 Kd6 *",
        "1. c2 (1. O-O a3 (1... b3 {octad's own}) 2. Nc2) 1... b3 2. Kb2 O-O-O (2... a3+ 3. Kxa3) 3. cxb3",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (strstr(i == 2 ? r.written : flat, want[i]) == NULL)
            fail_msg("not written: '%s' in\n%s", want[i], r.written);
    for (const char *line = r.written; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != 0))
        assert_true(strcspn(line, "\n") <= 80);
    s_read(r.written, r.written_len, &again, true); /* write, read, write: the same text */
    assert_int_equal(again.n, 3);
    assert_string_equal(again.written, r.written);
    for (int i = 0; i < 3; i++)
        assert_int_equal(again.variations[i], variations[i]);
    int calls = 0;
    pgn_replay_t o = {.default_variant = VARIANT_CHESS, .keep_variations = true, .on_game = s_check_tree, .ctx = &calls};
    pgn_replay_text(text, len, &o);
    free(again.written);
    free(r.written);
    s_read(text, len, &r, false); /* skipped: not kept, not written */
    assert_int_equal(r.variations[0], 0);
    assert_null(strchr(r.written, '('));
    free(r.written);
    free(flat);
    free(text);
}

/* Reads text; its first game's first error must contain `want`. */
static void s_expect_error(const char *text, bool variations, const char *want, s_read_t *r)
{
    s_read(text, strlen(text), r, variations);
    if (r->errors[0] == 0 || strstr(r->first_error[0], want) == NULL)
        fail_msg("'%s': first error '%s' (want '%s')", text, r->first_error[0], want);
}

static void test_variation_errors(void **state)
{
    (void)state;
    const char *cases[][2] = {
        {"(1. d4) 1. e4 *\n", "a variation before any move"},
        {"1. e4 ((1. c4) 1. d4) *\n", "a variation before any move"},
        {"1. e4 (1. d4 d5 (1... e5 2. dxe5 Kd7 3. Kd3) 2. c4) e5 *\n", "line 1, column 34: in a variation: move 'Kd7'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        s_read_t r;
        s_expect_error(cases[i][0], true, cases[i][1], &r);
        assert_non_null(r.written); /* only variations are wrong: the game is kept, */
        if (i == 2)                 /* the bad one cut at its illegal move */
            assert_non_null(strstr(r.written, "\n1. e4 (1. d4 d5 (1... e5 2. dxe5) 2. c4) 1... e5 *"));
        free(r.written);
    }
}

static void test_syntax_errors_then_next_game(void **state)
{
    (void)state;
    const char *cases[][2] = {
        {"1. e4 ) e5 *\n", "column 7: variation: ')' without '('"},
        {"1. e4 (e5 *\n", "result inside a variation"},
        {"1. e4 {never closed\n", "game 1, line 1, column 7: comment: '{' not closed by '}' before the next game's"},
        {"[Event \"open\"]\n\n{never closed\n", "game 1, line 3, column 1: comment: '{' not closed"},
        {"1. e4 $x *\n", "NAG: '$' without a number"},
        {"1. e4 $300 e5 *\n", "column 7: NAG: $300 is out of range (0-255)"},
        {"1. e4 & *\n", "unexpected character '&'"},
        {"[Event x]\n1. e4 *\n", "tag: value must be a quoted string"},
        {"1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 0-1\n",
         "line 1, column 41: result 0-1 disagrees with the game: checkmate gives 1-0"},
        {"[Event \"e\"]\n[Variant \"Shogi\"]\n1. e4 *\n", "game 1, line 2, column 1: tag Variant: 'Shogi'"},
        {"[Event \"e\"]\n [FEN \"8/8/8 w - - 0 1\"]\n1. e4 *\n", "game 1, line 2, column 2: tag FEN:"},
        {"[Event \"e\"]\n[Variant \"Chess960\"]\n1. e4 *\n", "line 2, column 1: tag FEN: a Chess960 game needs"},
        {"1. e4 (1. d4 d5\n", "game 1, line 1, column 7: variation not closed"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, "%s\n[Event \"next\"]\n\n1. d4 d5 *\n", cases[i][0]);
        s_read_t r;
        s_expect_error(text, false, cases[i][1], &r);
        assert_int_equal(r.number[r.n - 1], 2); /* the next game is still read, */
        assert_int_equal(r.errors[r.n - 1], 0);  /* and it is fine */
        assert_int_equal(r.plies[r.n - 1], 2);
        free(r.written);
    }
    s_read_t r; /* a NAG out of range is dropped, and the game read on */
    s_expect_error("1. e4 $300 e5 *\n", false, "NAG", &r);
    assert_int_equal(r.plies[0], 2);
    free(r.written);
}

/* A visitor that counts what it is told, asking for headers only. */
typedef struct {
    int games, headers, moves, comments, nags, variations, results;
} s_count_t;

static void s_c_header(void *ctx, const char *name, const char *value, const pgn_where_t *w)
{
    (void)name, (void)value, (void)w;
    ((s_count_t *)ctx)->headers++;
}
static pgn_action_t s_c_skip(void *ctx) { (void)ctx; return PGN_SKIP; }
static pgn_action_t s_c_go(void *ctx) { (void)ctx; return PGN_GO; }
static pgn_action_t s_c_move(void *ctx, const char *san, const pgn_where_t *w)
{
    (void)san, (void)w;
    ((s_count_t *)ctx)->moves++;
    return PGN_GO;
}
static void s_c_comment(void *ctx, const char *t) { (void)t; ((s_count_t *)ctx)->comments++; }
static void s_c_nag(void *ctx, int n) { (void)n; ((s_count_t *)ctx)->nags++; }
static pgn_action_t s_c_var(void *ctx, const pgn_where_t *w) { (void)w; ((s_count_t *)ctx)->variations++; return PGN_GO; }
static void s_c_result(void *ctx, const char *t, const pgn_where_t *w) { (void)t, (void)w; ((s_count_t *)ctx)->results++; }
static void s_c_end(void *ctx) { ((s_count_t *)ctx)->games++; }

static void test_visitor_skips(void **state)
{
    (void)state;
    size_t len;
    char *text = s_slurp("features.pgn", &len);
    pgn_visitor_t v = {.header = s_c_header, .end_headers = s_c_skip, .move = s_c_move, .comment = s_c_comment,
                       .nag = s_c_nag, .begin_variation = s_c_var, .result = s_c_result, .end_game = s_c_end};
    s_count_t c = {0};
    assert_int_equal(pgn_read_text(text, len, &v, &c), 6);
    assert_int_equal(c.games, 6);
    assert_int_equal(c.moves, 0);
    assert_int_equal(c.headers, 8 + 2 + 1 + 4 + 3 + 4); /* game 3's tags are skipped after its error */
    v.end_headers = s_c_go;
    memset(&c, 0, sizeof c);
    pgn_read_text(text, len, &v, &c);
    assert_int_equal(c.variations, 2);
    assert_int_equal(c.nags, 3);
    assert_int_equal(c.comments, 3);
    assert_int_equal(c.moves, 9 + 4 + 4 + 0 + 3 + 11 + 2); /* mainlines, variations; not game 3 after its error */
    assert_int_equal(c.results, 5);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_features_and_errors),
        cmocka_unit_test(test_variations_checked_on_request),
        cmocka_unit_test(test_variations_kept_and_written),
        cmocka_unit_test(test_variation_errors),
        cmocka_unit_test(test_ep_remark),
        cmocka_unit_test(test_open_comment_across_buffer),
        cmocka_unit_test(test_open_comment_between_games),
        cmocka_unit_test(test_line_starts),
        cmocka_unit_test(test_syntax_errors_then_next_game),
        cmocka_unit_test(test_visitor_skips),
    };
    game_init();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
