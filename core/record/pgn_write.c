/* pgn_write.c: normalised PGN out (pgn_game.h): roster, setup tags, the
 * termination, numbered SAN with NAGs, comments and variations, wrapped at 80 columns. */
#include <stdlib.h>
#include <string.h>

#include "pgn_game.h"

enum { S_WIDTH = 80 };

typedef struct {
    FILE *f;
    int col;            /* characters on the current line */
    const char *prefix; /* glued before the next word ("(" opening a variation), or NULL */
} s_out_t;

/* Writes one word (after a pending prefix), starting a new line when it would pass the width. */
static void s_word(s_out_t *o, const char *w)
{
    const char *pre = o->prefix ? o->prefix : "";
    int n = (int)(strlen(pre) + strlen(w));
    o->prefix = NULL;
    if (o->col > 0 && o->col + 1 + n > S_WIDTH) {
        fputc('\n', o->f);
        o->col = 0;
    }
    if (o->col > 0 || (*pre == '\0' && (w[0] == '%' || strncmp(w, "[Event", 6) == 0))) {
        fputc(' ', o->f); /* (at a line's start: a comment's word the reader would take for an escape line or a new game) */
        o->col++;
    }
    fputs(pre, o->f);
    fputs(w, o->f);
    o->col += n;
}

/* Glues text to the last word (")" closing a variation), on a new line if it would pass the width. */
static void s_tail(s_out_t *o, const char *t)
{
    int n = (int)strlen(t);
    if (o->col > 0 && o->col + n > S_WIDTH) {
        fputc('\n', o->f);
        o->col = 0;
    }
    fputs(t, o->f);
    o->col += n;
}

static void s_tag(FILE *f, const char *name, const char *value)
{
    fprintf(f, "[%s \"", name);
    for (const char *p = value; *p; p++) {
        if (*p == '"' || *p == '\\')
            fputc('\\', f);
        fputc(*p == '\n' || *p == '\r' || *p == '\t' ? ' ' : *p, f); /* a tag stays on its line */
    }
    fputs("\"]\n", f);
}

static bool s_is_setup_tag(const char *name)
{
    static const char *const names[] = {"Event", "Site", "Date", "Round", "White", "Black", "Result",
                                        "Variant", "SetUp", "FEN", "Termination"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

static void s_tags(FILE *f, const pgn_game_t *g)
{
    static const char *const roster[][2] = {{"Event", "?"}, {"Site", "?"},  {"Date", "????.??.??"},
                                            {"Round", "?"}, {"White", "?"}, {"Black", "?"}};
    for (size_t i = 0; i < sizeof roster / sizeof roster[0]; i++) {
        const char *v = pgn_game_tag(g, roster[i][0]);
        s_tag(f, roster[i][0], v ? v : roster[i][1]);
    }
    s_tag(f, "Result", record_result_text(g->rec.result));
    const game_pos_t *start = record_pos_at(&g->rec, 0);
    char fen[GAME_TEXT_MAX];
    game_format(start, fen, sizeof fen);
    if (start->variant == VARIANT_OCTAD)
        s_tag(f, "Variant", "Octad");
    else if (start->variant == VARIANT_CHESS960)
        s_tag(f, "Variant", "Chess960");
    if (start->variant == VARIANT_CHESS960 || strcmp(fen, game_start_text(start->variant)) != 0) {
        s_tag(f, "SetUp", "1");
        s_tag(f, "FEN", fen);
    }
    const char *term = pgn_game_tag(g, "Termination"); /* kept when the record does not say */
    if (g->rec.termination != TERM_NONE && g->rec.termination != TERM_DECLARED)
        term = record_termination_name(&g->rec);
    if (term != NULL)
        s_tag(f, "Termination", term);
    for (int i = 0; i < g->tag_nb; i++)
        if (!s_is_setup_tag(g->tags[i].name))
            s_tag(f, g->tags[i].name, g->tags[i].value);
    fputc('\n', f);
}

/* Writes a comment word by word ('}' cannot appear inside, so it becomes ')'). */
static void s_comment(s_out_t *o, const char *text)
{
    char *copy = strdup(text), *save = NULL;
    if (copy == NULL)
        return;
    for (char *p = copy; *p; p++)
        if (*p == '}')
            *p = ')';
    char *w = strtok_r(copy, " ", &save), *next;
    char buf[S_WIDTH * 4];
    for (bool first = true; w != NULL; w = next, first = false) {
        next = strtok_r(NULL, " ", &save);
        snprintf(buf, sizeof buf, "%s%s%s", first ? "{" : "", w, next == NULL ? "}" : "");
        s_word(o, buf);
    }
    free(copy);
}

/* A note's NAGs and comment; returns whether a comment was written. */
static bool s_note(s_out_t *o, const pgn_note_t *n)
{
    char buf[8];
    for (int i = 0; i < n->nag_nb; i++) {
        snprintf(buf, sizeof buf, "$%d", n->nags[i]);
        s_word(o, buf);
    }
    if (n->comment == NULL)
        return false;
    s_comment(o, n->comment);
    return true;
}

static void s_line(s_out_t *o, const game_pos_t *start, const gmove_t *moves, int n, const pgn_note_t *notes,
                   int note_nb);

/* Writes the variations of a note, each from `before` (the position before the
 * move they replace); returns how many were written. */
static int s_variations(s_out_t *o, const game_pos_t *before, const pgn_note_t *n)
{
    int written = 0;
    for (int i = 0; i < n->var_nb; i++) {
        const pgn_line_t *l = &n->vars[i];
        if (l->move_nb == 0 && l->notes[0].comment == NULL && l->notes[0].nag_nb == 0)
            continue; /* nothing to say (a variation cut at its first move) */
        o->prefix = "(";
        s_line(o, before, l->moves, l->move_nb, l->notes, l->move_nb + 1); /* writes a word: "(" is used */
        s_tail(o, ")");
        written++;
    }
    return written;
}

/* Writes n moves from start, numbered, with notes[k] after move k (notes[0]
 * before the first; none past note_nb). A move carries its number when White
 * plays it, and when Black does as the first of a line or after a comment or
 * a variation ("1... e5"). */
static void s_line(s_out_t *o, const game_pos_t *start, const gmove_t *moves, int n, const pgn_note_t *notes,
                   int note_nb)
{
    static const pgn_note_t empty = {0};
    game_pos_t pos = *start, before;
    bool need_number = true;
    char buf[32 + MOVE_TEXT_MAX], san[MOVE_TEXT_MAX];
    if (note_nb > 0)
        s_note(o, &notes[0]);
    for (int k = 1; k <= n; k++) {
        const pgn_note_t *note = k < note_nb ? &notes[k] : &empty;
        int black = pos.variant == VARIANT_OCTAD ? pos.u.octad.side : pos.u.chess.side;
        unsigned full = pos.variant == VARIANT_OCTAD ? pos.u.octad.fullmove : pos.u.chess.fullmove;
        gmove_san(&pos, moves[k - 1], san);
        if (!black || need_number) /* the number stays on the line of its move */
            snprintf(buf, sizeof buf, black ? "%u... %s" : "%u. %s", full, san);
        else
            snprintf(buf, sizeof buf, "%s", san);
        s_word(o, buf);
        before = pos;
        gmove_make(&before, moves[k - 1], &pos);
        need_number = s_note(o, note);
        need_number |= s_variations(o, &before, note) > 0;
    }
}

static int s_movetext(s_out_t *o, const pgn_game_t *g)
{
    const record_t *r = &g->rec;
    gmove_t *moves = malloc(sizeof *moves * (size_t)(r->ply_nb + 1));
    if (moves == NULL)
        return -1;
    for (int k = 1; k <= r->ply_nb; k++)
        moves[k - 1] = r->plies[k].move;
    s_line(o, record_pos_at(r, 0), moves, r->ply_nb, g->notes, g->note_cap);
    free(moves);
    s_word(o, record_result_text(r->result));
    fputc('\n', o->f);
    return 0;
}

int pgn_write(FILE *f, const pgn_game_t *g)
{
    if (!g->has_record)
        return -1;
    s_out_t o = {.f = f};
    s_tags(f, g);
    if (s_movetext(&o, g) != 0)
        return -1;
    fputc('\n', f);
    return ferror(f) ? -1 : 0;
}

char *pgn_write_string(const pgn_game_t *g)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f == NULL)
        return NULL;
    int rc = pgn_write(f, g);
    if (fclose(f) != 0 || rc != 0) {
        free(text);
        return NULL;
    }
    return text;
}
