/* test_octad_ofen.c: OFEN round trips over the suites, every rejection of
 * RULES.md with its field named, and garbage/truncated/huge inputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "epd.h"
#include "octad/octad.h"

static int s_setup(void **state)
{
    (void)state;
    octad_init();
    return 0;
}

/* Parses text, formats it, and checks that the formatted text parses back to itself. */
static void s_round_trip(const char *text, char *out, size_t len)
{
    octad_pos_t p, q;
    char err[128], again[GAME_TEXT_MAX];
    int rc = octad_parse(text, &p, err, sizeof err);
    if (rc != 0)
        fail_msg("%s: %s", text, err);
    octad_format(&p, out, len);
    assert_int_equal(octad_parse(out, &q, err, sizeof err), 0);
    octad_format(&q, again, sizeof again);
    assert_string_equal(out, again);
    assert_memory_equal(&p, &q, sizeof p);
}

static void s_suite_round_trip(const char *name)
{
    const char *dir = getenv("OCTAD_TEST_DATA");
    char path[1024], line[512], err[128], out[GAME_TEXT_MAX];
    assert_non_null(dir);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int lines = 0;
    while (fgets(line, sizeof line, f)) {
        epd_line_t e;
        if (epd_parse_line(line, &e, err, sizeof err) != 1)
            continue;
        s_round_trip(e.text, out, sizeof out);
        assert_string_equal(out, e.text); /* the suites are written canonically */
        lines++;
    }
    fclose(f);
    assert_true(lines >= 280);
}

static void test_suites_round_trip(void **state)
{
    (void)state;
    s_suite_round_trip("octad-standard.epd");
    s_suite_round_trip("octad-deploy.epd");
}

static void test_start_and_canonical_letters(void **state)
{
    char out[GAME_TEXT_MAX];
    (void)state;
    s_round_trip(OCTAD_START_OFEN, out, sizeof out);
    assert_string_equal(out, "ppkn/4/4/NKPP w NCFncf - 0 1");
    /* Letters are roles: any order reads the same; a letter without its role is dropped. */
    s_round_trip("ppkn/4/4/NKPP w fcnFCN - 0 1", out, sizeof out);
    assert_string_equal(out, "ppkn/4/4/NKPP w NCFncf - 0 1");
    s_round_trip("ppkn/4/2P1/NK1P b NCFncf - 0 1", out, sizeof out);
    assert_string_equal(out, "ppkn/4/2P1/NK1P b NFncf - 0 1");
    s_round_trip("ppkn/2P1/4/NK1P b NCFncf c2 0 1", out, sizeof out);
    assert_string_equal(out, "ppkn/2P1/4/NK1P b NFncf c2 0 1");
    /* King off its home rank: no letter has a role. */
    s_round_trip("ppkn/4/1K2/N1PP b NCFncf - 1 1", out, sizeof out);
    assert_string_equal(out, "ppkn/4/1K2/N1PP b ncf - 1 1");
    /* Both neighbours pawns: C is the lower-file one, F the higher. */
    s_round_trip("ppkn/4/4/NPKP w NCF - 0 1", out, sizeof out);
    assert_string_equal(out, "ppkn/4/4/NPKP w CF - 0 1");
    s_round_trip("ppkn/4/4/NPKP w F - 0 1", out, sizeof out);
    assert_string_equal(out, "ppkn/4/4/NPKP w F - 0 1");
    s_round_trip("  ppkn/4/4/NKPP w - - 12 34\n", out, sizeof out);
    assert_string_equal(out, "ppkn/4/4/NKPP w - - 12 34");
}

/* Asserts that text is rejected with a message starting with `prefix`. */
static void s_rejects(const char *text, const char *prefix)
{
    octad_pos_t p;
    char err[128] = "";
    if (octad_parse(text, &p, err, sizeof err) != -1)
        fail_msg("accepted: %s", text);
    if (strncmp(err, prefix, strlen(prefix)) != 0)
        fail_msg("%s: message \"%s\" does not start with \"%s\"", text, err, prefix);
}

static void test_rejections(void **state)
{
    (void)state;
    s_rejects("ppkn/4/4/NKPP w NCFncf - 0", "OFEN: 5 fields");
    s_rejects("ppkn/4/4/NKPP w NCFncf - 0 1 x", "OFEN: more than 6 fields");
    s_rejects("ppkn/4/4/NKPP w  NCFncf - 0 1", "OFEN: empty field");
    s_rejects("ppkn/4/4 w NCFncf - 0 1", "placement: 3 ranks");
    s_rejects("ppkn/4/4/NKPP/4 w NCFncf - 0 1", "placement: more than 4 ranks");
    s_rejects("ppkn/3/4/NKPP w NCFncf - 0 1", "placement: rank 3 has 3 squares");
    s_rejects("ppkn/4/4/NKPPP w NCFncf - 0 1", "placement: rank 1 has more than 4 squares");
    s_rejects("ppkn/41/4/NKPP w NCFncf - 0 1", "placement: rank 3 has two digits");
    s_rejects("ppkn/5/4/NKPP w NCFncf - 0 1", "placement: unknown piece letter '5'");
    s_rejects("ppkn/4/4/NKPX w NCFncf - 0 1", "placement: unknown piece letter 'X'");
    s_rejects("ppkn/4/4/NKPP x NCFncf - 0 1", "side to move:");
    s_rejects("ppkn/4/4/NKPP white NCFncf - 0 1", "side to move:");
    s_rejects("ppkn/4/4/NKPP w NCFX - 0 1", "castling: unknown letter 'X'");
    s_rejects("ppkn/4/4/NKPP w KQkq - 0 1", "castling: unknown letter 'K'");
    s_rejects("ppkn/4/4/NKPP w NNC - 0 1", "castling: repeated letter 'N'");
    s_rejects("ppkn/4/4/NKPP w -N - 0 1", "castling: unknown letter '-'");
    s_rejects("ppkn/4/4/NKPP w NCFncf c2 0 1", "en passant: c2 is on the wrong rank");
    s_rejects("ppkn/2P1/4/NK1P b NFncf c3 0 1", "en passant: c3 is on the wrong rank");
    s_rejects("ppkn/4/4/NKPP w NCFncf c3 0 1", "en passant: no double-stepped pawn");
    s_rejects("ppkn/2P1/4/NK1P b NFncf d2 0 1", "en passant: no double-stepped pawn");
    s_rejects("ppkn/2P1/4/NKPP b NFncf c2 0 1", "en passant: c2 or the square behind it");
    s_rejects("ppkn/4/4/NKPP w NCFncf e3 0 1", "en passant:");
    s_rejects("ppkn/4/4/NKPP w NCFncf c33 0 1", "en passant:");
    s_rejects("ppkn/4/4/NKPP w NCFncf - -1 1", "halfmove clock:");
    s_rejects("ppkn/4/4/NKPP w NCFncf - x 1", "halfmove clock:");
    s_rejects("ppkn/4/4/NKPP w NCFncf - +1 1", "halfmove clock:");
    s_rejects("ppkn/4/4/NKPP w NCFncf - 99999999999999999999999 1", "halfmove clock:");
    s_rejects("ppkn/4/4/NKPP w NCFncf - 0 0", "fullmove number: 0 is below 1");
    s_rejects("ppkn/4/4/NKPP w NCFncf - 0 -3", "fullmove number:");
    s_rejects("ppkn/4/4/NKPP w NCFncf - 0 184467440737095516161", "fullmove number:");
    s_rejects("ppkn/4/4/NKPP w NCFncf - 0 1.5", "fullmove number:");
    s_rejects("ppn1/4/4/NKPP w - - 0 1", "placement: Black has 0 kings");
    s_rejects("ppkk/4/4/NKPP w - - 0 1", "placement: Black has 2 kings");
    s_rejects("ppkn/4/4/NNPP w - - 0 1", "placement: White has 0 kings");
    s_rejects("ppkP/4/4/NK1P w - - 0 1", "placement: a pawn stands on its promotion rank");
    s_rejects("pk1n/4/4/pKPP w - - 0 1", "placement: a pawn stands on its promotion rank");
    s_rejects("ppkn/4/1N2/1KPP w - - 0 1", "placement: Black, not to move, is in check");
    s_rejects("ppkn/4/3n/NKPP b - - 0 1", "placement: White, not to move, is in check");
    s_rejects("", "OFEN: empty");
    s_rejects("   \n", "OFEN: empty");
}

static void test_no_text_and_long_text(void **state)
{
    octad_pos_t p;
    char err[64];
    (void)state;
    assert_int_equal(octad_parse(NULL, &p, err, sizeof err), -1);
    char *big = malloc(100001);
    assert_non_null(big);
    memset(big, '1', 100000);
    big[100000] = '\0';
    assert_int_equal(octad_parse(big, &p, err, sizeof err), -1);
    assert_int_equal(strncmp(err, "OFEN: text longer", 17), 0);
    free(big);
    /* A zero-sized error buffer is allowed. */
    assert_int_equal(octad_parse("x", &p, NULL, 0), -1);
}

/* Parses arbitrary bytes: must return 0 or -1; a success must format and re-parse. */
static void s_try(const char *text)
{
    octad_pos_t p, q;
    char err[128], out[GAME_TEXT_MAX];
    int rc = octad_parse(text, &p, err, sizeof err);
    assert_true(rc == 0 || rc == -1);
    if (rc == 0) {
        octad_format(&p, out, sizeof out);
        assert_int_equal(octad_parse(out, &q, err, sizeof err), 0);
    } else {
        assert_true(strlen(err) > 0);
    }
}

static void test_truncations_and_garbage(void **state)
{
    static const char *seeds[] = { "ppkn/4/4/NKPP w NCFncf - 0 1", "p1kn/1p2/2P1/NPK1 b nf - 0 2",
                                   "k2p/2P1/n3/NK1n b - c2 0 4", "p2n/k2P/1pPN/K3 w - b3 0 5" };
    static const char alphabet[] = "pnbrqkPNBRQK12345/ -wbNCFncfabcd0189\t\xff";
    char buf[64];
    uint32_t rng = 12345;
    (void)state;
    for (size_t s = 0; s < sizeof seeds / sizeof *seeds; s++) {
        size_t len = strlen(seeds[s]);
        for (size_t cut = 0; cut <= len; cut++) {
            memcpy(buf, seeds[s], cut);
            buf[cut] = '\0';
            s_try(buf);
        }
        for (int i = 0; i < 20000; i++) {
            memcpy(buf, seeds[s], len + 1);
            for (int k = 0; k < 1 + i % 3; k++) {
                rng = rng * 1664525u + 1013904223u;
                size_t at = (rng >> 8) % len;
                rng = rng * 1664525u + 1013904223u;
                buf[at] = alphabet[(rng >> 8) % (sizeof alphabet - 1)];
            }
            s_try(buf);
        }
    }
    for (int i = 0; i < 20000; i++) {
        size_t n = (size_t)(i % 40);
        for (size_t k = 0; k < n; k++) {
            rng = rng * 1664525u + 1013904223u;
            buf[k] = (char)(1 + (rng >> 8) % 255);
        }
        buf[n] = '\0';
        s_try(buf);
    }
}

static void test_format_key_and_small_buffers(void **state)
{
    octad_pos_t p;
    char err[64], key[GAME_TEXT_MAX], tiny[8];
    (void)state;
    assert_int_equal(octad_parse("k2p/2P1/n3/NK1n b - c2 7 4", &p, err, sizeof err), 0);
    octad_format_key(&p, key, sizeof key);
    assert_string_equal(key, "k2p/2P1/n3/NK1n b - c2");
    octad_format(&p, tiny, sizeof tiny);
    assert_string_equal(tiny, "k2p/2P1");
}

/* Found by fuzzing: a clock at the largest value OFEN takes must not grow
 * past it, or the child could not be written and read back. */
static void test_counters_saturate(void **state)
{
    (void)state;
    octad_pos_t p, c, again;
    char err[128], text[128];
    assert_int_equal(octad_parse("4/rpkN/4/NPKB b cf - 1000000000 1000000000", &p, err, sizeof err), 0);
    assert_int_not_equal(octad_parse("4/rpkN/4/NPKB b cf - 1000000001 1", &c, err, sizeof err), 0);
    octad_move_t moves[64];
    int n = octad_gen_legal(&p, moves);
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        octad_make(&p, moves[i], &c);
        assert_true(c.halfmove <= OCTAD_COUNTER_MAX && c.fullmove == OCTAD_COUNTER_MAX);
        octad_format(&c, text, sizeof text);
        if (octad_parse(text, &again, err, sizeof err) != 0)
            fail_msg("%s: %s", text, err);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_suites_round_trip),
        cmocka_unit_test(test_start_and_canonical_letters),
        cmocka_unit_test(test_rejections),
        cmocka_unit_test(test_no_text_and_long_text),
        cmocka_unit_test(test_truncations_and_garbage),
        cmocka_unit_test(test_format_key_and_small_buffers),
        cmocka_unit_test(test_counters_saturate),
    };
    return cmocka_run_group_tests(tests, s_setup, NULL);
}
