/* test_solve_sym.c: the board's symmetries hold in the generator's tables
 * (docs/solver.md "Which slice holds a position"): for random legal
 * positions of every material up to 4 pieces, with castling rights and e.p.
 * squares where the rules allow, the position, its left-right mirror
 * (rights mirrored too) and its colour flip (colours swapped, ranks flipped)
 * have the same value and distances through the public probe API. The
 * positions come from random OFEN text checked by the rules' own parser, not
 * from any table index. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "octad/octad.h"
#include "probe.h"
#include "store.h"

static const char *s_octad;
static char s_dir[64] = "/tmp/octad-sym-XXXXXX";
static store_t *s_store;
static uint64_t s_rng = 0x9E3779B97F4A7C15ull;

static uint32_t s_rand(uint32_t n)
{
    s_rng ^= s_rng << 13, s_rng ^= s_rng >> 7, s_rng ^= s_rng << 17;
    return (uint32_t)((s_rng >> 11) % n);
}

static int s_setup(void **state)
{
    (void)state;
    octad_init();
    if (!mkdtemp(s_dir))
        return -1;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "'%s' solve --max-pieces 4 --tables %s --quiet --threads 2 >/dev/null", s_octad, s_dir);
    if (system(cmd) != 0)
        return -1;
    s_store = store_new(s_dir);
    return s_store ? 0 : -1;
}

static int s_teardown(void **state)
{
    (void)state;
    store_destroy(&s_store);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", s_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* A random empty square, on rank `rank` (0-3) when that rank has one and
 * rank >= 0. */
static int s_square(const char *board, int rank)
{
    int free_on_rank = 0;
    for (int f = 0; rank >= 0 && f < 4; f++)
        free_on_rank += board[rank * 4 + f] == '.';
    int sq;
    do
        sq = free_on_rank ? rank * 4 + (int)s_rand(4) : (int)s_rand(16);
    while (board[sq] != '.');
    return sq;
}

/* The placement field of a 16-square board (a1 first). */
static void s_placement(const char *board, char *out)
{
    for (int r = 3; r >= 0; r--) {
        int gap = 0;
        for (int f = 0; f < 4; f++) {
            char c = board[r * 4 + f];
            if (c == '.') {
                gap++;
                continue;
            }
            if (gap)
                *out++ = (char)('0' + gap), gap = 0;
            *out++ = c;
        }
        if (gap)
            *out++ = (char)('0' + gap);
        if (r)
            *out++ = '/';
    }
    *out = '\0';
}

/* A random OFEN with up to 4 pieces: kings, up to two more of any kind,
 * random side, rights letters and e.p. square. Half of them put kings,
 * knights and pawns on their home ranks, so that rights exist. Many are
 * rejected by the parser and the caller tries again. */
static void s_random_ofen(char *out, size_t len)
{
    char board[16];
    memset(board, '.', sizeof board);
    static const char extra[] = "QRBNPqrbnp";
    bool home = s_rand(2);
    int n = 2 + (int)s_rand(3);
    for (int i = 0; i < n; i++) {
        char c = i == 0 ? 'K' : i == 1 ? 'k' : extra[s_rand(10)];
        bool white = c >= 'A' && c <= 'Z';
        bool homely = home && strchr("KNPknp", c) && s_rand(3) > 0;
        board[s_square(board, homely ? (white ? 0 : 3) : -1)] = c;
    }
    char place[32];
    s_placement(board, place);
    static const char letters[] = "NCFncf";
    char rights[8], *q = rights;
    for (int i = 0; i < 6; i++)
        if (s_rand(4) > 0)
            *q++ = letters[i];
    if (q == rights)
        *q++ = '-';
    *q = '\0';
    bool white = s_rand(2);
    char ep[3] = "-";
    int pawn_rank = white ? 1 : 2, from_rank = white ? 3 : 0;
    char enemy_pawn = white ? 'p' : 'P';
    for (int f = (int)s_rand(4), k = 0; k < 4 && s_rand(3) > 0; k++, f = (f + 1) % 4)
        if (board[pawn_rank * 4 + f] == enemy_pawn && board[(white ? 2 : 1) * 4 + f] == '.'
            && board[from_rank * 4 + f] == '.') {
            snprintf(ep, sizeof ep, "%c%c", 'a' + f, white ? '3' : '2');
            break;
        }
    snprintf(out, len, "%s %c %s %s 0 1", place, white ? 'w' : 'b', rights, ep);
}

static uint16_t s_bb_mirror(uint16_t b)
{
    uint16_t out = 0;
    for (int sq = 0; sq < 16; sq++)
        if (b & (1u << sq))
            out |= (uint16_t)(1u << ((sq & ~3) | (3 - (sq & 3))));
    return out;
}

static uint16_t s_bb_flip(uint16_t b)
{
    uint16_t out = 0;
    for (int sq = 0; sq < 16; sq++)
        if (b & (1u << sq))
            out |= (uint16_t)(1u << (sq ^ 12));
    return out;
}

/* Applies a square map to every square-valued field; swap: colours too. */
static octad_pos_t s_transform(const octad_pos_t *p, uint16_t (*map)(uint16_t), bool swap)
{
    octad_pos_t o = *p;
    for (int c = 0; c < 2; c++)
        o.color[swap ? c ^ 1 : c] = map(p->color[c]);
    for (int t = 0; t < OCTAD_PIECE_TYPE_NB; t++)
        o.type[t] = map(p->type[t]);
    o.castle = map(p->castle);
    for (int c = 0; c < 2; c++)
        o.ksq[swap ? c ^ 1 : c] = (uint8_t)__builtin_ctz(map((uint16_t)(1u << p->ksq[c])));
    if (swap)
        o.side ^= 1;
    if (p->ep != OCTAD_SQ_NONE)
        o.ep = (uint8_t)__builtin_ctz(map((uint16_t)(1u << p->ep)));
    return o;
}

static void s_value(const octad_pos_t *p, const char *what, const char *ofen, probe_value_t *v)
{
    if (probe_position(s_store, p, v) != 0)
        fail_msg("%s of %s: %s", what, ofen, store_error(s_store));
}

static void test_mirror_and_flip_keep_the_value(void **state)
{
    (void)state;
    int done = 0, with_rights = 0, with_ep = 0, decisive = 0;
    for (int tries = 0; done < 20000 && tries < 20000000; tries++) {
        char ofen[64], err[128];
        octad_pos_t p;
        s_random_ofen(ofen, sizeof ofen);
        if (octad_parse(ofen, &p, err, sizeof err) != 0)
            continue;
        octad_pos_t m = s_transform(&p, s_bb_mirror, false), f = s_transform(&p, s_bb_flip, true);
        probe_value_t vp, vm, vf;
        s_value(&p, "the position", ofen, &vp);
        s_value(&m, "the mirror", ofen, &vm);
        s_value(&f, "the colour flip", ofen, &vf);
        if (vp.wdl0 != vm.wdl0 || vp.dtz != vm.dtz || vp.dtm != vm.dtm)
            fail_msg("%s: %s dtz %d dtm %d, mirrored %s dtz %d dtm %d", ofen, rec_wdl_name(vp.wdl0), vp.dtz, vp.dtm,
                     rec_wdl_name(vm.wdl0), vm.dtz, vm.dtm);
        if (vp.wdl0 != vf.wdl0 || vp.dtz != vf.dtz || vp.dtm != vf.dtm)
            fail_msg("%s: %s dtz %d dtm %d, colour-flipped %s dtz %d dtm %d", ofen, rec_wdl_name(vp.wdl0), vp.dtz,
                     vp.dtm, rec_wdl_name(vf.wdl0), vf.dtz, vf.dtm);
        done++;
        with_rights += p.castle != 0;
        with_ep += p.ep != OCTAD_SQ_NONE;
        decisive += vp.wdl0 != REC_DRAW;
    }
    printf("# %d positions (%d with rights, %d with an e.p. square, %d decisive)\n", done, with_rights, with_ep,
           decisive);
    assert_int_equal(done, 20000);
    assert_true(with_rights > 1000);
    assert_true(with_ep > 50);
    assert_true(decisive > 5000);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s PATH-TO-octad\n", argv[0]);
        return 2;
    }
    s_octad = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mirror_and_flip_keep_the_value),
    };
    return cmocka_run_group_tests(tests, s_setup, s_teardown);
}
