/* pgn_write.c: normalised PGN out (pgn_game.h): roster, setup tags, numbered
 * SAN with NAGs and comments, wrapped at 80 columns. */
#include <stdlib.h>
#include <string.h>

#include "pgn_game.h"

enum { S_WIDTH = 80 };

typedef struct {
    FILE *f;
    int col; /* characters on the current line */
} s_out_t;

/* Writes one word, starting a new line when it would pass the width. */
static void s_word(s_out_t *o, const char *w)
{
    int n = (int)strlen(w);
    if (o->col > 0 && o->col + 1 + n > S_WIDTH) {
        fputc('\n', o->f);
        o->col = 0;
    }
    if (o->col > 0) {
        fputc(' ', o->f);
        o->col++;
    }
    fputs(w, o->f);
    o->col += n;
}

static void s_tag(FILE *f, const char *name, const char *value)
{
    fprintf(f, "[%s \"", name);
    for (const char *p = value; *p; p++) {
        if (*p == '"' || *p == '\\')
            fputc('\\', f);
        fputc(*p, f);
    }
    fputs("\"]\n", f);
}

static bool s_is_setup_tag(const char *name)
{
    static const char *const names[] = {"Event", "Site", "Date", "Round", "White", "Black", "Result",
                                        "Variant", "SetUp", "FEN"};
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

/* NAGs and comment after ply k; returns whether a comment was written. */
static bool s_notes(s_out_t *o, const pgn_game_t *g, int k)
{
    char buf[8];
    if (k >= g->note_cap)
        return false;
    const pgn_note_t *n = &g->notes[k];
    for (int i = 0; i < n->nag_nb; i++) {
        snprintf(buf, sizeof buf, "$%d", n->nags[i]);
        s_word(o, buf);
    }
    if (n->comment == NULL)
        return false;
    s_comment(o, n->comment);
    return true;
}

static void s_movetext(s_out_t *o, const pgn_game_t *g)
{
    const record_t *r = &g->rec;
    bool need_number = true; /* the first move always carries its number */
    s_notes(o, g, 0);
    char buf[32], san[MOVE_TEXT_MAX];
    for (int k = 1; k <= r->ply_nb; k++) {
        const game_pos_t *before = record_pos_at(r, k - 1);
        int black = before->variant == VARIANT_OCTAD ? before->u.octad.side : before->u.chess.side;
        unsigned full = before->variant == VARIANT_OCTAD ? before->u.octad.fullmove : before->u.chess.fullmove;
        if (!black || need_number) {
            snprintf(buf, sizeof buf, black ? "%u..." : "%u.", full);
            s_word(o, buf);
        }
        gmove_san(before, r->plies[k].move, san);
        s_word(o, san);
        need_number = s_notes(o, g, k);
    }
    s_word(o, record_result_text(r->result));
    fputc('\n', o->f);
}

int pgn_write(FILE *f, const pgn_game_t *g)
{
    if (!g->has_record)
        return -1;
    s_out_t o = {f, 0};
    s_tags(f, g);
    s_movetext(&o, g);
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
