/* perft_compare.c: our divide against an engine's, descending to the first difference (perft_compare.h). */
#include "perft_compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count.h"
#include "err.h"

/* One position of the descent: our children and counts, the engine's divide, how they pair. */
typedef struct {
    game_child_t child[GAME_MOVES_MAX];
    count_t nodes[GAME_MOVES_MAX];
    int nb;
    int theirs_of[GAME_MOVES_MAX]; /* index into the engine's divide, or -1 */
    perft_divide_t theirs;
    bool matched[PERFT_DIVIDE_MAX]; /* engine's move i is one of ours */
} s_node_t;

typedef struct {
    perft_engine_t *eng;
    game_tt_t *tt;
    char root[GAME_TEXT_MAX];
    const char *their_path[PERFT_CMP_PATH_MAX]; /* the path in the engine's own texts */
    s_node_t node;
} s_ctx_t;

static void s_our_divide(s_ctx_t *c, const game_pos_t *pos, int depth)
{
    s_node_t *n = &c->node;
    n->nb = game_children(pos, n->child);
    for (int i = 0; i < n->nb; i++)
        n->nodes[i] = game_perft(&n->child[i].child, depth - 1, c->tt);
}

/* The other way to write castle i (SAN O-O...): chess writes the king's destination, so the
 * other is king takes rook (h or a file); Chess960 writes king takes rook, so the other is the
 * destination (g or c file). False if move i is not a castle. */
static bool s_castle_other(const game_child_t *c, variant_t v, char *alt)
{
    bool king_side;
    if (strncmp(c->san, "O-O", 3) != 0)
        return false;
    king_side = strncmp(c->san, "O-O-O", 5) != 0;
    memcpy(alt, c->uoi, 4);
    alt[4] = '\0';
    if (v == VARIANT_CHESS)
        alt[2] = king_side ? 'h' : 'a';
    else if (v == VARIANT_CHESS960)
        alt[2] = king_side ? 'g' : 'c';
    else
        return false;
    return true;
}

/* Which of our moves the engine's text names: the same text (promotion letters in either
 * case), the other castling notation, or a text our parser reads as the same move; -1 if none. */
static int s_find(const s_node_t *n, const game_pos_t *pos, const char *text)
{
    char key[GAME_TEXT_MAX], other[GAME_TEXT_MAX], low[MOVE_TEXT_MAX], alt[MOVE_TEXT_MAX];
    game_pos_t after;
    size_t len = strlen(text);
    for (size_t k = 0; k <= len && k < sizeof low; k++)
        low[k] = (char)(text[k] >= 'A' && text[k] <= 'Z' ? text[k] - 'A' + 'a' : text[k]);
    low[sizeof low - 1] = '\0';
    for (int i = 0; i < n->nb; i++)
        if (strcmp(n->child[i].uoi, low) == 0)
            return i;
    for (int i = 0; i < n->nb; i++)
        if (s_castle_other(&n->child[i], pos->variant, alt) && strcmp(alt, low) == 0)
            return i;
    if (game_play(pos, low, &after, NULL, 0) != 0)
        return -1;
    game_format_key(&after, key, sizeof key);
    for (int i = 0; i < n->nb; i++) {
        game_format_key(&n->child[i].child, other, sizeof other);
        if (strcmp(key, other) == 0)
            return i;
    }
    return -1;
}

/* Pairs the engine's moves with ours; fills the missing and extra lists. True if the lists agree. */
static bool s_pair(s_node_t *n, const game_pos_t *pos, perft_cmp_t *out)
{
    out->missing_nb = out->extra_nb = 0;
    for (int i = 0; i < n->nb; i++)
        n->theirs_of[i] = -1;
    for (int j = 0; j < n->theirs.nb; j++) {
        int i = s_find(n, pos, n->theirs.move[j]);
        n->matched[j] = i >= 0 && n->theirs_of[i] < 0; /* a move listed twice: the second is extra */
        if (n->matched[j])
            n->theirs_of[i] = j;
        else if (out->extra_nb < PERFT_CMP_LIST_MAX)
            snprintf(out->extra[out->extra_nb++], MOVE_TEXT_MAX, "%s", n->theirs.move[j]);
    }
    for (int i = 0; i < n->nb; i++)
        if (n->theirs_of[i] < 0 && out->missing_nb < PERFT_CMP_LIST_MAX)
            snprintf(out->missing[out->missing_nb++], MOVE_TEXT_MAX, "%s", n->child[i].uoi);
    return out->missing_nb == 0 && out->extra_nb == 0;
}

/* The move whose counts differ with the smallest count of ours; -1 if none. */
static int s_pick(const s_node_t *n)
{
    int best = -1;
    for (int i = 0; i < n->nb; i++)
        if (n->nodes[i] != n->theirs.nodes[n->theirs_of[i]] && (best < 0 || n->nodes[i] < n->nodes[best]))
            best = i;
    return best;
}

static count_t s_sum(const count_t *v, int nb)
{
    count_t s = 0;
    for (int i = 0; i < nb; i++)
        s += v[i];
    return s;
}

/* Looks at one position of the descent: 1 = the answer is here (filled in *out),
 * 0 = descend into *next, -1 = the engine failed. */
static int s_step(s_ctx_t *c, const game_pos_t *pos, int depth, int ply, count_t expected, perft_cmp_t *out,
                  int *next, char *err, size_t errlen)
{
    s_node_t *n = &c->node;
    char a[COUNT_TEXT_MAX], b[COUNT_TEXT_MAX];
    s_our_divide(c, pos, depth);
    if (perft_engine_divide(c->eng, c->root, c->their_path, ply, depth, &n->theirs, err, errlen) != 0) {
        size_t len = strlen(err);
        len += (size_t)snprintf(err + len, len < errlen ? errlen - len : 0, " (asked: perft %d of %s%s", depth,
                                c->root, ply > 0 ? " after" : "");
        for (int i = 0; i < ply && len < errlen; i++)
            len += (size_t)snprintf(err + len, errlen - len, " %s", c->their_path[i]);
        if (len < errlen)
            snprintf(err + len, errlen - len, ")");
        return -1;
    }
    count_t ours = s_sum(n->nodes, n->nb), sum = s_sum(n->theirs.nodes, n->theirs.nb);
    if (ply == 0) {
        out->ours = ours;
        out->theirs = n->theirs.total;
    }
    game_format(pos, out->position, sizeof out->position);
    out->depth = depth;
    out->path_nb = ply;
    if (!s_pair(n, pos, out)) {
        snprintf(out->note, sizeof out->note, "the move lists differ here: legal moves the engine lacks %d, moves it "
                 "lists that are not legal %d", out->missing_nb, out->extra_nb);
        return 1;
    }
    if (sum != n->theirs.total) {
        snprintf(out->note, sizeof out->note, "the engine's divide sums to %s but it printed the total %s",
                 count_format(sum, a), count_format(n->theirs.total, b));
        return 1;
    }
    if (ply > 0 && sum != expected) {
        snprintf(out->note, sizeof out->note, "the engine counted %s after move %s one ply up, but its divide here "
                 "sums to %s", count_format(expected, a), out->path[ply - 1], count_format(sum, b));
        return 1;
    }
    *next = s_pick(n);
    if (*next < 0) {
        out->equal = ply == 0;
        if (!out->equal) /* unreachable: a differing parent count implies a differing sum here */
            snprintf(out->note, sizeof out->note, "every count agrees here");
        return 1;
    }
    if (depth == 1 || ply == PERFT_CMP_PATH_MAX) {
        snprintf(out->move, sizeof out->move, "%s", n->child[*next].uoi);
        out->move_ours = n->nodes[*next];
        out->move_theirs = n->theirs.nodes[n->theirs_of[*next]];
        snprintf(out->note, sizeof out->note, "move %s: we count %s, the engine counts %s", out->move,
                 count_format(out->move_ours, a), count_format(out->move_theirs, b));
        return 1;
    }
    return 0;
}

int perft_compare(perft_engine_t *eng, const game_pos_t *root, int depth, perft_cmp_t *out, char *err,
                  size_t errlen)
{
    s_ctx_t *c = calloc(1, sizeof *c);
    char (*their_text)[MOVE_TEXT_MAX] = calloc(PERFT_CMP_PATH_MAX, MOVE_TEXT_MAX);
    game_pos_t pos = *root;
    count_t expected = 0;
    int rc = 0;
    memset(out, 0, sizeof *out);
    if (c == NULL || their_text == NULL) {
        free(c), free(their_text);
        return err_printf(err, errlen, "out of memory");
    }
    c->eng = eng;
    c->tt = game_tt_new(root->variant, (size_t)64 << 20);
    game_format(root, c->root, sizeof c->root);
    for (int ply = 0, d = depth; rc == 0; ply++, d--) {
        int next = -1;
        rc = s_step(c, &pos, d, ply, expected, out, &next, err, errlen);
        if (rc != 0)
            break;
        s_node_t *n = &c->node;
        snprintf(out->path[ply], MOVE_TEXT_MAX, "%s", n->child[next].uoi);
        snprintf(their_text[ply], MOVE_TEXT_MAX, "%s", n->theirs.move[n->theirs_of[next]]);
        c->their_path[ply] = their_text[ply];
        expected = n->theirs.nodes[n->theirs_of[next]];
        pos = n->child[next].child;
    }
    game_tt_destroy(&c->tt);
    free(c);
    free(their_text);
    return rc < 0 ? -1 : 0;
}
