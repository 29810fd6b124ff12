/* cert_build.c: the certificate builder. A draw: each side's closure grows breadth first from
 * the start, one designated move at its own positions (preferring game ends, positions already
 * in, trades), every reply at the other side's. A win: the winner's fastest zeroing winning
 * move (least dtz, then dtm), which makes the graph acyclic; then clocks and ranks over it. */
#include "cert_build.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cert_set.h"
#include "cert_win.h"
#include "probe.h"
#include "tb_record.h"

/* How a closure chooses among the moves that keep the draw: the first; a move into the set,
 * else a trade; a move into the set, else the one leaving the fewest replies. */
enum { PREF_PLAIN, PREF_TRADES, PREF_FORCING };

/* Side x's designated move at p: one after which x does not lose without the 25-move rule. */
static int s_closure_move(store_t *store, const cert_set_t *set, const octad_pos_t *p, int pref,
                          octad_move_t *best, char *err, size_t len)
{
    octad_move_t moves[GAME_MOVES_MAX], replies[GAME_MOVES_MAX];
    int n = octad_gen_legal(p, moves), score = INT_MAX;
    for (int i = 0; i < n && score > 0; i++) {
        bool zeroing;
        octad_pos_t q = cert_child(p, moves[i], &zeroing);
        int sc = 0;
        if (!cert_terminal(&q)) {
            probe_value_t v;
            if (probe_position(store, &q, &v) < 0)
                return cert_fail(err, len, store_error(store), &q);
            if (rec_sign_inf(v.wdl0) > 0)
                continue;
            if (pref == PREF_PLAIN)
                sc = 0;
            else if (cert_set_find(set, &q) >= 0)
                sc = 1;
            else if (pref == PREF_TRADES)
                sc = cert_men(&q) < cert_men(p) ? 2 : 3;
            else /* PREF_FORCING: the fewest replies, trades first among equals */
                sc = 2 + 2 * octad_gen_legal(&q, replies) + (cert_men(&q) >= cert_men(p));
        }
        if (sc < score)
            score = sc, *best = moves[i];
    }
    return score < INT_MAX ? 0 : cert_fail(err, len, "the tables give no move that keeps the draw", p);
}

/* Side x's strategy closure from start into sorted records. */
static int s_closure(store_t *store, const octad_pos_t *start, int x, int pref, cert_rec_t **out,
                     size_t *count, char *err, size_t len)
{
    cert_set_t set;
    cert_set_init(&set);
    uint16_t *move = NULL;
    int added, rc = 0;
    if (cert_set_add(&set, start, &added) < 0)
        return cert_fail(err, len, "out of memory", NULL);
    for (size_t i = 0; i < set.n && rc == 0; i++) {
        octad_pos_t p = set.pos[i];
        if (i % 1024 == 0) {
            uint16_t *more = realloc(move, (set.cap + 1024) * sizeof *move);
            if (!more) {
                rc = cert_fail(err, len, "out of memory", NULL);
                break;
            }
            move = more;
        }
        move[i] = CERT_NO_MOVE;
        if (cert_terminal(&p)) {
            if ((octad_status(&p) & OCTAD_CHECKMATE) && p.side == x)
                rc = cert_fail(err, len, "the closure reaches its own side's checkmate", &p);
            continue;
        }
        octad_move_t moves[GAME_MOVES_MAX];
        int n = octad_gen_legal(&p, moves);
        if (p.side == x) {
            if ((rc = s_closure_move(store, &set, &p, pref, &moves[0], err, len)) < 0)
                break;
            move[i] = cert_move_code(moves[0]);
            n = 1;
        }
        for (int k = 0; k < n && rc == 0; k++) {
            bool zeroing;
            octad_pos_t q = cert_child(&p, moves[k], &zeroing);
            if (cert_terminal(&q)) {
                if ((octad_status(&q) & OCTAD_CHECKMATE) && q.side == x)
                    rc = cert_fail(err, len, "a reply checkmates the closure's side", &p);
            } else if (cert_set_add(&set, &q, &added) < 0) {
                rc = cert_fail(err, len, "out of memory", NULL);
            }
        }
    }
    cert_rec_t *recs = rc == 0 ? malloc((set.n + 1) * sizeof *recs) : NULL;
    if (rc == 0 && !recs)
        rc = cert_fail(err, len, "out of memory", NULL);
    for (size_t i = 0; rc == 0 && i < set.n; i++)
        recs[i] = (cert_rec_t){set.board[i], set.state[i], 0, move[i], 0};
    if (rc == 0) {
        cert_rec_sort(recs, set.n);
        *out = recs, *count = set.n;
    }
    free(move);
    cert_set_free(&set);
    return rc;
}


void cert_doc_free(cert_doc_t *d)
{
    for (int s = 0; s < d->nsections; s++) {
        free(d->recs[s]);
        d->recs[s] = NULL;
    }
    d->nsections = 0;
}

int cert_build(store_t *store, const octad_pos_t *start_in, bool plain, cert_doc_t *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    octad_pos_t start = *start_in;
    cert_canonical(&start);
    octad_format(start_in, d->start, sizeof d->start);
    probe_value_t v;
    if (probe_position(store, &start, &v) < 0)
        return cert_fail(err, errlen, store_error(store), &start);
    int stm = start.side;
    if (v.wdl == REC_WIN || v.wdl == REC_LOSS) {
        int winner = v.wdl == REC_WIN ? stm : !stm;
        d->claim = winner == OCTAD_WHITE ? "white-wins" : "black-wins";
        d->nsections = 1;
        d->name[0] = "nodes";
        return cert_win(store, &start, winner, plain, &d->recs[0], &d->count[0], err, errlen);
    }
    if (v.wdl0 != REC_DRAW)
        return cert_fail(err, errlen, "a draw only by the 25-move rule (a cursed win or blessed loss, or the clock): "
                                  "strategy closures cannot prove it", &start);
    d->claim = "draw";
    d->nsections = 2;
    d->name[0] = "white", d->name[1] = "black";
    start.halfmove = 0;
    start.fullmove = 1;
    for (int x = 0; x < 2; x++) /* the smaller closure of the two preferences (BENCHMARKS.md) */
        for (int pref = plain ? PREF_PLAIN : PREF_TRADES; pref <= (plain ? PREF_PLAIN : PREF_FORCING); pref++) {
            cert_rec_t *recs = NULL;
            size_t count = 0;
            if (s_closure(store, &start, x, pref, &recs, &count, err, errlen) < 0) {
                cert_doc_free(d);
                return -1;
            }
            if (!d->recs[x] || count < d->count[x]) {
                free(d->recs[x]);
                d->recs[x] = recs, d->count[x] = count;
            } else {
                free(recs);
            }
        }
    return 0;
}
