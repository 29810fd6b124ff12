/* test_chess_moves.c: move generation edge cases (board edges, castling in
 * chess and Chess960, rights, en passant pins), UCI and SAN texts, status. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "chess/chess.h"

static chess_pos_t s_parse(variant_t v, const char *fen)
{
    chess_pos_t pos;
    char err[256] = "";
    if (chess_parse(v, fen, &pos, err, sizeof err) != 0)
        fail_msg("%s: %s", fen, err);
    return pos;
}

/* The legal moves' UCI texts from square `from` (e.g. "a1"), sorted and space-separated, into out. */
static void s_moves_from(const chess_pos_t *pos, const char *from, char *out)
{
    chess_move_t moves[GAME_MOVES_MAX];
    char texts[GAME_MOVES_MAX][MOVE_TEXT_MAX];
    int n = chess_gen_legal(pos, moves), k = 0;
    for (int i = 0; i < n; i++) {
        chess_move_uci(pos, moves[i], texts[k]);
        if (strncmp(texts[k], from, 2) == 0)
            k++;
    }
    for (int i = 1; i < k; i++) /* insertion sort: few moves */
        for (int j = i; j > 0 && strcmp(texts[j - 1], texts[j]) > 0; j--) {
            char t[MOVE_TEXT_MAX];
            strcpy(t, texts[j]);
            strcpy(texts[j], texts[j - 1]);
            strcpy(texts[j - 1], t);
        }
    out[0] = '\0';
    for (int i = 0; i < k; i++) {
        if (i)
            strcat(out, " ");
        strcat(out, texts[i]);
    }
}

/* Plays the legal move whose UCI text is uci; fails if there is none. */
static chess_pos_t s_play(const chess_pos_t *pos, const char *uci)
{
    chess_move_t moves[GAME_MOVES_MAX];
    int n = chess_gen_legal(pos, moves);
    for (int i = 0; i < n; i++) {
        char text[MOVE_TEXT_MAX];
        chess_move_uci(pos, moves[i], text);
        if (strcmp(text, uci) == 0) {
            chess_pos_t child;
            chess_make(pos, moves[i], &child);
            return child;
        }
    }
    fail_msg("no legal move %s", uci);
    return *pos;
}

/* SAN of the legal move with UCI text uci. */
static void s_san(const chess_pos_t *pos, const char *uci, const char *want)
{
    chess_move_t moves[GAME_MOVES_MAX];
    int n = chess_gen_legal(pos, moves);
    for (int i = 0; i < n; i++) {
        char text[MOVE_TEXT_MAX], san[MOVE_TEXT_MAX];
        chess_move_uci(pos, moves[i], text);
        if (strcmp(text, uci) == 0) {
            chess_move_san(pos, moves[i], san);
            assert_string_equal(san, want);
            return;
        }
    }
    fail_msg("no legal move %s", uci);
}

static void s_expect_fen(chess_pos_t pos, const char *want)
{
    char out[GAME_TEXT_MAX];
    chess_format(&pos, out, sizeof out);
    assert_string_equal(out, want);
}

static void test_knights_in_corners(void **state)
{
    (void)state;
    char out[512];
    chess_pos_t pos = s_parse(VARIANT_CHESS, "4k3/8/8/8/8/8/8/N3K3 w - - 0 1");
    s_moves_from(&pos, "a1", out);
    assert_string_equal(out, "a1b3 a1c2");
    pos = s_parse(VARIANT_CHESS, "7n/8/8/8/8/8/8/K1k5 b - - 0 1");
    s_moves_from(&pos, "h8", out);
    assert_string_equal(out, "h8f7 h8g6");
}

static void test_castling_standard(void **state)
{
    (void)state;
    char out[512];
    chess_pos_t pos = s_parse(VARIANT_CHESS, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    s_moves_from(&pos, "e1", out);
    assert_string_equal(out, "e1c1 e1d1 e1d2 e1e2 e1f1 e1f2 e1g1");
    s_san(&pos, "e1g1", "O-O");
    s_san(&pos, "e1c1", "O-O-O");
    s_expect_fen(s_play(&pos, "e1g1"), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    s_expect_fen(s_play(&pos, "e1c1"), "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
    /* a rook captured on its home square loses that side's right; the mover loses its own */
    s_expect_fen(s_play(&pos, "a1a8"), "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1");
    s_expect_fen(s_play(&pos, "e1e2"), "r3k2r/8/8/8/8/8/4K3/R6R b kq - 1 1");
    /* through an attacked square (f1 by the bishop on c4), and out of check: not allowed */
    pos = s_parse(VARIANT_CHESS, "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1");
    s_moves_from(&pos, "e1", out);
    assert_string_equal(out, "e1c1 e1d1 e1d2 e1f2");
    pos = s_parse(VARIANT_CHESS, "r3k2r/8/8/8/8/8/8/R3K1rR w KQkq - 0 1");
    s_moves_from(&pos, "e1", out);
    assert_string_equal(out, "e1d2 e1e2 e1f2");
}

static void test_castling_960(void **state)
{
    (void)state;
    char out[512];
    /* king already on its destination g1: castling moves only the rook h1 -> f1 */
    chess_pos_t pos = s_parse(VARIANT_CHESS960, "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1");
    s_moves_from(&pos, "g1", out);
    assert_string_equal(out, "g1b1 g1f1 g1f2 g1g2 g1h1"); /* h2 is attacked by the rook on h8 */
    s_san(&pos, "g1h1", "O-O");
    s_expect_fen(s_play(&pos, "g1h1"), "1r4kr/8/8/8/8/8/8/1R3RK1 b hb - 1 1");
    s_expect_fen(s_play(&pos, "g1b1"), "1r4kr/8/8/8/8/8/8/2KR3R b hb - 1 1");
    /* rook already on its destination f1: only the king moves e1 -> g1 */
    pos = s_parse(VARIANT_CHESS960, "4k3/8/8/8/8/8/8/4KR2 w F - 0 1");
    s_expect_fen(s_play(&pos, "e1f1"), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    /* the castling rook b1 shields c1 from the rook on a1: O-O-O (king stays on c1) is illegal */
    pos = s_parse(VARIANT_CHESS960, "8/8/8/8/8/8/8/rRK4k w B - 0 1");
    s_moves_from(&pos, "c1", out);
    assert_string_equal(out, "c1b2 c1c2 c1d1 c1d2");
    /* the same without the attacker: legal, and the UCI text is king-takes-rook */
    pos = s_parse(VARIANT_CHESS960, "8/8/8/8/8/8/8/1RK4k w B - 0 1");
    s_expect_fen(s_play(&pos, "c1b1"), "8/8/8/8/8/8/8/2KR3k b - - 1 1");
}

static void test_en_passant(void **state)
{
    (void)state;
    char out[512];
    chess_pos_t pos = s_parse(VARIANT_CHESS, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    s_moves_from(&pos, "e5", out);
    assert_string_equal(out, "e5e6 e5f6");
    s_san(&pos, "e5f6", "exf6");
    s_expect_fen(s_play(&pos, "e5f6"),
                 "rnbqkbnr/ppp1p1pp/5P2/3p4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3");
    /* both pawns leave the fifth rank: the rook on h5 would then take the king on a5 */
    pos = s_parse(VARIANT_CHESS, "8/8/8/KPp4r/8/8/8/7k w - c6 0 1");
    s_moves_from(&pos, "b5", out);
    assert_string_equal(out, "b5b6");
    /* a double push sets the e.p. square only when a pawn can take */
    pos = s_parse(VARIANT_CHESS, CHESS_START_FEN);
    s_expect_fen(s_play(&pos, "e2e4"), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    pos = s_parse(VARIANT_CHESS, "rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 3");
    s_expect_fen(s_play(&pos, "e2e4"), "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3");
}

static void test_texts(void **state)
{
    (void)state;
    chess_pos_t pos = s_parse(VARIANT_CHESS, CHESS_START_FEN);
    s_san(&pos, "g1f3", "Nf3");
    s_san(&pos, "e2e4", "e4");
    pos = s_parse(VARIANT_CHESS, "4k3/P7/8/8/8/8/4K3/R6R w - - 0 1");
    s_san(&pos, "a7a8q", "a8=Q+");
    s_san(&pos, "a7a8n", "a8=N");
    s_san(&pos, "a1a6", "Ra6");
    s_san(&pos, "h1h8", "Rh8+");
    s_san(&pos, "a1d1", "Rad1");
    s_san(&pos, "h1d1", "Rhd1");
    pos = s_parse(VARIANT_CHESS, "4k3/8/8/8/R7/8/8/R3K3 w - - 0 1");
    s_san(&pos, "a1a3", "R1a3");
    s_san(&pos, "a4a3", "R4a3");
    pos = s_parse(VARIANT_CHESS, "k7/8/8/8/8/2Q1Q3/8/2Q1K3 w - - 0 1");
    s_san(&pos, "e3d2", "Qed2");
    s_san(&pos, "c1d2", "Q1d2");
    s_san(&pos, "c3d2", "Qc3d2");
    s_san(&pos, "c3d4", "Qcd4");
    s_san(&pos, "c3a5", "Qa5+");
    pos = s_parse(VARIANT_CHESS, "6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1");
    s_san(&pos, "a1a8", "Ra8#");
    s_san(&pos, "e1c1", "O-O-O");
    char uci[MOVE_TEXT_MAX];
    chess_move_t moves[GAME_MOVES_MAX];
    int n = chess_gen_legal(&pos, moves);
    assert_true(n > 0);
    chess_move_uci(&pos, moves[0], uci);
    assert_true(strlen(uci) == 4);
}

static void test_status(void **state)
{
    (void)state;
    chess_pos_t pos = s_parse(VARIANT_CHESS, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert_int_equal(chess_status(&pos), 1 | 2);
    chess_move_t moves[GAME_MOVES_MAX];
    assert_int_equal(chess_gen_legal(&pos, moves), 0);
    pos = s_parse(VARIANT_CHESS, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_int_equal(chess_status(&pos), 4);
    pos = s_parse(VARIANT_CHESS, "4k3/8/8/8/8/8/8/4K2r w - - 0 1");
    assert_int_equal(chess_status(&pos), 1);
    pos = s_parse(VARIANT_CHESS, CHESS_START_FEN);
    assert_int_equal(chess_status(&pos), 0);
    /* double check: only king moves */
    pos = s_parse(VARIANT_CHESS, "4k3/8/8/8/1b6/8/3N4/r3K3 w - - 0 1");
    assert_int_equal(chess_gen_legal(&pos, moves), 2);
}

static void test_draw(void **state)
{
    (void)state;
    chess_pos_t pos = s_parse(VARIANT_CHESS, CHESS_START_FEN);
    char out[512];
    chess_draw(&pos, out, sizeof out);
    assert_non_null(strstr(out, "8  r n b q k b n r\n"));
    assert_non_null(strstr(out, "4  . . . . . . . .\n"));
    assert_non_null(strstr(out, "1  R N B Q K B N R\n"));
    assert_non_null(strstr(out, "   a b c d e f g h\n"));
}

/* Insufficient material: bare kings, one minor, same-coloured bishops; not two
 * knights, knight and bishop, opposite bishops, or any pawn, rook or queen. */
static void test_insufficient_material(void **state)
{
    (void)state;
    static const struct {
        const char *fen;
        bool dead;
    } cases[] = {
        {"8/8/4k3/8/8/8/8/4K3 w - - 0 1", true},
        {"8/8/4k3/8/8/8/8/4KN2 w - - 0 1", true},
        {"8/8/4k3/8/8/8/8/2B1K3 w - - 0 1", true},
        {"8/8/3bk3/8/8/8/8/2B1K3 w - - 0 1", true},  /* c1 and d6: both dark */
        {"8/8/2b1k3/8/8/8/8/2B1K3 w - - 0 1", false}, /* c1 dark, c6 light */
        {"8/8/4k3/8/8/8/8/1NB1K3 w - - 0 1", false},
        {"8/8/4kn2/8/8/8/8/4KN2 w - - 0 1", false},
        {"8/8/4k3/8/8/8/4P3/4K3 w - - 0 1", false},
        {"8/8/4k3/8/8/8/8/R3K3 w - - 0 1", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        chess_pos_t p = s_parse(VARIANT_CHESS, cases[i].fen);
        if (chess_insufficient_material(&p) != cases[i].dead)
            fail_msg("%s: expected %s", cases[i].fen, cases[i].dead ? "insufficient" : "sufficient");
    }
}

int main(void)
{
    chess_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_insufficient_material),
        cmocka_unit_test(test_knights_in_corners),
        cmocka_unit_test(test_castling_standard),
        cmocka_unit_test(test_castling_960),
        cmocka_unit_test(test_en_passant),
        cmocka_unit_test(test_texts),
        cmocka_unit_test(test_status),
        cmocka_unit_test(test_draw),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
