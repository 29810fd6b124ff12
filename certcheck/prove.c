/* prove.c: the checks of a draw (two strategy closures) and a win (a proof graph with ranks
 * and clock bounds), record by record, every move made by the checker's own rules. */
#include "prove.h"

#include <stdio.h>
#include <string.h>

#include "record.h"

typedef struct {
    const uint8_t *recs;
    size_t count;
    const char *name;
} s_section_t;

/* The index of the first record whose key is at least (board, state, clock), or count. */
static size_t s_lower(const s_section_t *s, uint64_t board, uint16_t state, int clock)
{
    cc_rec_t want = {.board = board, .state = state, .clock = clock};
    size_t lo = 0, hi = s->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        cc_rec_t r = cc_rec_read(s->recs + mid * CC_REC_BYTES);
        if (cc_rec_cmp(&r, &want) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The record of position q in s (any clock), or NULL. */
static const uint8_t *s_find(const s_section_t *s, const cc_pos_t *q, cc_rec_t *out)
{
    uint64_t board;
    uint16_t state;
    cc_rec_key(q, &board, &state);
    size_t i = s_lower(s, board, state, 0);
    if (i == s->count)
        return NULL;
    *out = cc_rec_read(s->recs + i * CC_REC_BYTES);
    return out->board == board && out->state == state ? s->recs + i * CC_REC_BYTES : NULL;
}

static int s_fail(const s_section_t *s, size_t i, const cc_pos_t *p, const char *why, const char *move)
{
    char ofen[80];
    cc_format_ofen(p, ofen);
    printf("NOT proved: section %s, record %zu (%s): %s%s%s\n", s->name, i, ofen, move ? move : "",
           move ? ": " : "", why);
    return 1;
}

/* The moves to follow from record i: its designated move (which must be there and legal) when
 * need, else (no move may be designated) every legal move; their number, or -1 after printing
 * why not. */
static int s_moves(const s_section_t *s, size_t i, const cc_pos_t *p, const cc_rec_t *r, int need, cc_move_t *moves)
{
    if (r->has_move != need) {
        s_fail(s, i, p, need ? "no designated move where one is needed" : "a designated move where none belongs", NULL);
        return -1;
    }
    int n = cc_legal_moves(p, moves);
    if (!need)
        return n;
    for (int k = 0; k < n; k++)
        if (moves[k].from == r->move.from && moves[k].to == r->move.to && moves[k].promo == r->move.promo) {
            moves[0] = moves[k];
            return 1;
        }
    s_fail(s, i, p, "the designated move is not legal", NULL);
    return -1;
}

/* The record's position, checked as docs/certificate.md's list says; prints why not. */
static int s_position(const s_section_t *s, size_t i, cc_rec_t *r, cc_pos_t *p)
{
    const char *why = NULL;
    *r = cc_rec_read(s->recs + i * CC_REC_BYTES);
    if (cc_rec_position(r, p, &why) == 0)
        return 0;
    printf("NOT proved: section %s, record %zu: not a canonical legal position: %s\n", s->name, i, why);
    return 1;
}

/* One side's strategy closure: side keeps the game in s, never checkmated. */
static int s_closure(const s_section_t *s, int side, const cc_pos_t *start)
{
    const char *sides[] = {"White", "Black"};
    char text[8], why[96];
    cc_rec_t r, found;
    cc_pos_t p, q, st = *start;
    cc_canonical_ep(&st);
    st.clock = 0;
    if (!s_find(s, &st, &found))
        return s_fail(s, 0, &st, "the start is not in the closure", NULL);
    for (size_t i = 0; i < s->count; i++) {
        if (s_position(s, i, &r, &p))
            return 1;
        if (r.clock || r.rank)
            return s_fail(s, i, &p, "a closure's record has a clock or a rank (must be 0)", NULL);
        int status = cc_status(&p), terminal = status != CC_ONGOING;
        if (status == CC_MATE && p.side == side) {
            snprintf(why, sizeof why, "%s is checkmated inside %s's closure", sides[side], sides[side]);
            return s_fail(s, i, &p, why, NULL);
        }
        cc_move_t moves[CC_MAX_MOVES];
        int need = !terminal && p.side == side, n = s_moves(s, i, &p, &r, need, moves);
        if (n < 0)
            return 1;
        if (terminal)
            continue;
        for (int k = 0; k < n; k++) {
            q = cc_play(&p, moves[k]);
            cc_canonical_ep(&q);
            q.clock = 0;
            if (s_find(s, &q, &found))
                continue;
            int qs = cc_status(&q);
            cc_move_text(moves[k], text);
            if (qs == CC_MATE && q.side == side) {
                snprintf(why, sizeof why, "it checkmates %s", sides[side]);
                return s_fail(s, i, &p, why, text);
            }
            if (qs == CC_ONGOING)
                return s_fail(s, i, &p, need ? "the designated move leaves the closure" : "this reply is missing from the closure", text);
        }
    }
    return 0;
}

/* Why the move to q (clock h) from a node of rank `rank` does not keep the win, or NULL. */
static const char *s_win_step(const s_section_t *s, const cc_pos_t *q, int h, int rank, int winner)
{
    cc_rec_t found;
    if (s_find(s, q, &found) && found.clock >= h && found.rank < rank)
        return NULL;
    int qs = cc_status(q);
    if (qs == CC_MATE)
        return q->side == winner ? "it checkmates the winner" : NULL;
    if (qs == CC_STALEMATE)
        return "it stalemates (a draw)";
    if (qs == CC_DEAD)
        return "it leaves insufficient material (a draw)";
    if (h >= 50)
        return "its halfmove clock reaches 50 without mate (the 25-move rule draws)";
    if (!s_find(s, q, &found))
        return "it leads to a position with no node";
    if (found.clock < h)
        return "its node's clock bound is below the clock it is reached with";
    return "its node's rank does not fall";
}

/* A proof graph: winner mates from every node, ranks falling, clocks within their bounds. */
static int s_win(const s_section_t *s, int winner, const cc_pos_t *start)
{
    char text[8];
    cc_rec_t r, prev, found;
    cc_pos_t p, q, st = *start;
    cc_canonical_ep(&st);
    if (!s_find(s, &st, &found) || found.clock < st.clock)
        return s_fail(s, 0, &st, "the start (at its clock) has no node", NULL);
    for (size_t i = 0; i < s->count; i++) {
        if (s_position(s, i, &r, &p))
            return 1;
        if (i > 0 && prev.board == r.board && prev.state == r.state)
            return s_fail(s, i, &p, "a second node for one position", NULL);
        prev = r;
        if (r.clock > 49 || r.rank < 1)
            return s_fail(s, i, &p, "a node's clock bound is above 49 or its rank below 1", NULL);
        if (cc_status(&p) != CC_ONGOING)
            return s_fail(s, i, &p, "a node at a position where the game is over", NULL);
        cc_move_t moves[CC_MAX_MOVES];
        int n = s_moves(s, i, &p, &r, p.side == winner, moves);
        if (n < 0)
            return 1;
        for (int k = 0; k < n; k++) {
            q = cc_play(&p, moves[k]);
            cc_canonical_ep(&q);
            const char *why = s_win_step(s, &q, q.clock, r.rank, winner);
            if (why) {
                cc_move_text(moves[k], text);
                return s_fail(s, i, &p, why, text);
            }
        }
    }
    return 0;
}

int cc_prove(const cc_cert_t *c)
{
    s_section_t sec[CC_SECTIONS_MAX];
    for (int i = 0; i < c->nsections; i++)
        sec[i] = (s_section_t){c->section[i], c->count[i], c->name[i]};
    int bad = c->claim == CC_CLAIM_DRAW ? s_closure(&sec[0], 0, &c->start) || s_closure(&sec[1], 1, &c->start)
                                        : s_win(&sec[0], c->claim == CC_CLAIM_WHITE_WINS ? 0 : 1, &c->start);
    if (bad)
        return 1;
    const char *claims[] = {"draw", "White wins", "Black wins"};
    printf("proved: %s for %s\n", claims[c->claim], c->start_text);
    return 0;
}
