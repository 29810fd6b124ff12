/* ep_scan.c: every position with a legal e.p. capture that the tables of a
 * directory cover, counted by value, and how many cursed wins and blessed
 * losses among them have an exact dtz (ep_exact.h) different from the
 * one-ply look-ahead's upper bound (store_value).
 *
 *   bench_ep_scan DIR MAX_PIECES [MIN_PIECES]
 *
 * A position with an e.p. square comes from a double step, so the scan takes
 * every legal stored position (White to move, as stored) and plays each
 * double step: the children with a legal e.p. capture are the e.p.
 * positions. An e.p. position has one predecessor, up to the castling right
 * its pawn may have held (the move ends it), so double steps of a pawn with
 * a right are skipped and each e.p. position is counted once per
 * predecessor as the tables store it (White to move; one of a position and
 * its mirror image where the index keeps only one). Prints one
 * JSON line per table with e.p. positions and a total on stdout, and each
 * cursed win and blessed loss on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ep_exact.h"
#include "index.h"
#include "layout.h"
#include "octad/make.h"
#include "octad/octad.h"
#include "sig.h"
#include "store.h"

typedef struct {
    unsigned long long ep, by_code[5], cursed_differs, max_gain;
} s_count_t;

static void s_add(s_count_t *a, const s_count_t *b)
{
    a->ep += b->ep;
    for (int i = 0; i < 5; i++)
        a->by_code[i] += b->by_code[i];
    a->cursed_differs += b->cursed_differs;
    if (b->max_gain > a->max_gain)
        a->max_gain = b->max_gain;
}

/* The e.p. children of stored position x. */
static int s_children(store_t *st, const octad_pos_t *x, s_count_t *c)
{
    octad_move_t moves[GAME_MOVES_MAX], reply[GAME_MOVES_MAX];
    int n = octad_gen_legal(x, moves);
    for (int i = 0; i < n; i++) {
        if (octad_move_kind(moves[i]) != OCTAD_MK_DOUBLE || (x->castle >> octad_move_from(moves[i]) & 1))
            continue; /* a pawn holding a right: the same child comes from x without that right */
        octad_pos_t e;
        make_move(x, moves[i], &e);
        int nr = octad_gen_legal(&e, reply), ep = 0;
        for (int j = 0; j < nr; j++)
            ep |= octad_move_kind(reply[j]) == OCTAD_MK_EN_PASSANT;
        if (!ep)
            continue;
        rec_t bound, exact;
        char err[256];
        if (store_value(st, &e, &bound) < 0) {
            fprintf(stderr, "bench_ep_scan: %s\n", store_error(st));
            return -1;
        }
        exact = bound;
        if (ep_exact_dtz(st, &e, &exact, err, sizeof err) < 0) {
            fprintf(stderr, "bench_ep_scan: %s\n", err);
            return -1;
        }
        c->ep++;
        c->by_code[rec_wdl(exact)]++;
        if (rec_dtz(exact) != rec_dtz(bound)) {
            c->cursed_differs++;
            unsigned long long g = (unsigned long long)(rec_dtz(bound) - rec_dtz(exact));
            if (g > c->max_gain)
                c->max_gain = g;
        }
        if (rec_wdl(exact) == REC_CURSED || rec_wdl(exact) == REC_BLESSED) {
            char text[GAME_TEXT_MAX];
            octad_format(&e, text, sizeof text);
            fprintf(stderr, "%s: %s dtm %d dtz %d (look-ahead bound %d)\n", text, rec_wdl_name(rec_wdl(exact)),
                    rec_dtm(exact), rec_dtz(exact), rec_dtz(bound));
        }
    }
    return 0;
}

static int s_table(store_t *st, const layout_table_t *t, s_count_t *c)
{
    for (int s = 0; s < t->nslices; s++) {
        const layout_slice_t *sl = &t->slices[s];
        if (!(sl->pawns[0] & 0x000F) || !sl->pawns[1])
            continue; /* no pawn of the side to move on its home rank, or no pawn to take it */
        for (uint32_t i = 0; i < sl->size; i++) {
            octad_pos_t x;
            index_decode(sl, i, &x);
            if (rec_wdl(store_record(st, &x)) == REC_INVALID)
                continue;
            if (s_children(st, &x, c) < 0)
                return -1;
        }
    }
    return 0;
}

static void s_print(const char *name, const s_count_t *c)
{
    printf("{\"table\":\"%s\",\"ep_positions\":%llu,\"win\":%llu,\"cursed_win\":%llu,\"draw\":%llu,"
           "\"blessed_loss\":%llu,\"loss\":%llu,\"exact_dtz_below_bound\":%llu,\"largest_difference\":%llu",
           name, c->ep, c->by_code[REC_WIN], c->by_code[REC_CURSED], c->by_code[REC_DRAW], c->by_code[REC_BLESSED],
           c->by_code[REC_LOSS], c->cursed_differs, c->max_gain);
    printf("}\n");
    fflush(stdout);
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4 || !strcmp(argv[1], "--help")) {
        fprintf(stderr, "usage: bench_ep_scan DIR MAX_PIECES [MIN_PIECES]\n");
        return 2;
    }
    int maxp = atoi(argv[2]), minp = argc == 4 ? atoi(argv[3]) : 2;
    octad_init();
    sig_init();
    index_init();
    s_count_t all = {0};
    int rc = 0;
    for (int pi = 0; rc == 0 && pi < sig_pair_nb(); pi++) {
        int t0 = sig_pair_table(pi), np = sig_table_pieces(t0);
        if (np < minp || np > maxp || sig_table_dead(t0) || !sig_side_pawns(sig_table_stm(t0))
            || !sig_side_pawns(sig_table_opp(t0)))
            continue; /* an e.p. capture needs a pawn on each side */
        store_t *st = store_new(argv[1]); /* one per pair: what a pair loaded is freed after it */
        layout_pair_t lp;
        if (!st || layout_pair_build(pi, &lp) < 0) {
            fprintf(stderr, "bench_ep_scan: out of memory\n");
            store_destroy(&st);
            rc = 1;
            break;
        }
        for (int k = 0; rc == 0 && k < lp.ntables; k++) {
            s_count_t c = {0};
            rc = s_table(st, &lp.tables[k], &c) < 0;
            char name[SIG_NAME_MAX];
            sig_table_name(lp.tables[k].table, name, sizeof name);
            if (rc == 0 && c.ep)
                s_print(name, &c);
            s_add(&all, &c);
        }
        layout_pair_free(&lp);
        store_destroy(&st);
    }
    if (rc == 0)
        s_print("all", &all);
    return rc;
}
