/* pgn_game.c: the PGN game value (pgn_game.h): tags, notes, errors and its lifetime. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pgn_game.h"

void pgn_game_init(pgn_game_t *g)
{
    memset(g, 0, sizeof *g);
}

int pgn_game_from_record(pgn_game_t *g, const record_t *rec)
{
    static const char *const roster[][2] = {{"Event", "?"}, {"Site", "?"},  {"Date", "????.??.??"},
                                            {"Round", "?"}, {"White", "?"}, {"Black", "?"}};
    pgn_game_init(g);
    if (record_copy(&g->rec, rec) != 0)
        return -1;
    g->has_record = true;
    for (size_t i = 0; i < sizeof roster / sizeof roster[0]; i++)
        if (pgn_game_set_tag(g, roster[i][0], roster[i][1]) != 0)
            return -1;
    return pgn_game_set_tag(g, "Result", record_result_text(rec->result));
}

void pgn_game_free(pgn_game_t *g)
{
    for (int i = 0; i < g->tag_nb; i++) {
        free(g->tags[i].name);
        free(g->tags[i].value);
    }
    free(g->tags);
    for (int i = 0; i < g->note_cap; i++)
        if (g->notes[i].comment != NULL || g->notes[i].vars != NULL) /* (most notes own nothing) */
            pgn_note_free(&g->notes[i]);
    free(g->notes);
    if (g->has_record)
        record_free(&g->rec);
    pgn_game_init(g);
}

int pgn_game_set_tag(pgn_game_t *g, const char *name, const char *value)
{
    char *v = strdup(value);
    if (v == NULL)
        return -1;
    for (int i = 0; i < g->tag_nb; i++)
        if (strcmp(g->tags[i].name, name) == 0) {
            free(g->tags[i].value);
            g->tags[i].value = v;
            return 0;
        }
    if (g->tag_nb == g->tag_cap) {
        int cap = g->tag_cap ? g->tag_cap * 2 : 16;
        pgn_tag_t *t = realloc(g->tags, sizeof *t * (size_t)cap);
        if (t == NULL) {
            free(v);
            return -1;
        }
        g->tags = t;
        g->tag_cap = cap;
    }
    char *n = strdup(name);
    if (n == NULL) {
        free(v);
        return -1;
    }
    g->tags[g->tag_nb++] = (pgn_tag_t){n, v};
    return 0;
}

const char *pgn_game_tag(const pgn_game_t *g, const char *name)
{
    for (int i = 0; i < g->tag_nb; i++)
        if (strcmp(g->tags[i].name, name) == 0)
            return g->tags[i].value;
    return NULL;
}

pgn_note_t *pgn_game_note(pgn_game_t *g, int ply)
{
    if (ply >= g->note_cap) {
        int cap = g->note_cap ? g->note_cap : 64;
        while (cap <= ply)
            cap *= 2;
        pgn_note_t *n = realloc(g->notes, sizeof *n * (size_t)cap);
        if (n == NULL)
            return NULL;
        memset(n + g->note_cap, 0, sizeof *n * (size_t)(cap - g->note_cap));
        g->notes = n;
        g->note_cap = cap;
    }
    return &g->notes[ply];
}

void pgn_game_error(pgn_game_t *g, const char *fmt, ...)
{
    if (g->error_nb < PGN_ERRORS_KEPT) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(g->errors[g->error_nb], PGN_ERROR_MAX, fmt, ap);
        va_end(ap);
    }
    g->error_nb++;
}

int pgn_variant_parse(const char *tag, variant_t *out)
{
    static const struct {
        const char *name;
        variant_t v;
    } names[] = {{"octad", VARIANT_OCTAD},          {"chess960", VARIANT_CHESS960}, {"fischerandom", VARIANT_CHESS960},
                 {"fischer random", VARIANT_CHESS960}, {"960", VARIANT_CHESS960}, {"standard", VARIANT_CHESS},
                 {"chess", VARIANT_CHESS},          {"from position", VARIANT_CHESS},
                 {"", VARIANT_CHESS}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcasecmp(tag, names[i].name) == 0) {
            *out = names[i].v;
            return 0;
        }
    return -1;
}
