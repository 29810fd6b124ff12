/* test_oracle.c: the oracle's answers (core/oracle/oracle.h) against `octad
 * probe --json` and its text, over the tables up to 5 pieces that the test
 * makes with `octad solve`: positions of every value (cursed wins and blessed
 * losses found by scanning the 5-piece tables), e.p., castling rights, high
 * halfmove clocks, mate, stalemate, insufficient material; positions the
 * tables do not cover (category unknown); bad OFEN; a table damaged after the
 * oracle was made; the mainline; the deployed starts against
 * docs/tables/starts.txt; the memory budget (answers byte for byte under one
 * block, the default and whole tables), retries of a table that failed, the
 * reader by blocks in both file versions.
 *
 * Arguments: the octad program, docs/tables/starts.txt. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "index.h"
#include "layout.h"
#include "octad/octad.h"
#include "oracle.h"
#include "sig.h"
#include "store.h"
#include "tb_record.h"
#include "tbfile.h"
#include "tbsource.h"

/* A budget of one block and a half: every other lookup reads its block again. */
#define S_TINY ((size_t)400 * 1024)

static const char *s_octad, *s_starts;
static char s_dir[64] = "/tmp/octad-oracle-XXXXXX";
static oracle_t *s_oracle;

static int s_setup(void **state)
{
    (void)state;
    octad_init();
    index_init();
    if (!mkdtemp(s_dir))
        return -1;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "'%s' solve --max-pieces 5 --tables %s --quiet --threads 2 >/dev/null", s_octad, s_dir);
    if (system(cmd) != 0)
        return -1;
    s_oracle = oracle_new(s_dir, (size_t)STORE_MEMORY_DEFAULT_MB << 20);
    return s_oracle ? 0 : -1;
}

static int s_teardown(void **state)
{
    (void)state;
    oracle_destroy(&s_oracle);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", s_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* The output of a shell command (the caller frees it). */
static char *s_run(const char *cmd)
{
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    assert_non_null(buf);
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len + 1 == cap)
            assert_non_null(buf = realloc(buf, cap *= 2));
    }
    buf[len] = '\0';
    pclose(f);
    return buf;
}

/* `octad probe` of ofen: JSON (json) or text. */
static char *s_probe(const char *ofen, bool json)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "'%s' probe '%s' --tables %s %s", s_octad, ofen, s_dir, json ? "--json" : "");
    return s_run(cmd);
}

static json_t *s_oracle_answer(const char *ofen)
{
    json_t *a = NULL;
    char err[256] = "";
    if (oracle_position(s_oracle, ofen, &a, err, sizeof err) != ORACLE_OK)
        fail_msg("%s: %s", ofen, err);
    return a;
}

static const char *s_str(json_t *o, const char *key) { return json_string_value(json_object_get(o, key)); }

static json_int_t s_int(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_integer(v))
        fail_msg("%s is not an integer", key);
    return json_integer_value(v);
}

/* The oracle's signed distance against probe's: + for the winner, - for the loser, 0 for draws. */
static void s_check_distance(const char *what, const char *category, json_int_t got, json_int_t want)
{
    json_int_t sign = strstr(category, "win") ? 1 : strstr(category, "loss") ? -1 : 0;
    if (got != sign * want)
        fail_msg("%s: %s %lld, want %lld (probe's distance: %lld)", what, category, (long long)got,
                 (long long)(sign * want), (long long)want);
}

static const char *const s_names[] = {"loss", "blessed-loss", "draw", "cursed-win", "win"};

static int s_wdl(const char *name)
{
    for (int i = 0; i < 5; i++)
        if (strcmp(name, s_names[i]) == 0)
            return i;
    fail_msg("no such value '%s'", name);
    return -1;
}

/* Every move of the oracle's answer against probe's (which gives each move's
 * value for the mover: the oracle gives the position after it): the same
 * moves, SAN, values, distances, in the same ranking order. */
static void s_check_moves(const char *ofen, json_t *got, json_t *want)
{
    json_t *gm = json_object_get(got, "moves"), *wm = json_object_get(want, "moves");
    assert_int_equal(json_array_size(gm), json_array_size(wm));
    for (size_t i = 0; i < json_array_size(wm); i++) {
        json_t *w = json_array_get(wm, i), *g = json_array_get(gm, i);
        int mover = s_wdl(s_str(w, "wdl")), after = 4 - mover;
        /* probe sorts equal ranks in any order: compare values rank by rank, texts by uoi */
        if (s_wdl(s_str(g, "category")) != after)
            fail_msg("%s move %zu: %s, probe's move %zu leads to %s", ofen, i, s_str(g, "category"), i,
                     s_names[after]);
        json_int_t dtm = s_int(w, "dtm"), dtz = s_int(w, "dtz");
        if (after != REC_DRAW) {
            s_check_distance("move dtm", s_names[after], s_int(g, "dtm"), dtm - 1);
            if (!json_is_true(json_object_get(g, "zeroing")))
                s_check_distance("move dtz", s_names[after], s_int(g, "dtz"), dtz - 1);
            else
                assert_int_equal(dtz, 1);
        }
        json_t *same = NULL;
        for (size_t k = 0; k < json_array_size(gm) && !same; k++)
            if (strcmp(s_str(json_array_get(gm, k), "uoi"), s_str(w, "uoi")) == 0)
                same = json_array_get(gm, k);
        if (!same)
            fail_msg("%s: probe's move %s is missing", ofen, s_str(w, "uoi"));
        assert_string_equal(s_str(same, "san"), s_str(w, "san"));
        assert_string_equal(s_str(same, "category"), s_names[after]);
    }
}

/* The position's answer against probe: value, distances, clock, flags, moves. */
static void s_check(const char *ofen)
{
    char *text = s_probe(ofen, false), *raw = s_probe(ofen, true);
    json_error_t jerr;
    json_t *want = json_loads(raw, 0, &jerr), *got = s_oracle_answer(ofen);
    if (!want)
        fail_msg("%s: probe said %s", ofen, raw);
    const char *category = s_str(got, "category");
    assert_string_equal(category, s_str(want, "wdl"));
    if (strcmp(category, "draw") == 0) {
        assert_int_equal(s_int(got, "dtz"), 0);
        assert_int_equal(s_int(got, "dtm"), 0);
    } else {
        s_check_distance("dtz", category, s_int(got, "dtz"), s_int(want, "dtz"));
        s_check_distance("dtm", category, s_int(got, "dtm"), s_int(want, "dtm"));
        assert_int_equal(s_int(got, "precise_dtz"), s_int(got, "dtz"));
    }
    assert_int_equal(s_int(got, "halfmove"), s_int(want, "halfmove"));
    assert_int_equal(json_is_true(json_object_get(got, "checkmate")), strstr(text, "\ncheckmate\n") != NULL);
    assert_int_equal(json_is_true(json_object_get(got, "stalemate")), strstr(text, "\nstalemate\n") != NULL);
    assert_int_equal(json_is_true(json_object_get(got, "insufficient_material")),
                     strstr(text, "insufficient material") != NULL);
    s_check_moves(ofen, got, want);
    json_decref(want);
    json_decref(got);
    free(text);
    free(raw);
}

/* A stored position of the named table (White to move, clock 0) whose record
 * has value wdl, into text: found by scanning the table (clock 0, no e.p.). */
static void s_find(const char *name, int wdl, char *text, size_t len)
{
    int table;
    char err[128];
    assert_int_equal(sig_table_parse(name, &table, err, sizeof err), 0);
    store_t *st = store_new(s_dir);
    layout_pair_t lp;
    assert_int_equal(layout_pair_build(sig_pair_of(table), &lp), 0);
    const layout_table_t *t = lp.tables[0].table == table ? &lp.tables[0] : &lp.tables[1];
    text[0] = '\0';
    for (int s = 0; s < t->nslices && !text[0]; s++)
        for (uint32_t i = 0; i < t->slices[s].size && !text[0]; i++) {
            octad_pos_t p;
            index_decode(&t->slices[s], i, &p);
            p.halfmove = 0;
            if (rec_wdl(store_record(st, &p)) == wdl)
                octad_format(&p, text, len);
        }
    layout_pair_free(&lp);
    store_destroy(&st);
    if (!text[0])
        fail_msg("no %s position in %s", s_names[wdl], name);
}

static void test_every_value(void **state)
{
    (void)state;
    static const struct {
        const char *table;
        int wdl;
    } finds[] = {{"KQvK", REC_WIN},          {"KvKQ", REC_LOSS},          {"KRvKR", REC_DRAW},
                 {"KRNvKR", REC_CURSED},     {"KRvKRN", REC_BLESSED},     {"KPvKP", REC_WIN},
                 {"KRNvKR", REC_WIN},        {"KRvKRN", REC_LOSS}};
    for (size_t i = 0; i < sizeof finds / sizeof finds[0]; i++) {
        char ofen[GAME_TEXT_MAX];
        s_find(finds[i].table, finds[i].wdl, ofen, sizeof ofen);
        json_t *a = s_oracle_answer(ofen);
        assert_string_equal(s_str(a, "category"), s_names[finds[i].wdl]);
        json_decref(a);
        s_check(ofen);
    }
}

static void test_special_positions(void **state)
{
    (void)state;
    static const char *const ofens[] = {
        "3k/4/1KQ1/4 w - - 0 1",        /* mate in one */
        "3k/3Q/2K1/4 b - - 1 1",        /* checkmated */
        "k3/4/1Q2/3K b - - 0 1",        /* stalemate */
        "3k/4/1K2/4 b - - 0 12",        /* insufficient material */
        "3k/pP2/4/3K b - b2 0 1",       /* e.p. capture legal */
        "3k/4/4/1KP1 w C - 0 1",        /* a castling right */
        "1k2/4/4/1KP1 w C - 7 9",       /* rights, a clock */
        "3k/4/4/R2K w - - 44 80",       /* a win the clock may spoil */
        "3k/4/4/R2K w - - 49 80",       /* clock 49 */
        "3k/4/4/R2K w - - 50 80",       /* clock 50: drawn */
        "3k/4/4/R2K w - - 400 300",     /* far past it */
        "2k1/1p2/4/1QK1 w - - 0 1",
        "3k/p3/4/NP1K b - - 0 1",
    };
    for (size_t i = 0; i < sizeof ofens / sizeof ofens[0]; i++)
        s_check(ofens[i]);
}

/* A win whose clock is too high becomes a cursed win at that clock (probe agrees: s_check). */
static void test_clock_turns_win(void **state)
{
    (void)state;
    json_t *a = s_oracle_answer("3k/4/4/R2K w - - 0 1");
    assert_string_equal(s_str(a, "category"), "win");
    json_int_t dtz = s_int(a, "dtz");
    json_decref(a);
    char ofen[64];
    snprintf(ofen, sizeof ofen, "3k/4/4/R2K w - - %lld 80", (long long)(50 - dtz));
    a = s_oracle_answer(ofen);
    assert_string_equal(s_str(a, "category"), "win");
    json_decref(a);
    snprintf(ofen, sizeof ofen, "3k/4/4/R2K w - - %lld 80", (long long)(51 - dtz));
    a = s_oracle_answer(ofen);
    assert_string_equal(s_str(a, "category"), "cursed-win");
    json_decref(a);
    s_check(ofen);
}

/* Six pieces: no table here; its captures into five pieces are known and come first. */
static void test_not_covered(void **state)
{
    (void)state;
    const char *ofen = "1kn1/1r2/1R2/1KN1 w - - 0 1";
    json_t *a = s_oracle_answer(ofen);
    assert_string_equal(s_str(a, "category"), "unknown");
    assert_true(json_is_null(json_object_get(a, "dtz")));
    assert_true(json_is_null(json_object_get(a, "dtm")));
    json_t *moves = json_object_get(a, "moves");
    assert_true(json_array_size(moves) > 0);
    bool seen_unknown = false, seen_capture = false;
    for (size_t i = 0; i < json_array_size(moves); i++) {
        json_t *m = json_array_get(moves, i);
        bool unknown = strcmp(s_str(m, "category"), "unknown") == 0;
        if (strchr(s_str(m, "san"), 'x')) {
            seen_capture = true;
            assert_false(unknown);
            assert_false(seen_unknown); /* known moves first */
            json_t *after = s_oracle_answer("1kn1/1R2/4/1KN1 b - - 0 1");
            if (strcmp(s_str(m, "uoi"), "b2b3") == 0)
                assert_string_equal(s_str(m, "category"), s_str(after, "category"));
            json_decref(after);
        } else {
            assert_true(unknown);
            assert_true(json_is_null(json_object_get(m, "dtz")));
            seen_unknown = true;
        }
    }
    assert_true(seen_capture && seen_unknown);
    json_decref(a);
    assert_int_equal(oracle_max_pieces(s_oracle), 5);
}

static void test_bad_input(void **state)
{
    (void)state;
    static const struct {
        const char *ofen, *message;
    } bad[] = {{"3k/4/4/R2 w - - 0 1", "rank 1 has 3 squares"},
               {"", "empty"},
               {"3k/4/4/R2K x - - 0 1", "side"},
               {"qqqk/4/4/3K w - - 0 1", "material"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *a = (json_t *)1;
        char err[256] = "";
        assert_int_equal(oracle_position(s_oracle, bad[i].ofen, &a, err, sizeof err), ORACLE_BAD_INPUT);
        assert_null(a);
        if (!strstr(err, bad[i].message))
            fail_msg("'%s': '%s' does not say '%s'", bad[i].ofen, err, bad[i].message);
        assert_int_equal(oracle_mainline(s_oracle, bad[i].ofen, &a, err, sizeof err), ORACLE_BAD_INPUT);
    }
}

/* The mainline of a win ends in mate after dtm plies; of a cursed win in the
 * 25-move rule; of a draw at once. */
static void test_mainline(void **state)
{
    (void)state;
    char err[256] = "", ofen[GAME_TEXT_MAX];
    json_t *a = s_oracle_answer("3k/4/4/R2K w - - 0 1"), *line = NULL;
    assert_int_equal(oracle_mainline(s_oracle, "3k/4/4/R2K w - - 0 1", &line, err, sizeof err), ORACLE_OK);
    json_t *moves = json_object_get(line, "mainline");
    assert_int_equal((json_int_t)json_array_size(moves), s_int(a, "dtm"));
    assert_string_equal(s_str(line, "result"), "1-0");
    assert_string_equal(s_str(line, "winner"), "w");
    assert_string_equal(s_str(line, "termination"), "checkmate");
    const char *pgn = s_str(line, "pgn");
    assert_non_null(strstr(pgn, "[Result \"1-0\"]"));
    assert_non_null(strstr(pgn, "#"));
    assert_non_null(strstr(pgn, s_str(json_array_get(moves, 0), "san")));
    json_decref(a);
    json_decref(line);

    s_find("KRNvKR", REC_CURSED, ofen, sizeof ofen);
    assert_int_equal(oracle_mainline(s_oracle, ofen, &line, err, sizeof err), ORACLE_OK);
    assert_string_equal(s_str(line, "result"), "1/2-1/2");
    assert_string_equal(s_str(line, "termination"), "25-move rule");
    assert_true(json_array_size(json_object_get(line, "mainline")) >= 50);
    json_decref(line);

    assert_int_equal(oracle_mainline(s_oracle, "3k/4/4/R2K w - - 50 80", &line, err, sizeof err), ORACLE_OK);
    assert_string_equal(s_str(line, "result"), "1/2-1/2");
    assert_int_equal(json_array_size(json_object_get(line, "mainline")), 0);
    json_decref(line);

    assert_int_equal(oracle_mainline(s_oracle, "1kn1/1r2/1R2/1KN1 w - - 0 1", &line, err, sizeof err), ORACLE_OK);
    assert_string_equal(s_str(line, "result"), "*");
    assert_string_equal(s_str(line, "termination"), "unknown");
    json_decref(line);
}

/* The deployed starts: the positions of docs/tables/starts.txt, in its order
 * (8 pieces: unknown over these tables). */
static void test_deployed(void **state)
{
    (void)state;
    json_t *list = NULL;
    char err[256] = "", line[256];
    assert_int_equal(oracle_deployed(s_oracle, &list, err, sizeof err), ORACLE_OK);
    assert_int_equal(json_array_size(list), 144);
    FILE *f = fopen(s_starts, "r");
    assert_non_null(f);
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        int k;
        char board[32], side[4], rights[16], ep[8], half[8], full[8], ofen[96];
        if (sscanf(line, "%d %31s %3s %15s %7s %7s %7s", &k, board, side, rights, ep, half, full) != 7 ||
            !strchr(board, '/'))
            continue;
        snprintf(ofen, sizeof ofen, "%s %s %s %s %s %s", board, side, rights, ep, half, full);
        json_t *e = json_array_get(list, (size_t)k);
        assert_int_equal(s_int(e, "start"), k);
        assert_string_equal(s_str(e, "ofen"), ofen);
        assert_string_equal(s_str(e, "category"), "unknown");
        assert_int_equal(json_array_size(json_object_get(e, "best")), 0);
        n++;
    }
    fclose(f);
    assert_int_equal(n, 144);
    json_decref(list);
}

/* The JSON text of an answer (position, or mainline when line), "" when
 * the position is not one (bad input); the caller frees it. */
static char *s_text(oracle_t *o, const char *ofen, bool line)
{
    json_t *a = NULL;
    char err[256] = "";
    oracle_status_t rc = (line ? oracle_mainline : oracle_position)(o, ofen, &a, err, sizeof err);
    if (rc == ORACLE_BAD_INPUT)
        return strdup("");
    if (rc != ORACLE_OK)
        fail_msg("%s: %s", ofen, err);
    char *text = json_dumps(a, JSON_COMPACT);
    json_decref(a);
    return text;
}

/* A random placement of two kings and up to 3 other men, side to move random. */
static void s_random_ofen(uint64_t *rng, char *out, size_t len)
{
    char board[16];
    memset(board, 0, sizeof board);
    int men = 2 + (int)((*rng >> 33) % 4);
    for (int k = 0; k < men; k++) {
        int sq;
        do {
            *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
            sq = (int)((*rng >> 33) % 16);
        } while (board[sq]);
        board[sq] = k == 0 ? 'K' : k == 1 ? 'k' : "PNBRQpnbrq"[(*rng >> 40) % 10];
    }
    size_t at = 0;
    for (int rank = 3; rank >= 0; rank--) {
        int empty = 0;
        for (int f = 0; f < 4; f++) {
            char c = board[rank * 4 + f];
            if (!c) {
                empty++;
                continue;
            }
            if (empty)
                out[at++] = (char)('0' + empty);
            empty = 0;
            out[at++] = c;
        }
        if (empty)
            out[at++] = (char)('0' + empty);
        if (rank)
            out[at++] = '/';
    }
    snprintf(out + at, len - at, " %c - - 0 1", (*rng >> 20) & 1 ? 'w' : 'b');
}

/* The same positions under a budget of one block, the default budget and
 * no bound (tables read whole, as before blocks): byte-identical answers,
 * and the small budget held (it dropped blocks to stay within it). */
static void test_budget_identical(void **state)
{
    (void)state;
    oracle_t *whole = oracle_new(s_dir, 0), *tiny = oracle_new(s_dir, S_TINY);
    assert_non_null(whole);
    assert_non_null(tiny);
    uint64_t rng = 31;
    int answered = 0;
    for (int i = 0; i < 1500; i++) {
        char ofen[GAME_TEXT_MAX];
        s_random_ofen(&rng, ofen, sizeof ofen);
        bool line = i % 10 == 0;
        char *a = s_text(whole, ofen, line), *b = s_text(tiny, ofen, line), *c = s_text(s_oracle, ofen, line);
        if (strcmp(a, b) != 0 || strcmp(a, c) != 0)
            fail_msg("%s: whole tables %s\n  budget %zu bytes %s\n  default budget %s", ofen, a, S_TINY, b, c);
        answered += a[0] != '\0';
        free(a);
        free(b);
        free(c);
    }
    assert_true(answered > 500);
    size_t bytes, budget;
    unsigned long long blocks, hits, misses;
    assert_false(oracle_memory(whole, &bytes, &budget, &blocks, &hits, &misses));
    assert_true(oracle_memory(tiny, &bytes, &budget, &blocks, &hits, &misses));
    assert_int_equal(budget, S_TINY);
    assert_true(bytes <= budget && blocks == 1);
    assert_true(misses > 100 && hits > 100);
    oracle_destroy(&whole);
    oracle_destroy(&tiny);
}

/* A copy of the 5-piece tables in a new directory (its name into dir). */
static void s_copy_tables(char *dir)
{
    char cmd[256];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "cp %s/*.otb %s/", s_dir, dir);
    assert_int_equal(system(cmd), 0);
}

/* ofen's answer: ORACLE_UNAVAILABLE naming KQvK.otb, tried again within 1 s. */
static void s_unavailable(oracle_t *o, const char *ofen)
{
    json_t *a = NULL;
    char err[256] = "";
    assert_int_equal(oracle_position(o, ofen, &a, err, sizeof err), ORACLE_UNAVAILABLE);
    assert_non_null(strstr(err, "KQvK.otb"));
    assert_int_equal(oracle_retry_after(o), 1);
}

/* A table that cannot be read is tried again after the delay, not at once:
 * a file gone when first needed, then put back; a block damaged after the
 * table was opened, then mended. */
static void test_retry(void **state)
{
    (void)state;
    char dir[64] = "/tmp/octad-oracle-retry-XXXXXX", from[128], to[128], cmd[1024];
    s_copy_tables(dir);
    oracle_t *o = oracle_new(dir, S_TINY);
    assert_non_null(o);
    oracle_set_retry(o, 1);
    const char *kqk = "3k/4/1KQ1/4 w - - 0 1";
    char *want = s_text(s_oracle, kqk, false);
    snprintf(from, sizeof from, "%s/KQvK.otb", dir);
    snprintf(to, sizeof to, "%s/KQvK.away", dir);
    assert_int_equal(rename(from, to), 0);
    s_unavailable(o, kqk);
    assert_int_equal(rename(to, from), 0);
    s_unavailable(o, kqk); /* mended, but not tried again before the delay */
    usleep(1100 * 1000);
    char *got = s_text(o, kqk, false);
    assert_string_equal(got, want);
    free(got);
    /* the last frame damaged in place (KQvK is one block), after other tables took the cache */
    uint64_t rng = 7;
    for (int i = 0; i < 40; i++) {
        char ofen[GAME_TEXT_MAX];
        s_random_ofen(&rng, ofen, sizeof ofen);
        if (!strpbrk(ofen, "QqPp")) /* nothing that leads to KQvK */
            free(s_text(o, ofen, false));
    }
    snprintf(cmd, sizeof cmd, "cp %s %s && size=$(stat -c %%s %s) && printf 'XXXXXXXX' | "
             "dd of=%s bs=1 seek=$((size - 8)) conv=notrunc 2>/dev/null", from, to, from, from);
    assert_int_equal(system(cmd), 0);
    s_unavailable(o, kqk);
    assert_int_equal(rename(to, from), 0);
    s_unavailable(o, kqk);
    usleep(1100 * 1000);
    got = s_text(o, kqk, false);
    assert_string_equal(got, want);
    free(got);
    free(want);
    oracle_destroy(&o);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* tbsource.h, the reader by blocks under the oracle's store: every block of a
 * multi-block table, in format version 2 and written again as version 1, is
 * the records tbfile_read gives under both checks; a changed record (version
 * 1: checked in full whatever the level), a truncated file and a missing one
 * are refused at open under both with a message naming the file. */
static void test_tbsource_versions(void **state)
{
    (void)state;
    int table;
    char err[256], v1[64] = "/tmp/octad-oracle-v1-XXXXXX", cmd[256];
    assert_int_equal(sig_table_parse("KRBvKR", &table, err, sizeof err), 0);
    tbfile_t f;
    assert_int_equal(tbfile_read(s_dir, table, &f, err, sizeof err), 0);
    assert_non_null(mkdtemp(v1));
    tbfile_info_t info;
    assert_int_equal(tbfile_write_as(v1, &f.layout, f.recs, 1, &info, err, sizeof err), 0);
    rec_t *block = malloc(sizeof(rec_t) * TBSOURCE_BLOCK);
    assert_non_null(block);
    const char *dirs[] = {s_dir, v1, s_dir, v1};
    for (int d = 0; d < 4; d++) {
        tbsource_t *src = tbsource_open(dirs[d], table, d < 2 ? TBSOURCE_CHECK_FULL : TBSOURCE_CHECK_QUICK, err, sizeof err);
        if (!src)
            fail_msg("%s: %s", dirs[d], err);
        assert_true(tbsource_blocks(src) > 1);
        assert_int_equal(tbsource_layout(src)->size, f.info.nrecords);
        uint64_t at = 0;
        for (uint64_t b = 0; b < tbsource_blocks(src); b++) {
            int64_t n = tbsource_read(src, b, block, err, sizeof err);
            assert_int_equal(n, (int64_t)tbsource_block_records(src, b));
            assert_memory_equal(block, f.recs + at, (size_t)n * sizeof(rec_t));
            at += (uint64_t)n;
        }
        assert_int_equal(at, f.info.nrecords);
        tbsource_close(&src);
        assert_null(src);
    }
    free(block);
    tbfile_close(&f);
    /* a record changed in the version-1 copy: the checksum no longer matches */
    snprintf(cmd, sizeof cmd, "printf 'XX' | dd of=%s/KRBvKR.otb bs=1 seek=$(( $(stat -c %%s %s/KRBvKR.otb) - 10 )) "
             "conv=notrunc 2>/dev/null", v1, v1);
    assert_int_equal(system(cmd), 0);
    for (int c = TBSOURCE_CHECK_FULL; c <= TBSOURCE_CHECK_QUICK; c++) {
        assert_null(tbsource_open(v1, table, c, err, sizeof err));
        assert_non_null(strstr(err, "KRBvKR.otb: checksum mismatch"));
    }
    /* the version-2 file cut short */
    snprintf(cmd, sizeof cmd, "cp %s/KRBvKR.otb %s/ && truncate -s -100 %s/KRBvKR.otb", s_dir, v1, v1);
    assert_int_equal(system(cmd), 0);
    for (int c = TBSOURCE_CHECK_FULL; c <= TBSOURCE_CHECK_QUICK; c++) {
        assert_null(tbsource_open(v1, table, c, err, sizeof err));
        assert_non_null(strstr(err, "KRBvKR.otb"));
        assert_non_null(strstr(err, "truncated"));
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", v1);
    assert_int_equal(system(cmd), 0);
    for (int c = TBSOURCE_CHECK_FULL; c <= TBSOURCE_CHECK_QUICK; c++) {
        assert_null(tbsource_open(v1, table, c, err, sizeof err));
        assert_non_null(strstr(err, "No such file"));
    }
}

/* A table damaged after the oracle was made: its positions answer
 * ORACLE_UNAVAILABLE naming the file, others still answer. */
static void test_damaged_table(void **state)
{
    (void)state;
    char dir[64] = "/tmp/octad-oracle-bad-XXXXXX", cmd[256];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "cp %s/*.otb %s/", s_dir, dir);
    assert_int_equal(system(cmd), 0);
    oracle_t *o = oracle_new(dir, S_TINY);
    assert_non_null(o);
    assert_string_not_equal(oracle_etag(o), "");
    snprintf(cmd, sizeof cmd, "printf 'XXXXXXXX' | dd of=%s/KQvK.otb bs=1 seek=300 conv=notrunc 2>/dev/null", dir);
    assert_int_equal(system(cmd), 0);
    json_t *a = NULL;
    char err[256] = "";
    assert_int_equal(oracle_position(o, "3k/4/1KQ1/4 w - - 0 1", &a, err, sizeof err), ORACLE_UNAVAILABLE);
    assert_null(a);
    assert_non_null(strstr(err, "KQvK.otb"));
    assert_int_equal(oracle_position(o, "3k/4/4/R2K w - - 0 1", &a, err, sizeof err), ORACLE_OK);
    json_decref(a);
    oracle_destroy(&o);
    o = oracle_new(dir, S_TINY); /* the tag follows the checksums of the files as they are */
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    oracle_destroy(&o);
    assert_null(o);
}

/* A directory without KQvK.otb: that pair, and every table whose captures
 * or promotions lead to it, are unknown; the others answer. */
static void test_partial_directory(void **state)
{
    (void)state;
    char dir[64] = "/tmp/octad-oracle-part-XXXXXX", cmd[256];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "cp %s/*.otb %s/ && rm %s/KQvK.otb", s_dir, dir, dir);
    assert_int_equal(system(cmd), 0);
    oracle_t *o = oracle_new(dir, S_TINY);
    assert_non_null(o);
    assert_int_equal(oracle_max_pieces(o), 2);
    static const struct {
        const char *ofen, *category;
    } want[] = {{"3k/4/1KQ1/4 w - - 0 1", "unknown"},  /* KQvK */
                {"3k/4/4/KQ2 b - - 0 1", "unknown"},    /* KvKQ, the pair's other table */
                {"3k/3p/4/KQ2 w - - 0 1", "unknown"},  /* KQvKP: takes into KvKQ */
                {"3k/4/P3/1K2 w - - 0 1", "unknown"},  /* KPvK: promotes into KvKQ */
                {"3k/4/4/R2K w - - 0 1", "win"}};       /* KRvK */
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        json_t *a = NULL;
        char err[256];
        if (oracle_position(o, want[i].ofen, &a, err, sizeof err) != ORACLE_OK)
            fail_msg("%s: %s", want[i].ofen, err);
        if (strcmp(s_str(a, "category"), want[i].category) != 0)
            fail_msg("%s: %s, want %s", want[i].ofen, s_str(a, "category"), want[i].category);
        json_decref(a);
    }
    oracle_destroy(&o);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* No tables at all: everything with a table is unknown, the rules still answer. */
static void test_no_tables(void **state)
{
    (void)state;
    oracle_t *o = oracle_new("/nonexistent/octad-tables", S_TINY);
    assert_non_null(o);
    assert_int_equal(oracle_table_files(o), 0);
    assert_int_equal(oracle_max_pieces(o), 2);
    json_t *a = NULL;
    char err[256];
    assert_int_equal(oracle_position(o, "3k/4/1KQ1/4 w - - 0 1", &a, err, sizeof err), ORACLE_OK);
    assert_string_equal(s_str(a, "category"), "unknown");
    json_decref(a);
    assert_int_equal(oracle_position(o, "3k/3Q/2K1/4 b - - 1 1", &a, err, sizeof err), ORACLE_OK);
    assert_string_equal(s_str(a, "category"), "loss");
    assert_true(json_is_true(json_object_get(a, "checkmate")));
    json_decref(a);
    assert_int_equal(oracle_position(o, "3k/4/1K2/4 b - - 0 1", &a, err, sizeof err), ORACLE_OK);
    assert_string_equal(s_str(a, "category"), "draw");
    json_decref(a);
    assert_string_not_equal(oracle_etag(o), oracle_etag(s_oracle));
    oracle_destroy(&o);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_oracle OCTAD STARTS_TXT\n");
        return 2;
    }
    s_octad = argv[1];
    s_starts = argv[2];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_value), cmocka_unit_test(test_special_positions),
        cmocka_unit_test(test_clock_turns_win), cmocka_unit_test(test_not_covered),
        cmocka_unit_test(test_bad_input),     cmocka_unit_test(test_mainline),
        cmocka_unit_test(test_deployed),      cmocka_unit_test(test_damaged_table),
        cmocka_unit_test(test_partial_directory), cmocka_unit_test(test_no_tables),
        cmocka_unit_test(test_budget_identical), cmocka_unit_test(test_retry),
        cmocka_unit_test(test_tbsource_versions),
    };
    return cmocka_run_group_tests(tests, s_setup, s_teardown);
}
