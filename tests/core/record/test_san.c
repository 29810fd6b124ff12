/* test_san.c: every legal move of every suite position parses back from its
 * SAN, its UOI and the looser forms people write; typed errors for malformed,
 * illegal and ambiguous moves. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "epd.h"
#include "san.h"

static game_pos_t s_pos(variant_t v, const char *text)
{
    game_pos_t p;
    char err[160];
    if (game_parse(v, text, &p, err, sizeof err) != 0)
        fail_msg("%s: %s", text, err);
    return p;
}

/* Asserts that `text` names exactly the move m of p. */
static void s_expect(const game_pos_t *p, const char *text, gmove_t m, const char *fen)
{
    gmove_t got = GMOVE_NONE;
    char err[200];
    san_error_t e = san_move(p, text, &got, err, sizeof err);
    if (e != SAN_OK || got != m)
        fail_msg("%s: '%s' gave %s (%s)", fen, text, san_error_name(e), e ? err : "another move");
}

/* Removes every occurrence of character c from s. */
static void s_drop(char *s, char c)
{
    char *w = s;
    for (char *r = s; *r; r++)
        if (*r != c)
            *w++ = *r;
    *w = '\0';
}

/* The looser texts of one move: no check mark, no 'x', no '=', lowercase promotion, zeros, over-disambiguation. */
static void s_variants(const game_pos_t *p, gmove_t m, const char *san, const char *fen)
{
    char t[48];
    gmove_info_t i = gmove_info(p, m);
    snprintf(t, sizeof t, "%s", san);
    t[strcspn(t, "+#")] = '\0';
    s_expect(p, t, m, fen); /* missing +/# */
    char bare[48];
    memcpy(bare, t, sizeof bare);
    strcat(strcpy(t, bare), "+");
    s_expect(p, t, m, fen); /* extra + */
    strcat(strcpy(t, san), "!?");
    s_expect(p, t, m, fen); /* a glyph */
    if (i.castle) {
        for (char *c = bare; *c; c++)
            *c = *c == 'O' ? '0' : *c;
        s_expect(p, bare, m, fen);
        return;
    }
    snprintf(t, sizeof t, "%s", bare);
    s_drop(t, 'x');
    s_expect(p, t, m, fen); /* missing x */
    if (i.promo) {
        snprintf(t, sizeof t, "%s", bare);
        s_drop(t, '=');
        s_expect(p, t, m, fen); /* missing = */
        t[strlen(t) - 1] = (char)(t[strlen(t) - 1] - 'A' + 'a');
        s_expect(p, t, m, fen); /* lowercase promotion letter */
    }
    if (i.piece != 0) { /* over-disambiguation and long algebraic */
        snprintf(t, sizeof t, "%c%c%c%s%c%c", "PNBRQK"[i.piece], 'a' + i.from_file, '1' + i.from_rank,
                 i.capture ? "x" : "", 'a' + i.to_file, '1' + i.to_rank);
        s_expect(p, t, m, fen);
        snprintf(t, sizeof t, "%c%c%c-%c%c", "PNBRQK"[i.piece], 'a' + i.from_file, '1' + i.from_rank,
                 'a' + i.to_file, '1' + i.to_rank);
        s_expect(p, t, m, fen);
    }
}

/* Every legal move of every position of a suite; returns the number of moves checked. */
static long s_suite(const char *file, variant_t v)
{
    char path[512], line[512], err[160];
    snprintf(path, sizeof path, "%s/%s", getenv("OCTAD_TEST_DATA"), file);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    long checked = 0;
    epd_line_t e;
    while (fgets(line, sizeof line, f)) {
        if (epd_parse_line(line, &e, err, sizeof err) != 1)
            continue;
        game_pos_t p = s_pos(v, e.text);
        gmove_t moves[GAME_MOVES_MAX];
        char san[MOVE_TEXT_MAX], uoi[MOVE_TEXT_MAX];
        int n = gmove_legal(&p, moves);
        for (int k = 0; k < n; k++) {
            gmove_san(&p, moves[k], san);
            gmove_uoi(&p, moves[k], uoi);
            s_expect(&p, san, moves[k], e.text);
            s_expect(&p, uoi, moves[k], e.text);
            s_variants(&p, moves[k], san, e.text);
            checked++;
        }
    }
    fclose(f);
    return checked;
}

static void test_suites_parse_back(void **state)
{
    (void)state;
    assert_true(s_suite("octad-standard.epd", VARIANT_OCTAD) > 1000);
    assert_true(s_suite("octad-deploy.epd", VARIANT_OCTAD) > 1000);
    assert_true(s_suite("chess-standard.epd", VARIANT_CHESS) > 100);
    assert_true(s_suite("chess-cpw.epd", VARIANT_CHESS) > 100);
    assert_true(s_suite("chess960-fischer.epd", VARIANT_CHESS960) > 1000);
}

static void s_error(variant_t v, const char *fen, const char *text, san_error_t want, const char *needle)
{
    game_pos_t p = s_pos(v, fen);
    gmove_t m;
    char err[200] = "";
    san_error_t e = san_move(&p, text, &m, err, sizeof err);
    if (e != want || strstr(err, needle) == NULL || strstr(err, text) == NULL)
        fail_msg("'%s' in %s: %s '%s' (want %s containing '%s')", text, fen, san_error_name(e), err,
                 san_error_name(want), needle);
}

static void test_typed_errors(void **state)
{
    (void)state;
    const char *chess = CHESS_START_FEN, *octad = OCTAD_START_OFEN;
    s_error(VARIANT_CHESS, chess, "Nf9", SAN_MALFORMED, "malformed");
    s_error(VARIANT_CHESS, chess, "Zf3", SAN_MALFORMED, "unexpected 'Z'");
    s_error(VARIANT_CHESS, chess, "e4e5e6", SAN_MALFORMED, "malformed");
    s_error(VARIANT_CHESS, chess, "O-O-O-O", SAN_MALFORMED, "malformed");
    s_error(VARIANT_CHESS, chess, "N", SAN_MALFORMED, "destination");
    s_error(VARIANT_OCTAD, octad, "e4", SAN_MALFORMED, "off the 4x4 board");
    s_error(VARIANT_CHESS, chess, "e5", SAN_ILLEGAL, "illegal");
    s_error(VARIANT_CHESS, chess, "Ke2", SAN_ILLEGAL, "illegal");
    s_error(VARIANT_CHESS, chess, "O-O", SAN_ILLEGAL, "castle");
    s_error(VARIANT_CHESS, chess, "e2e5", SAN_ILLEGAL, "illegal");
    s_error(VARIANT_OCTAD, octad, "O-O-O", SAN_ILLEGAL, "castle");
    s_error(VARIANT_CHESS, "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nd2", SAN_AMBIGUOUS, "Nbd2");
    s_error(VARIANT_CHESS, "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nd2", SAN_AMBIGUOUS, "Nfd2");
    s_error(VARIANT_CHESS, "8/4P3/8/8/8/8/8/k3K3 w - - 0 1", "e8", SAN_ILLEGAL, "promotion piece");
    s_error(VARIANT_OCTAD, "k3/2P1/4/K3 w - - 0 1", "c4", SAN_ILLEGAL, "promotion piece");
    s_error(VARIANT_CHESS, "8/4P3/8/8/8/8/8/k3K3 w - - 0 1", "e8=K", SAN_MALFORMED, "Q, R, B or N, not K");
    s_error(VARIANT_OCTAD, "k3/2P1/4/K3 w - - 0 1", "c4p", SAN_MALFORMED, "Q, R, B or N, not p");
    /* The SAN of a disambiguated move also parses from its bare form when that is unique. */
    game_pos_t p = s_pos(VARIANT_CHESS, "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
    gmove_t m, n;
    char err[200];
    assert_int_equal(san_move(&p, "Nbd2", &m, err, sizeof err), SAN_OK);
    assert_int_equal(san_move(&p, "b1d2", &n, err, sizeof err), SAN_OK);
    assert_int_equal(m, n);
    /* Chess castles from their UCI (e1g1) and as king takes rook (e1h1). */
    p = s_pos(VARIANT_CHESS, "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_int_equal(san_move(&p, "O-O", &m, err, sizeof err), SAN_OK);
    assert_int_equal(san_move(&p, "e1g1", &n, err, sizeof err), SAN_OK);
    assert_int_equal(m, n);
    assert_int_equal(san_move(&p, "e1h1", &n, err, sizeof err), SAN_OK);
    assert_int_equal(m, n);
    assert_int_equal(san_move(&p, "0-0", &n, err, sizeof err), SAN_OK);
    assert_int_equal(m, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_suites_parse_back),
        cmocka_unit_test(test_typed_errors),
    };
    game_init();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
