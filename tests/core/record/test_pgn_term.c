/* test_pgn_term.c: every termination survives PGN: a game ended each way (octad
 * and chess; the rules, a claim, resignation, agreement, a time forfeit, a bare
 * result) is written with its [Termination] and reads back with the same result
 * and termination, and writes the same text again; Termination tags that do not
 * fit the game are errors; other programs' tags are kept as they are. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgn_game.h"

/* A game, how it ends from outside the moves (TERM_NONE: by the moves), and what it must read back as. */
typedef struct {
    variant_t v;
    const char *start, *moves;
    termination_t end;  /* for record_end, with result `res` */
    result_t res;
    const char *name;   /* the [Termination] written */
} s_case_t;

static const s_case_t s_cases[] = {
    {VARIANT_OCTAD, OCTAD_START_OFEN, "c2 b3 Kb2 O-O-O cxb3 cxb3 d2 Nc2 d3 Nxa1 d4=Q#", TERM_NONE, RESULT_WHITE,
     "checkmate"},
    {VARIANT_OCTAD, "k3/4/3Q/K3 w - - 0 1", "Qc3", TERM_NONE, RESULT_DRAW, "stalemate"},
    {VARIANT_OCTAD, OCTAD_START_OFEN,
     "O-O a3 Nc2 a2 b3+ Nxb3+ Kb2 a1=Q+ Nxa1 Nxa1 Kxa1 Kc3 Ka2 b3+ Ka1 b2+ Kb1 Kb3 d3 Kc3 d4=Q+ Kxd4 Kxb2", TERM_NONE,
     RESULT_DRAW, "insufficient material"},
    {VARIANT_OCTAD, "ppkn/4/4/NKPP w - - 0 1", "c3 Nb3 Nc2 Nd4 Na1 Nb3 Nc2 Nd4 Na1", TERM_NONE, RESULT_DRAW,
     "threefold repetition"},
    {VARIANT_OCTAD, "3k/4/4/KR2 w - - 49 30", "Rb2", TERM_NONE, RESULT_DRAW, "25-move rule"},
    {VARIANT_OCTAD, OCTAD_START_OFEN, "c2", TERM_RESIGNATION, RESULT_WHITE, "resignation"},
    {VARIANT_OCTAD, OCTAD_START_OFEN, "c2 b3", TERM_RESIGNATION, RESULT_BLACK, "resignation"},
    {VARIANT_OCTAD, OCTAD_START_OFEN, "c2", TERM_AGREEMENT, RESULT_DRAW, "agreement"},
    {VARIANT_OCTAD, OCTAD_START_OFEN, "c2 b3", TERM_TIME_FORFEIT, RESULT_WHITE, "time forfeit"},
    {VARIANT_OCTAD, OCTAD_START_OFEN, "c2", TERM_DECLARED, RESULT_BLACK, NULL},
    {VARIANT_CHESS, CHESS_START_FEN, "f3 e5 g4 Qh4#", TERM_NONE, RESULT_BLACK, "checkmate"},
    {VARIANT_CHESS, "k7/8/8/2Q5/8/8/8/7K w - - 0 1", "Qb6", TERM_NONE, RESULT_DRAW, "stalemate"},
    {VARIANT_CHESS, "k7/8/8/8/8/8/1r6/K1B5 w - - 0 1", "Kxb2", TERM_NONE, RESULT_DRAW, "insufficient material"},
    {VARIANT_CHESS, CHESS_START_FEN,
     "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8", TERM_NONE, RESULT_DRAW, "fivefold repetition"},
    {VARIANT_CHESS, "k7/8/8/8/8/8/8/KR6 w - - 149 80", "Rb2", TERM_NONE, RESULT_DRAW, "75-move rule"},
    {VARIANT_CHESS, CHESS_START_FEN, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8", TERM_CLAIM_THREEFOLD, RESULT_DRAW,
     "threefold repetition (claimed)"},
    {VARIANT_CHESS, "k7/8/8/8/8/8/8/KR6 w - - 99 80", "Rb2", TERM_CLAIM_FIFTY, RESULT_DRAW,
     "50-move rule (claimed)"},
    {VARIANT_CHESS, CHESS_START_FEN, "e4 e5", TERM_RESIGNATION, RESULT_BLACK, "resignation"},
    {VARIANT_CHESS, CHESS_START_FEN, "e4", TERM_AGREEMENT, RESULT_DRAW, "agreement"},
    {VARIANT_CHESS, CHESS_START_FEN, "e4 e5", TERM_TIME_FORFEIT, RESULT_BLACK, "time forfeit"},
    {VARIANT_CHESS, "k7/8/8/8/8/8/8/KR6 b - - 0 1", "Ka7", TERM_TIME_FORFEIT, RESULT_DRAW, "time forfeit"},
    {VARIANT_CHESS, CHESS_START_FEN, "d4", TERM_DECLARED, RESULT_WHITE, NULL},
};

/* The game of case c as a record, ended as the case says. */
static void s_record(const s_case_t *c, record_t *r)
{
    game_pos_t start;
    char err[200], buf[512], *save = NULL;
    if (game_parse(c->v, c->start, &start, err, sizeof err) != 0)
        fail_msg("%s: %s", c->start, err);
    assert_int_equal(record_init(r, &start), 0);
    snprintf(buf, sizeof buf, "%s", c->moves);
    for (char *m = strtok_r(buf, " ", &save); m; m = strtok_r(NULL, " ", &save))
        if (record_play_text(r, m, err, sizeof err) != 0)
            fail_msg("%s: %s", c->moves, err);
    if (c->end != TERM_NONE)
        assert_int_equal(record_end(r, c->end, c->res), 0);
    assert_int_equal(r->result, c->res);
}

/* What a replay keeps of the one game it reads. */
typedef struct {
    int games, errors;
    result_t result;
    termination_t term;
    char first_error[PGN_ERROR_MAX];
    char *written;
} s_back_t;

static void s_keep(void *ctx, pgn_game_t *g)
{
    s_back_t *b = ctx;
    b->games++;
    b->errors = g->error_nb;
    snprintf(b->first_error, sizeof b->first_error, "%s", g->error_nb ? g->errors[0] : "");
    if (!g->has_record)
        return;
    b->result = g->rec.result;
    b->term = g->rec.termination;
    free(b->written);
    b->written = pgn_write_string(g);
}

static void s_replay(const char *text, s_back_t *b)
{
    memset(b, 0, sizeof *b);
    pgn_replay_t o = {.default_variant = VARIANT_CHESS, .on_game = s_keep, .ctx = b};
    assert_int_equal(pgn_replay_text(text, strlen(text), &o), 1);
    assert_int_equal(b->games, 1);
}

static void test_every_termination_round_trip(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof s_cases / sizeof s_cases[0]; i++) {
        const s_case_t *c = &s_cases[i];
        record_t r;
        pgn_game_t g;
        s_record(c, &r);
        assert_int_equal(pgn_game_from_record(&g, &r), 0);
        char *text = pgn_write_string(&g), want[96];
        assert_non_null(text);
        if (c->name != NULL) {
            snprintf(want, sizeof want, "\n[Termination \"%s\"]\n", c->name);
            if (strstr(text, want) == NULL)
                fail_msg("case %zu: no %s in\n%s", i, want, text);
        } else {
            assert_null(strstr(text, "[Termination"));
        }
        s_back_t b;
        s_replay(text, &b);
        if (b.errors != 0)
            fail_msg("case %zu: %s", i, b.first_error);
        assert_int_equal(b.result, r.result);
        assert_int_equal(b.term, r.termination);
        assert_non_null(b.written);
        assert_string_equal(b.written, text);
        free(b.written);
        free(text);
        pgn_game_free(&g);
        record_free(&r);
    }
}

static void test_termination_tags_checked(void **state)
{
    (void)state;
    static const char *const bad[][2] = {
        {"[Termination \"resignation\"]\n\n1. e4 1/2-1/2\n", "'resignation' does not fit result 1/2-1/2"},
        {"[Termination \"agreement\"]\n\n1. e4 1-0\n", "'agreement' does not fit result 1-0"},
        {"[Termination \"threefold repetition (claimed)\"]\n\n1. e4 1/2-1/2\n", "does not fit"},
        {"[Termination \"50-move rule (claimed)\"]\n\n1. e4 1/2-1/2\n", "does not fit"},
        {"[Termination \"checkmate\"]\n\n1. e4 1-0\n", "'checkmate' does not fit"},
        {"[Termination \"stalemate\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n", "'stalemate' disagrees with the game: it ended by checkmate"},
        {"[Termination \"time forfeit\"]\n\n1. e4 *\n", "'time forfeit', but the game has no result"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        s_back_t b;
        s_replay(bad[i][0], &b);
        if (b.errors == 0 || strstr(b.first_error, bad[i][1]) == NULL)
            fail_msg("case %zu: '%s' (want '%s')", i, b.first_error, bad[i][1]);
        free(b.written);
    }
    /* the PGN standard's and other programs' values: "Time forfeit" is ours; the rest are kept as written */
    s_back_t b;
    s_replay("[Termination \"Time forfeit\"]\n\n1. e4 e5 0-1\n", &b);
    assert_int_equal(b.errors, 0);
    assert_int_equal(b.term, TERM_TIME_FORFEIT);
    assert_non_null(strstr(b.written, "[Termination \"time forfeit\"]"));
    free(b.written);
    s_replay("[Termination \"Normal\"]\n\n1. e4 e5 1-0\n", &b);
    assert_int_equal(b.errors, 0);
    assert_int_equal(b.term, TERM_DECLARED);
    assert_non_null(strstr(b.written, "[Termination \"Normal\"]"));
    free(b.written);
    s_replay("[Result \"1-0\"]\n[Termination \"resignation\"]\n\n1. e4 e5\n", &b); /* no result marker */
    assert_int_equal(b.errors, 0);
    assert_int_equal(b.result, RESULT_WHITE);
    assert_int_equal(b.term, TERM_RESIGNATION);
    free(b.written);
    s_replay("[Result \"1-0\"]\n\n1. e4 e5 *\n", &b); /* the marker decides */
    assert_int_equal(b.result, RESULT_NONE);
    free(b.written);
    s_replay("[Termination \"unterminated\"]\n\n1. e4 e5 *\n", &b);
    assert_int_equal(b.errors, 0);
    assert_int_equal(b.term, TERM_NONE);
    assert_non_null(strstr(b.written, "[Termination \"unterminated\"]"));
    free(b.written);
}

static void test_record_end_contract(void **state)
{
    (void)state;
    record_t r;
    s_record(&s_cases[5], &r); /* octad, 1. c2, White won by resignation */
    assert_int_equal(r.loser, 1);
    assert_int_equal(record_end(&r, TERM_AGREEMENT, RESULT_DRAW), -1); /* over */
    assert_int_equal(record_undo(&r), 0);                            /* undo withdraws it */
    assert_int_equal(r.termination, TERM_NONE);
    assert_int_equal(record_end(&r, TERM_CHECKMATE, RESULT_WHITE), -1); /* the moves' own */
    assert_int_equal(record_end(&r, TERM_STALEMATE, RESULT_DRAW), -1);
    assert_int_equal(record_end(&r, TERM_DECLARED, RESULT_NONE), -1);
    assert_int_equal(record_end(&r, TERM_CLAIM_FIFTY, RESULT_DRAW), -1); /* octad has no claims */
    assert_int_equal(record_end(&r, TERM_TIME_FORFEIT, RESULT_BLACK), 0);
    assert_int_equal(r.loser, 0);
    assert_string_equal(record_termination_name(&r), "time forfeit");
    termination_t t;
    assert_int_equal(record_termination_parse("25-Move Rule", VARIANT_OCTAD, &t), 0);
    assert_int_equal(t, TERM_MOVE_RULE);
    assert_int_equal(record_termination_parse("25-move rule", VARIANT_CHESS, &t), -1);
    assert_int_equal(record_termination_parse("declared", VARIANT_CHESS, &t), -1);
    record_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_termination_round_trip),
        cmocka_unit_test(test_termination_tags_checked),
        cmocka_unit_test(test_record_end_contract),
    };
    game_init();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
