/* cert_win.c: a win's proof graph. The winner plays a move of least dtz (then least dtm, then
 * one into a node already made): dtz falls by one each ply until a zeroing move, and zeroing
 * moves cannot be undone, so the positions form an acyclic graph, one node each. Its clock
 * bound is the largest clock it is reached with, its rank the longest line from it to mate. */
#include "cert_win.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cert_set.h"
#include "probe.h"
#include "tb_record.h"

typedef struct {
    cert_set_t set;
    uint16_t *move;      /* by node */
    size_t *first;       /* by node: its first edge */
    uint32_t *child;     /* edges */
    uint8_t *zeroing;
    size_t nedges, cap_edges, cap_nodes;
} s_graph_t;

static int s_room(s_graph_t *g, size_t node, size_t edges)
{
    if (node >= g->cap_nodes) {
        size_t cap = g->cap_nodes ? g->cap_nodes * 2 : 1024;
        uint16_t *move = realloc(g->move, cap * sizeof *move);
        if (move)
            g->move = move;
        size_t *first = realloc(g->first, (cap + 1) * sizeof *first);
        if (first)
            g->first = first;
        if (!move || !first)
            return -1;
        g->cap_nodes = cap;
    }
    if (g->nedges + edges > g->cap_edges) {
        size_t cap = (g->nedges + edges) * 2;
        uint32_t *child = realloc(g->child, cap * sizeof *child);
        if (child)
            g->child = child;
        uint8_t *zeroing = realloc(g->zeroing, cap);
        if (zeroing)
            g->zeroing = zeroing;
        if (!child || !zeroing)
            return -1;
        g->cap_edges = cap;
    }
    return 0;
}

/* The winner's move at p: a mate, else the least dtz through the move, then the least dtm. */
static int s_winner_move(store_t *store, const cert_set_t *set, const octad_pos_t *p, bool plain,
                         octad_move_t *best, char *err, size_t len)
{
    octad_move_t moves[GAME_MOVES_MAX];
    int n = octad_gen_legal(p, moves);
    long key = -1;
    for (int i = 0; i < n; i++) {
        bool zeroing;
        octad_pos_t q = cert_child(p, moves[i], &zeroing);
        long k;
        if (octad_status(&q) & OCTAD_CHECKMATE) {
            k = 0;
        } else if (cert_terminal(&q)) {
            continue;
        } else {
            probe_value_t v;
            if (probe_position(store, &q, &v) < 0)
                return cert_fail(err, len, store_error(store), &q);
            if (v.wdl0 != REC_LOSS)
                continue;
            long dtz = zeroing ? 1 : 1 + v.dtz;
            k = dtz << 20 | (plain ? 0 : (long)v.dtm << 1 | (cert_set_find(set, &q) < 0));
        }
        if (key < 0 || k < key)
            key = k, *best = moves[i];
    }
    return key >= 0 ? 0 : cert_fail(err, len, "the tables give the winner no winning move", p);
}

/* Expands every node breadth first: the winner's one move, the loser's every move. */
static int s_expand(store_t *store, s_graph_t *g, int winner, bool plain, char *err, size_t len)
{
    for (size_t i = 0; i < g->set.n; i++) {
        octad_pos_t p = g->set.pos[i];
        octad_move_t moves[GAME_MOVES_MAX];
        int n = octad_gen_legal(&p, moves), added;
        if (s_room(g, i, (size_t)n) < 0)
            return cert_fail(err, len, "out of memory", NULL);
        g->first[i] = g->nedges;
        g->move[i] = CERT_NO_MOVE;
        if (p.side == winner) {
            if (s_winner_move(store, &g->set, &p, plain, &moves[0], err, len) < 0)
                return -1;
            g->move[i] = cert_move_code(moves[0]);
            n = 1;
        }
        for (int k = 0; k < n; k++) {
            bool zeroing;
            octad_pos_t q = cert_child(&p, moves[k], &zeroing);
            if (p.side == winner && (octad_status(&q) & OCTAD_CHECKMATE))
                continue; /* rank 0: no node */
            if (cert_terminal(&q))
                return cert_fail(err, len, "a loser's move ends the game (the tables disagree)", &p);
            long c = cert_set_add(&g->set, &q, &added);
            if (c < 0)
                return cert_fail(err, len, "out of memory", NULL);
            g->child[g->nedges] = (uint32_t)c;
            g->zeroing[g->nedges++] = zeroing;
        }
    }
    g->first[g->set.n] = g->nedges;
    return 0;
}

/* Clock bounds and ranks in a topological order of the graph; -1 if it has a cycle. */
static int s_clocks_ranks(const s_graph_t *g, int start_clock, int *clock, int *rank, char *err, size_t len)
{
    size_t n = g->set.n, done = 0;
    uint32_t *indeg = calloc(n, sizeof *indeg), *order = malloc(n * sizeof *order);
    if (!indeg || !order) {
        free(indeg), free(order);
        return cert_fail(err, len, "out of memory", NULL);
    }
    for (size_t e = 0; e < g->nedges; e++)
        indeg[g->child[e]]++;
    if (indeg[0]) { /* an edge back to the start: a cycle */
        free(indeg), free(order);
        return cert_fail(err, len, "the graph has a cycle through the start", NULL);
    }
    order[done++] = 0;
    for (size_t k = 0; k < done; k++) /* Kahn: the start is the only node without parents */
        for (size_t e = g->first[order[k]]; e < g->first[order[k] + 1]; e++)
            if (--indeg[g->child[e]] == 0)
                order[done++] = g->child[e];
    int rc = done == n ? 0 : cert_fail(err, len, "the graph has a cycle (the winner's moves repeat)", NULL);
    for (size_t i = 0; i < n; i++)
        clock[i] = -1;
    clock[0] = start_clock;
    for (size_t k = 0; rc == 0 && k < n; k++)
        for (size_t e = g->first[order[k]]; e < g->first[order[k] + 1]; e++) {
            int c = g->zeroing[e] ? 0 : clock[order[k]] + 1;
            if (c > clock[g->child[e]])
                clock[g->child[e]] = c;
        }
    for (size_t k = n; rc == 0 && k-- > 0;) {
        int r = 0;
        for (size_t e = g->first[order[k]]; e < g->first[order[k] + 1]; e++)
            if (rank[g->child[e]] > r)
                r = rank[g->child[e]];
        rank[order[k]] = r + 1;
        if (clock[order[k]] > 49 || r + 1 > 0xFFFF)
            rc = cert_fail(err, len, "a node's clock passes 49 or its rank 65535", &g->set.pos[order[k]]);
    }
    free(indeg), free(order);
    return rc;
}

int cert_win(store_t *store, const octad_pos_t *start, int winner, bool plain, cert_rec_t **out, size_t *count,
             char *err, size_t len)
{
    s_graph_t g;
    memset(&g, 0, sizeof g);
    cert_set_init(&g.set);
    octad_pos_t s0 = *start;
    s0.halfmove = 0;
    s0.fullmove = 1;
    int added, rc = cert_set_add(&g.set, &s0, &added) < 0 ? cert_fail(err, len, "out of memory", NULL) : 0;
    if (rc == 0)
        rc = s_expand(store, &g, winner, plain, err, len);
    int *clock = rc == 0 ? malloc(g.set.n * sizeof *clock) : NULL, *rank = rc == 0 ? malloc(g.set.n * sizeof *rank) : NULL;
    cert_rec_t *recs = rc == 0 ? malloc(g.set.n * sizeof *recs) : NULL;
    if (rc == 0 && (!clock || !rank || !recs))
        rc = cert_fail(err, len, "out of memory", NULL);
    if (rc == 0)
        rc = s_clocks_ranks(&g, (int)start->halfmove, clock, rank, err, len);
    for (size_t i = 0; rc == 0 && i < g.set.n; i++)
        recs[i] = (cert_rec_t){g.set.board[i], g.set.state[i], (uint8_t)clock[i], g.move[i], (uint16_t)rank[i]};
    if (rc == 0) {
        cert_rec_sort(recs, g.set.n);
        *out = recs, *count = g.set.n;
    } else {
        free(recs);
    }
    free(clock), free(rank);
    free(g.move), free(g.first), free(g.child), free(g.zeroing);
    cert_set_free(&g.set);
    return rc;
}
