/* test_octad_moves.c: castling of every kind and its rights, en passant,
 * promotions, leaper edge cases, UOI and SAN texts, status and drawing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "epd.h"
#include "octad/make.h"
#include "octad/octad.h"

static int s_setup(void **state)
{
    (void)state;
    octad_init();
    return 0;
}

static octad_pos_t s_pos(const char *text)
{
    octad_pos_t p;
    char err[128];
    if (octad_parse(text, &p, err, sizeof err) != 0)
        fail_msg("%s: %s", text, err);
    return p;
}

/* The legal move of p written `uoi`; fails the test if there is none. */
static octad_move_t s_move(const octad_pos_t *p, const char *uoi)
{
    octad_move_t moves[GAME_MOVES_MAX];
    char text[MOVE_TEXT_MAX];
    int n = octad_gen_legal(p, moves);
    for (int i = 0; i < n; i++) {
        octad_move_uoi(p, moves[i], text);
        if (strcmp(text, uoi) == 0)
            return moves[i];
    }
    fail_msg("no legal move %s", uoi);
    return 0;
}

/* Whether p has a legal move written `uoi`. */
static int s_has(const octad_pos_t *p, const char *uoi)
{
    octad_move_t moves[GAME_MOVES_MAX];
    char text[MOVE_TEXT_MAX];
    int n = octad_gen_legal(p, moves);
    for (int i = 0; i < n; i++) {
        octad_move_uoi(p, moves[i], text);
        if (strcmp(text, uoi) == 0)
            return 1;
    }
    return 0;
}

/* Plays the UOI moves of the space-separated list `line` from p, in place. */
static void s_play(octad_pos_t *p, const char *line)
{
    char buf[256], *save = NULL;
    snprintf(buf, sizeof buf, "%s", line);
    for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        octad_pos_t next;
        octad_make(p, s_move(p, t), &next);
        *p = next;
    }
}

static void s_assert_ofen(const octad_pos_t *p, const char *want)
{
    char out[GAME_TEXT_MAX];
    octad_format(p, out, sizeof out);
    assert_string_equal(out, want);
}

static void s_assert_san(const octad_pos_t *p, const char *uoi, const char *want)
{
    char san[MOVE_TEXT_MAX];
    octad_move_san(p, s_move(p, uoi), san);
    assert_string_equal(san, want);
}

/* Number of castles of p. */
static int s_castles(const octad_pos_t *p)
{
    octad_move_t moves[GAME_MOVES_MAX];
    int n = octad_gen_legal(p, moves), c = 0;
    for (int i = 0; i < n; i++)
        c += octad_move_is_castle(moves[i]);
    return c;
}

static void test_start_moves(void **state)
{
    octad_move_t moves[GAME_MOVES_MAX];
    (void)state;
    octad_pos_t p = s_pos(OCTAD_START_OFEN);
    assert_int_equal(octad_gen_legal(&p, moves), 10);
    s_assert_san(&p, "b1a1", "O");
    s_assert_san(&p, "b1c1", "O-O");
    assert_false(s_has(&p, "b1d1")); /* far pawn blocked by the centre pawn */
    assert_false(s_has(&p, "b1c2")); /* attacked by the knight on d4 */
    assert_int_equal(octad_move_kind(s_move(&p, "b1a1")), OCTAD_MK_CASTLE_NEAR);
    assert_int_equal(octad_move_kind(s_move(&p, "b1c1")), OCTAD_MK_CASTLE_CENTER);
    s_assert_san(&p, "c1c3", "c3");
    s_assert_san(&p, "a1b3", "Nb3");
    s_assert_san(&p, "b1b2", "Kb2");
    octad_pos_t q = p;
    s_play(&q, "b1a1");
    s_assert_ofen(&q, "ppkn/4/4/KNPP b ncf - 0 1");
    q = p;
    s_play(&q, "b1c1");
    s_assert_ofen(&q, "ppkn/4/4/NPKP b ncf - 0 1");
}

static void test_far_castle_after_centre_pawn(void **state)
{
    (void)state;
    octad_pos_t p = s_pos(OCTAD_START_OFEN);
    s_play(&p, "c1c2");
    s_assert_ofen(&p, "ppkn/4/2P1/NK1P b NFncf - 0 1");
    s_play(&p, "b4b3");
    assert_int_equal(octad_move_kind(s_move(&p, "b1d1")), OCTAD_MK_CASTLE_FAR);
    s_assert_san(&p, "b1d1", "O-O-O");
    s_play(&p, "b1d1");
    s_assert_ofen(&p, "p1kn/1p2/2P1/NPK1 b nf - 0 2");
    /* 1. c2 b3 2. Kb2: White has no rights left; Black castles far itself later. */
    p = s_pos(OCTAD_START_OFEN);
    s_play(&p, "c1c2 b4b3 b1b2");
    s_assert_ofen(&p, "p1kn/1p2/1KP1/N2P b nf - 0 2");
}

static void test_deployed_castles(void **state)
{
    (void)state;
    /* King between two pawns: both castles are swaps, O-O low file, O-O-O high file. */
    octad_pos_t p = s_pos("ppkn/4/4/NPKP w NCFncf - 0 1");
    s_assert_ofen(&p, "ppkn/4/4/NPKP w CFncf - 0 1");
    s_assert_san(&p, "c1b1", "O-O");
    s_assert_san(&p, "c1d1", "O-O-O");
    assert_int_equal(octad_move_kind(s_move(&p, "c1d1")), OCTAD_MK_CASTLE_CENTER);
    octad_pos_t q = p;
    s_play(&q, "c1d1");
    s_assert_ofen(&q, "ppkn/4/4/NPPK b ncf - 0 1");
    /* King in the corner: knight swap now, far castle once the knight has gone. */
    p = s_pos("ppkn/4/4/KNPP w NCFncf - 0 1");
    s_assert_ofen(&p, "ppkn/4/4/KNPP w NFncf - 0 1");
    assert_int_equal(s_castles(&p), 1);
    s_assert_san(&p, "a1b1", "O");
    s_play(&p, "b1c3 b4b3");
    s_assert_ofen(&p, "p1kn/1pN1/4/K1PP w Fnf - 0 2");
    s_assert_san(&p, "a1c1", "O-O-O");
    s_play(&p, "a1c1");
    s_assert_ofen(&p, "p1kn/1pN1/4/PK1P b nf - 0 2");
    /* King on c1 with the knight on its right: O with d1... here the knight is on c1. */
    p = s_pos("ppkn/4/4/PKNP w NCFncf - 0 1");
    s_assert_ofen(&p, "ppkn/4/4/PKNP w NCFncf - 0 1");
    s_assert_san(&p, "b1c1", "O");
    s_assert_san(&p, "b1a1", "O-O");
    assert_false(s_has(&p, "b1d1"));
    /* Black deployed: king d4, knight c4, far pawn b4 (blocked), a4 three files away. */
    p = s_pos("ppnk/4/4/NKPP b NCFncf - 0 1");
    s_assert_ofen(&p, "ppnk/4/4/NKPP b NCFnf - 0 1");
    s_assert_san(&p, "d4c4", "O");
    s_play(&p, "d4c4");
    s_assert_ofen(&p, "ppkn/4/4/NKPP w NCF - 0 2");
}

static void test_rights_loss(void **state)
{
    (void)state;
    octad_pos_t p = s_pos(OCTAD_START_OFEN);
    s_play(&p, "b1b2"); /* a king move loses all of its side's rights */
    s_assert_ofen(&p, "ppkn/4/1K2/N1PP b ncf - 0 1");
    p = s_pos(OCTAD_START_OFEN);
    s_play(&p, "a1b3"); /* the partner moving loses its own right */
    s_assert_ofen(&p, "ppkn/1N2/4/1KPP b CFncf - 0 1");
    s_play(&p, "a4a3 b3a1"); /* a piece returning to the square does not restore it */
    s_assert_ofen(&p, "1pkn/p3/4/NKPP b CFnc - 1 2");
    /* The partner captured on its square. */
    p = s_pos("p1kn/4/1n2/NKPP b NCFncf - 0 1");
    s_assert_ofen(&p, "p1kn/4/1n2/NKPP b NCFnf - 0 1");
    s_play(&p, "b2d1");
    s_assert_ofen(&p, "p1kn/4/4/NKPn w NCnf - 0 2");
    /* Nothing else removes a right: a pawn move keeps the other pawn's. */
    p = s_pos(OCTAD_START_OFEN);
    s_play(&p, "d1d2");
    s_assert_ofen(&p, "ppkn/4/3P/NKP1 b NCncf - 0 1");
}

static void test_no_castling_in_or_into_check(void **state)
{
    (void)state;
    octad_pos_t p = s_pos("ppk1/4/3n/NKPP w NCFncf - 0 1"); /* in check from d2 */
    assert_int_equal(octad_status(&p), OCTAD_IN_CHECK);
    assert_int_equal(s_castles(&p), 0);
    p = s_pos("ppk1/4/n3/NKPP w NCF - 0 1"); /* c1 attacked by the knight on a2 */
    assert_int_equal(s_castles(&p), 1);
    assert_true(s_has(&p, "b1a1"));
    assert_false(s_has(&p, "b1c1"));
    /* Far castle: the pawn leaving c1 opens the rank to the rook on d1. */
    p = s_pos("3k/4/4/K1Pr w F - 0 1");
    assert_int_equal(s_castles(&p), 0);
    p = s_pos("3k/4/4/K1Pn w F - 0 1");
    s_assert_san(&p, "a1c1", "O-O-O");
    /* Far castle onto a square attacked by a knight. */
    p = s_pos("3k/n3/4/K1P1 w F - 0 1");
    assert_int_equal(s_castles(&p), 0);
}

static void test_en_passant(void **state)
{
    (void)state;
    octad_pos_t p = s_pos("3k/4/KPp1/4 w - c3 0 2");
    s_assert_san(&p, "b2c3", "bxc3+");
    assert_int_equal(octad_move_kind(s_move(&p, "b2c3")), OCTAD_MK_EN_PASSANT);
    s_play(&p, "b2c3");
    s_assert_ofen(&p, "3k/2P1/K3/4 b - - 0 2");
    /* The capture would expose the king to the rook along rank 2. */
    p = s_pos("3k/4/KPpr/4 w - c3 0 2");
    assert_false(s_has(&p, "b2c3"));
    /* The capture removes the checking pawn. */
    p = s_pos("k3/4/2pP/3K w - c3 0 2");
    octad_move_t moves[GAME_MOVES_MAX];
    assert_int_equal(octad_gen_legal(&p, moves), 3);
    assert_true(s_has(&p, "d2c3") && s_has(&p, "d1c1") && s_has(&p, "d1c2"));
    s_assert_san(&p, "d2c3", "dxc3");
    /* A double step records the target even when no capture is possible. */
    p = s_pos(OCTAD_START_OFEN);
    s_play(&p, "d1d3");
    s_assert_ofen(&p, "ppkn/3P/4/NKP1 b NCncf d2 0 1");
    s_play(&p, "c4c3"); /* the target lasts one move only */
    s_assert_ofen(&p, "pp1n/2kP/4/NKP1 w NC - 0 2");
}

static void test_promotions(void **state)
{
    octad_move_t moves[GAME_MOVES_MAX];
    (void)state;
    octad_pos_t p = s_pos("3k/1P2/4/K3 w - - 0 1");
    int n = octad_gen_legal(&p, moves), promos = 0;
    for (int i = 0; i < n; i++)
        promos += octad_move_is_promo(moves[i]);
    assert_int_equal(promos, 4);
    s_assert_san(&p, "b3b4q", "b4=Q+");
    s_assert_san(&p, "b3b4r", "b4=R+");
    s_assert_san(&p, "b3b4b", "b4=B");
    s_assert_san(&p, "b3b4n", "b4=N");
    octad_pos_t q = p;
    s_play(&q, "b3b4n");
    s_assert_ofen(&q, "1N1k/4/4/K3 b - - 0 1");
    /* Black promotes on rank 1, capturing. */
    p = s_pos("K2k/4/1p2/2N1 b - - 3 9");
    s_assert_san(&p, "b2c1r", "bxc1=R");
    s_play(&p, "b2c1q");
    s_assert_ofen(&p, "K2k/4/4/2q1 w - - 0 10");
}

static void test_leapers_and_disambiguation(void **state)
{
    octad_move_t moves[GAME_MOVES_MAX];
    (void)state;
    octad_pos_t p = s_pos("3k/4/4/N2K w - - 0 1");
    int n = octad_gen_legal(&p, moves), from_a1 = 0;
    for (int i = 0; i < n; i++)
        from_a1 += octad_move_from(moves[i]) == 0;
    assert_int_equal(from_a1, 2);
    assert_true(s_has(&p, "a1b3") && s_has(&p, "a1c2"));
    p = s_pos("k3/4/4/N1NK w - - 0 1");
    s_assert_san(&p, "a1b3", "Nab3");
    s_assert_san(&p, "c1b3", "Ncb3");
    s_assert_san(&p, "c1a2", "Na2");
    p = s_pos("4/N2k/4/N2K w - - 0 1");
    s_assert_san(&p, "a1c2", "N1c2");
    s_assert_san(&p, "a3c2", "N3c2");
    /* Three queens on b2's diagonals and lines: a1 shares a file with a3 and a rank with c1. */
    p = s_pos("3k/Q1p1/4/Q1QK w - - 0 1");
    s_assert_san(&p, "a1b2", "Qa1b2");
    s_assert_san(&p, "a3b2", "Q3b2");
    s_assert_san(&p, "c1b2", "Qcb2");
    /* A parsed double check by two knights: only the king moves, counted or listed. */
    p = s_pos("3k/1n2/2nP/K3 w - - 0 1");
    assert_int_equal(octad_gen_legal(&p, moves), 3);
    assert_true(octad_perft(&p, 1, NULL) == 3);
    /* A pinned knight has no moves. */
    p = s_pos("3k/4/4/KN1r w - - 0 1");
    n = octad_gen_legal(&p, moves);
    for (int i = 0; i < n; i++)
        assert_int_not_equal(octad_move_piece(moves[i]), OCTAD_KNIGHT);
}

static void test_status_and_draw(void **state)
{
    char buf[512];
    (void)state;
    octad_pos_t p = s_pos("k3/1Q2/2K1/4 b - - 0 1");
    assert_int_equal(octad_status(&p), OCTAD_IN_CHECK | OCTAD_CHECKMATE);
    octad_draw(&p, buf, sizeof buf);
    assert_non_null(strstr(buf, "4  k . . .\n3  . Q . .\n"));
    assert_non_null(strstr(buf, "   a b c d\n"));
    assert_non_null(strstr(buf, "Black to move"));
    assert_non_null(strstr(buf, "Checkmate"));
    p = s_pos("k3/2Q1/1K2/4 b - - 0 1");
    assert_int_equal(octad_status(&p), OCTAD_STALEMATE);
    octad_draw(&p, buf, sizeof buf);
    assert_non_null(strstr(buf, "Stalemate"));
    p = s_pos(OCTAD_START_OFEN);
    assert_int_equal(octad_status(&p), 0);
    octad_draw(&p, buf, sizeof buf);
    assert_non_null(strstr(buf, "White to move, castling NCFncf, en passant -"));
    assert_null(strstr(buf, "Check"));
    octad_draw(&p, buf, 10); /* truncates without overrunning */
    assert_int_equal(strlen(buf), 9);
    p = s_pos("k3/4/1QK1/4 w - - 0 1");
    s_assert_san(&p, "b2b3", "Qb3#");
    s_assert_san(&p, "b2a2", "Qa2+");
}

/* Every legal move of every suite position has one distinct UOI and one distinct SAN. */
static void s_unique_texts(const char *name)
{
    char path[1024], line[512], err[128];
    const char *dir = getenv("OCTAD_TEST_DATA");
    assert_non_null(dir);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f)) {
        epd_line_t e;
        octad_move_t moves[GAME_MOVES_MAX];
        char uoi[GAME_MOVES_MAX][MOVE_TEXT_MAX], san[GAME_MOVES_MAX][MOVE_TEXT_MAX];
        if (epd_parse_line(line, &e, err, sizeof err) != 1)
            continue;
        octad_pos_t p = s_pos(e.text);
        int n = octad_gen_legal(&p, moves);
        assert_true((count_t)n == e.nodes[1]);
        for (int i = 0; i < n; i++) {
            octad_move_uoi(&p, moves[i], uoi[i]);
            octad_move_san(&p, moves[i], san[i]);
            for (int j = 0; j < i; j++) {
                assert_string_not_equal(uoi[i], uoi[j]);
                assert_string_not_equal(san[i], san[j]);
            }
        }
        int st = octad_status(&p);
        assert_int_equal(n == 0, (st & (OCTAD_CHECKMATE | OCTAD_STALEMATE)) != 0);
    }
    fclose(f);
}

static void test_suite_texts_unique(void **state)
{
    (void)state;
    s_unique_texts("octad-standard.epd");
    s_unique_texts("octad-deploy.epd");
}

/* Insufficient material (RULES.md "End of the game"): each clause, both ways. */
static void test_insufficient_material(void **state)
{
    (void)state;
    static const struct {
        const char *ofen;
        bool dead;
    } cases[] = {
        {"3k/4/1K2/4 b - - 0 12", true},   /* the README's first game: bare kings */
        {"3k/4/1K2/N3 b - - 0 1", true},   /* one knight */
        {"3k/4/1K2/B3 b - - 0 1", true},   /* one bishop */
        {"3k/4/1K1B/B3 b - - 0 1", true},  /* two bishops, both dark (a1, d2) */
        {"3k/4/1KB1/B3 b - - 0 1", false}, /* bishops on a1 (dark) and c2 (light) */
        {"3k/4/1K1b/B3 b - - 0 1", true},  /* one bishop each, both dark (a1, d2) */
        {"3k/4/1Kb1/B3 b - - 0 1", false}, /* one bishop each, a1 dark, c2 light */
        {"3k/4/1K2/NN2 b - - 0 1", false}, /* two knights */
        {"3k/n3/1K2/N3 b - - 0 1", false}, /* a knight each */
        {"3k/4/1KB1/N3 b - - 0 1", false}, /* knight and bishop */
        {"3k/4/1K2/R3 b - - 0 1", false},  /* a rook */
        {"3k/4/1K2/Q3 b - - 0 1", false},  /* a queen */
        {"3k/4/1K2/3P b - - 0 1", false},  /* a pawn */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        octad_pos_t p = s_pos(cases[i].ofen);
        if (octad_insufficient_material(&p) != cases[i].dead)
            fail_msg("%s: expected %s", cases[i].ofen, cases[i].dead ? "insufficient" : "sufficient");
    }
}

/* make_move_zeroes (which the solver uses to skip making the moves that keep
 * the clock running) says what make_move does to the clock, on every move of
 * seeded random games from the start: castles, rights lost, captures of
 * partners, e.p. and promotions all occur. */
static void test_move_zeroes_matches_make(void **state)
{
    (void)state;
    uint32_t seed = 12345;
    long zeroing = 0, running = 0;
    for (int game = 0; game < 400; game++) {
        octad_pos_t p = s_pos(OCTAD_START_OFEN);
        for (int ply = 0; ply < 80; ply++) {
            octad_move_t moves[GAME_MOVES_MAX];
            int n = octad_gen_legal(&p, moves);
            if (n == 0)
                break;
            p.halfmove = 1;
            for (int m = 0; m < n; m++) {
                octad_pos_t c;
                make_move(&p, moves[m], &c);
                assert_int_equal(make_move_zeroes(&p, moves[m]), c.halfmove == 0);
                if (c.halfmove == 0)
                    zeroing++;
                else
                    running++;
            }
            seed = seed * 1103515245u + 12345u;
            octad_pos_t c;
            make_move(&p, moves[(seed >> 16) % (uint32_t)n], &c);
            p = c;
        }
    }
    assert_true(zeroing > 1000 && running > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_moves),
        cmocka_unit_test(test_far_castle_after_centre_pawn),
        cmocka_unit_test(test_deployed_castles),
        cmocka_unit_test(test_rights_loss),
        cmocka_unit_test(test_no_castling_in_or_into_check),
        cmocka_unit_test(test_en_passant),
        cmocka_unit_test(test_promotions),
        cmocka_unit_test(test_leapers_and_disambiguation),
        cmocka_unit_test(test_status_and_draw),
        cmocka_unit_test(test_suite_texts_unique),
        cmocka_unit_test(test_insufficient_material),
        cmocka_unit_test(test_move_zeroes_matches_make),
    };
    return cmocka_run_group_tests(tests, s_setup, NULL);
}
