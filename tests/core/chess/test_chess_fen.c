/* test_chess_fen.c: strict FEN parsing (every rejection names its field),
 * canonical formatting and round trips, KQkq / X-FEN / Shredder-FEN castling. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "chess/chess.h"

/* Parsing text must fail with a message containing `field`. */
static void s_reject(variant_t v, const char *text, const char *field)
{
    chess_pos_t pos;
    char err[256] = "";
    if (chess_parse(v, text, &pos, err, sizeof err) == 0)
        fail_msg("accepted: %s", text ? text : "(null)");
    if (!strstr(err, field))
        fail_msg("'%s': message '%s' does not name '%s'", text ? text : "(null)", err, field);
}

/* Parses text and formats it; the result must equal `want` (text itself if NULL). */
static void s_round_trip(variant_t v, const char *text, const char *want)
{
    chess_pos_t pos;
    char err[256] = "", out[GAME_TEXT_MAX];
    if (chess_parse(v, text, &pos, err, sizeof err) != 0)
        fail_msg("rejected %s: %s", text, err);
    chess_format(&pos, out, sizeof out);
    assert_string_equal(out, want ? want : text);
}

static void test_reject_garbage_and_truncation(void **state)
{
    (void)state;
    s_reject(VARIANT_CHESS, NULL, "FEN");
    s_reject(VARIANT_CHESS, "", "FEN");
    s_reject(VARIANT_CHESS, "   ", "FEN");
    s_reject(VARIANT_CHESS, "hello world how are you", "FEN");
    s_reject(VARIANT_CHESS, "hello world how are you now", "placement");
    s_reject(VARIANT_CHESS, "\x01\xff\x7f garbage", "FEN");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "FEN");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "FEN");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "full-move");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "FEN");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "placement");
    s_reject(VARIANT_OCTAD, CHESS_START_FEN, "variant");
    char longer[600];
    memset(longer, 'p', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    s_reject(VARIANT_CHESS, longer, "FEN");
}

static void test_reject_placement(void **state)
{
    (void)state;
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement");
    s_reject(VARIANT_CHESS, "rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement");
    s_reject(VARIANT_CHESS, "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp//8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement");
    s_reject(VARIANT_CHESS, "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "kings");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", "kings");
    s_reject(VARIANT_CHESS, "4k3/8/8/8/8/8/8/K3K3 w - - 0 1", "kings");
    s_reject(VARIANT_CHESS, "3kk3/8/8/8/8/8/8/4K3 w - - 0 1", "kings");
    s_reject(VARIANT_CHESS, "P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn");
    s_reject(VARIANT_CHESS, "4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "pawn");
}

static void test_reject_side_ep_counters(void **state)
{
    (void)state;
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white KQkq - 0 1", "side");
    /* black to move while the white king on e1 is attacked by the rook on h1 */
    s_reject(VARIANT_CHESS, "4k3/8/8/8/8/8/8/4K2r b - - 0 1", "side");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", "en passant");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1", "en passant");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1", "en passant");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/RNBQKB1R b KQkq e3 0 1", "en passant");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e9 0 1", "en passant");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e33 0 1", "en passant");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "half-move");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "half-move");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 256 1", "half-move");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "full-move");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999999999999999999999",
             "full-move");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 +1", "full-move");
}

static void test_reject_castling(void **state)
{
    (void)state;
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1", "castling");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1", "castling");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KH - 0 1", "castling");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KX - 0 1", "castling");
    s_reject(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w K- - 0 1", "castling");
    /* king not on its home square (standard chess) */
    s_reject(VARIANT_CHESS, "4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1", "castling");
    s_reject(VARIANT_CHESS, "4k3/8/8/8/8/8/4K3/R6R w K - 0 1", "castling");
    /* rook not on its home square */
    s_reject(VARIANT_CHESS, "4k3/8/8/8/8/8/8/4K1R1 w K - 0 1", "castling");
    s_reject(VARIANT_CHESS, "4k3/8/8/8/8/8/8/1R2K3 w Q - 0 1", "castling");
    s_reject(VARIANT_CHESS, "4k3/8/8/8/8/8/8/4K3 w k - 0 1", "castling");
    s_reject(VARIANT_CHESS, "4k3/8/8/8/8/8/8/4K2R w G - 0 1", "castling");
    /* Chess960: a file letter without a rook, the king's own file, two on one side */
    s_reject(VARIANT_CHESS960, "4k3/8/8/8/8/8/8/4K2R w G - 0 1", "castling");
    s_reject(VARIANT_CHESS960, "4k3/8/8/8/8/8/8/4K2R w E - 0 1", "castling");
    s_reject(VARIANT_CHESS960, "1r2k1rr/8/8/8/8/8/8/1R2K1RR w KG - 0 1", "castling");
    s_reject(VARIANT_CHESS960, "4k3/8/8/8/8/8/8/RK6 w K - 0 1", "castling");
}

static void test_round_trips(void **state)
{
    (void)state;
    s_round_trip(VARIANT_CHESS, CHESS_START_FEN, NULL);
    s_round_trip(VARIANT_CHESS, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", NULL);
    s_round_trip(VARIANT_CHESS, "rnbqkb1r/ppppp1pp/7n/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", NULL);
    s_round_trip(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b Kq e3 12 255", NULL);
    s_round_trip(VARIANT_CHESS, "8/8/8/8/8/8/8/K1k5 w - - 255 65535", NULL);
    s_round_trip(VARIANT_CHESS960, "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", NULL);
    /* defaults for missing counters, spaces around, Shredder letters in chess, X-FEN in Chess960 */
    s_round_trip(VARIANT_CHESS, "  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -  ", CHESS_START_FEN);
    s_round_trip(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", CHESS_START_FEN);
    s_round_trip(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w qkQK - 0 1", CHESS_START_FEN);
    s_round_trip(VARIANT_CHESS960, CHESS_START_FEN,
                 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
    /* X-FEN: K is the outermost rook, an inner one needs its file letter */
    s_round_trip(VARIANT_CHESS960, "1r2k1rr/8/8/8/8/8/8/1R2K1RR w Kg - 0 1", "1r2k1rr/8/8/8/8/8/8/1R2K1RR w Hg - 0 1");
    s_round_trip(VARIANT_CHESS960, "1r2k1rr/8/8/8/8/8/8/1R2K1RR w QGqh - 0 1",
                 "1r2k1rr/8/8/8/8/8/8/1R2K1RR w GBhb - 0 1");
}

static void test_format_key(void **state)
{
    (void)state;
    chess_pos_t pos;
    char out[GAME_TEXT_MAX];
    assert_int_equal(chess_parse(VARIANT_CHESS, "rnbqkb1r/ppppp1pp/7n/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                                 &pos, NULL, 0), 0);
    chess_format_key(&pos, out, sizeof out);
    assert_string_equal(out, "rnbqkb1r/ppppp1pp/7n/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6");
    /* an e.p. square no pawn can use does not change the game tree: the key omits it */
    assert_int_equal(chess_parse(VARIANT_CHESS, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                                 &pos, NULL, 0), 0);
    chess_format_key(&pos, out, sizeof out);
    assert_string_equal(out, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -");
    chess_format(&pos, out, 10); /* truncated safely */
    assert_int_equal(strlen(out), 9);
}

int main(void)
{
    chess_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reject_garbage_and_truncation),
        cmocka_unit_test(test_reject_placement),
        cmocka_unit_test(test_reject_side_ep_counters),
        cmocka_unit_test(test_reject_castling),
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_format_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
