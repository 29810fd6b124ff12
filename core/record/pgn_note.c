/* pgn_note.c: a PGN game's annotations (pgn_game.h): comments, NAGs and the
 * tree of variations hanging from the notes, and how they are freed. */
#include <stdlib.h>
#include <string.h>

#include "pgn_game.h"

static void s_line_free(pgn_line_t *l);

/* Frees what a note owns (not the note itself). */
void pgn_note_free(pgn_note_t *n)
{
    free(n->comment);
    for (int i = 0; i < n->var_nb; i++)
        s_line_free(&n->vars[i]);
    free(n->vars);
    memset(n, 0, sizeof *n);
}

static void s_line_free(pgn_line_t *l)
{
    for (int k = 0; l->notes != NULL && k <= l->move_nb; k++)
        pgn_note_free(&l->notes[k]);
    free(l->notes);
    free(l->moves);
    memset(l, 0, sizeof *l);
}

int pgn_note_comment(pgn_note_t *n, const char *text)
{
    size_t old = n->comment ? strlen(n->comment) : 0, add = strlen(text);
    if (add == 0)
        return 0;
    char *s = realloc(n->comment, old + add + 2);
    if (s == NULL)
        return -1;
    if (old)
        s[old++] = ' ';
    memcpy(s + old, text, add + 1);
    n->comment = s;
    return 0;
}

void pgn_note_nag(pgn_note_t *n, int nag)
{
    if (nag >= 0 && nag <= 255 && n->nag_nb < PGN_NAGS_MAX)
        n->nags[n->nag_nb++] = (uint8_t)nag;
}

pgn_line_t *pgn_note_add_variation(pgn_note_t *n)
{
    if (n->var_nb == n->var_cap) {
        int cap = n->var_cap ? n->var_cap * 2 : 2;
        pgn_line_t *v = realloc(n->vars, sizeof *v * (size_t)cap);
        if (v == NULL)
            return NULL;
        n->vars = v;
        n->var_cap = cap;
    }
    pgn_line_t *l = &n->vars[n->var_nb];
    memset(l, 0, sizeof *l);
    l->notes = calloc(1, sizeof *l->notes);
    if (l->notes == NULL)
        return NULL;
    n->var_nb++;
    return l;
}

int pgn_line_push(pgn_line_t *l, gmove_t m)
{
    if (l->move_nb == l->cap) {
        int cap = l->cap ? l->cap * 2 : 8;
        gmove_t *moves = realloc(l->moves, sizeof *moves * (size_t)cap);
        if (moves == NULL)
            return -1;
        l->moves = moves;
        pgn_note_t *notes = realloc(l->notes, sizeof *notes * (size_t)(cap + 1));
        if (notes == NULL)
            return -1;
        l->notes = notes;
        l->cap = cap;
    }
    l->moves[l->move_nb++] = m;
    memset(&l->notes[l->move_nb], 0, sizeof l->notes[0]);
    return 0;
}

static int s_count(const pgn_note_t *notes, int nb)
{
    int count = 0;
    for (int k = 0; k < nb; k++)
        for (int i = 0; i < notes[k].var_nb; i++)
            count += 1 + s_count(notes[k].vars[i].notes, notes[k].vars[i].move_nb + 1);
    return count;
}

int pgn_game_variation_count(const pgn_game_t *g)
{
    return s_count(g->notes, g->note_cap);
}
