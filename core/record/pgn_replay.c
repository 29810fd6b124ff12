/* pgn_replay.c: the replaying visitor (pgn_game.h): every game of a PGN stream
 * started from its tags and played through the rules, errors placed by line and column. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgn_game.h"
#include "san.h"

enum { S_DEPTH = 32 }; /* variations nested deeper are skipped (with an error) */

typedef struct {
    const pgn_replay_t *o;
    pgn_game_t g;
    record_t line[S_DEPTH];     /* the variation being read at each depth, as a record */
    pgn_line_t *kept[S_DEPTH];  /* the same variation as stored in the game's notes */
    bool dead[S_DEPTH];         /* that variation had an error: its other moves are ignored */
    int depth;
    bool result_seen; /* the movetext ended with a result (else the [Result] tag stands for it) */
    pgn_where_t variant_at, fen_at, term_at, result_at; /* where those tags and the result are */
} s_ctx_t;

#define S_AT "game %ld, line %ld, column %ld: "

static void s_begin_game(void *ctx, const pgn_where_t *w)
{
    s_ctx_t *c = ctx;
    pgn_game_init(&c->g);
    c->g.number = w->game;
    c->g.line = w->line;
    c->depth = 0;
    c->result_seen = false;
    c->variant_at = c->fen_at = c->term_at = c->result_at = *w;
}

static void s_header(void *ctx, const char *name, const char *value, const pgn_where_t *w)
{
    s_ctx_t *c = ctx;
    if (pgn_game_set_tag(&c->g, name, value) != 0)
        pgn_game_error(&c->g, "game %ld: out of memory", c->g.number);
    if (name[0] == 'V' && strcmp(name, "Variant") == 0) /* (the letter first: most tags are none of these) */
        c->variant_at = *w;
    else if (name[0] == 'F' && strcmp(name, "FEN") == 0)
        c->fen_at = *w;
    else if (name[0] == 'T' && strcmp(name, "Termination") == 0)
        c->term_at = *w;
}

/* What other programs write in [FEN] and we still read (python-chess does the
 * same): castling letters whose king or rook is not there are dropped, and a
 * move number 0 is read as 1. Returns 0 with *out set, or -1. */
static int s_parse_lenient(variant_t v, const char *fen, game_pos_t *out)
{
    char f[6][96], text[640], keep[96];
    size_t kept = 0;
    if (strlen(fen) >= 96 || sscanf(fen, "%95s %95s %95s %95s %95s %95s", f[0], f[1], f[2], f[3], f[4], f[5]) != 6)
        return -1;
    if (strcmp(f[5], "0") == 0)
        strcpy(f[5], "1");
    for (const char *c = f[2]; *c && strcmp(f[2], "-") != 0; c++) {
        snprintf(text, sizeof text, "%s %s %c %s %s %s", f[0], f[1], *c, f[3], f[4], f[5]);
        if (game_parse(v, text, out, NULL, 0) == 0)
            keep[kept++] = *c;
    }
    if (kept == 0)
        keep[kept++] = '-';
    keep[kept] = '\0';
    snprintf(text, sizeof text, "%s %s %s %s %s %s", f[0], f[1], keep, f[3], f[4], f[5]);
    return game_parse(v, text, out, NULL, 0);
}

/* The start position from the tags; 0 or -1 after recording the error. */
static int s_start(s_ctx_t *c, game_pos_t *start)
{
    const char *vtag = pgn_game_tag(&c->g, "Variant"), *fen = pgn_game_tag(&c->g, "FEN");
    variant_t v = c->o->default_variant;
    char err[160];
    if (vtag != NULL && pgn_variant_parse(vtag, &v) != 0) {
        pgn_game_error(&c->g, S_AT "tag Variant: '%.40s' is not octad, chess or Chess960", c->g.number,
                       c->variant_at.line, c->variant_at.col, vtag);
        return -1;
    }
    if (fen == NULL && v == VARIANT_CHESS960) {
        pgn_game_error(&c->g, S_AT "tag FEN: a Chess960 game needs its start position", c->g.number,
                       c->variant_at.line, c->variant_at.col);
        return -1;
    }
    if (game_parse(v, fen ? fen : game_start_text(v), start, err, sizeof err) != 0
        && (fen == NULL || s_parse_lenient(v, fen, start) != 0)) {
        pgn_game_error(&c->g, S_AT "tag FEN: %s", c->g.number, c->fen_at.line, c->fen_at.col, err);
        return -1;
    }
    return 0;
}

static pgn_action_t s_end_headers(void *ctx)
{
    s_ctx_t *c = ctx;
    game_pos_t start;
    if (c->o->headers_only || s_start(c, &start) != 0)
        return PGN_SKIP;
    if (record_init(&c->g.rec, &start) != 0) {
        pgn_game_error(&c->g, "game %ld: out of memory", c->g.number);
        return PGN_SKIP;
    }
    c->g.has_record = true;
    c->g.rec.play_on = true;
    c->g.rec.lazy = true; /* each next move proves the ply before it was not mate or stalemate */
    return PGN_GO;
}

/* Plays a move of a variation and keeps it (errors only stop that variation). */
static void s_variation_move(s_ctx_t *c, const char *san, const pgn_where_t *w)
{
    int d = c->depth - 1;
    record_t *r = &c->line[d];
    char err[160];
    if (c->dead[d])
        return;
    if (record_play_text(r, san, err, sizeof err) != 0) {
        pgn_game_error(&c->g, S_AT "in a variation: %s", w->game, w->line, w->col, err);
        c->g.variation_error_nb++;
        c->dead[d] = true;
    } else if (pgn_line_push(c->kept[d], r->plies[r->ply_nb].move) != 0) {
        pgn_game_error(&c->g, "game %ld: out of memory", w->game);
        c->dead[d] = true;
    }
}

static pgn_action_t s_move(void *ctx, const char *san, const pgn_where_t *w)
{
    s_ctx_t *c = ctx;
    record_t *r = &c->g.rec;
    char err[160];
    gmove_t m;
    if (c->depth > 0) {
        s_variation_move(c, san, w);
        return PGN_GO;
    }
    if (san_move(record_pos(r), san, &m, err, sizeof err) != SAN_OK) {
        pgn_game_error(&c->g, S_AT "%s", w->game, w->line, w->col, err);
        return PGN_SKIP;
    }
    if (record_over(r) && r->termination != TERM_DECLARED)
        pgn_game_error(&c->g, S_AT "move '%.16s': the game was already over (%s)", w->game, w->line, w->col, san,
                       record_termination_name(r));
    if (record_play(r, m) != 0) {
        pgn_game_error(&c->g, "game %ld: out of memory", w->game);
        return PGN_SKIP;
    }
    return PGN_GO;
}

/* The note that annotations read now belong to: after the last move of the
 * innermost variation, or of the mainline. NULL out of memory, or in a
 * variation cut by an error (what follows the bad move is dropped). */
static pgn_note_t *s_note(s_ctx_t *c)
{
    if (c->depth > 0 && c->dead[c->depth - 1])
        return NULL;
    if (c->depth > 0)
        return &c->kept[c->depth - 1]->notes[c->kept[c->depth - 1]->move_nb];
    return pgn_game_note(&c->g, c->g.rec.ply_nb);
}

static void s_comment(void *ctx, const char *text)
{
    s_ctx_t *c = ctx;
    pgn_note_t *n = c->g.has_record ? s_note(c) : NULL;
    if (n != NULL && pgn_note_comment(n, text) != 0)
        pgn_game_error(&c->g, "game %ld: out of memory", c->g.number);
}

static void s_nag(void *ctx, int nag)
{
    s_ctx_t *c = ctx;
    pgn_note_t *n = c->g.has_record ? s_note(c) : NULL;
    if (n != NULL)
        pgn_note_nag(n, nag);
}

/* Opens a variation replacing the last move read: its record starts before that move. */
static pgn_action_t s_begin_variation(void *ctx, const pgn_where_t *w)
{
    s_ctx_t *c = ctx;
    if (!c->o->keep_variations || !c->g.has_record)
        return PGN_SKIP;
    if (c->depth == S_DEPTH) {
        pgn_game_error(&c->g, S_AT "variations nested deeper than %d are not read", w->game, w->line, w->col,
                       S_DEPTH);
        c->g.variation_error_nb++;
        return PGN_SKIP;
    }
    const record_t *base = c->depth > 0 ? &c->line[c->depth - 1] : &c->g.rec;
    if (c->depth > 0 && c->dead[c->depth - 1])
        return PGN_SKIP;
    if (c->depth > 0 ? c->kept[c->depth - 1]->move_nb == 0 : base->ply_nb == 0) {
        pgn_game_error(&c->g, S_AT "a variation before any move", w->game, w->line, w->col);
        c->g.variation_error_nb++;
        return PGN_SKIP;
    }
    pgn_note_t *n = s_note(c);
    pgn_line_t *kept = n ? pgn_note_add_variation(n) : NULL;
    record_t *r = &c->line[c->depth];
    memset(r, 0, sizeof *r);
    if (kept == NULL || record_copy(r, base) != 0) {
        pgn_game_error(&c->g, "game %ld: out of memory", c->g.number);
        return PGN_SKIP;
    }
    record_undo(r);
    c->kept[c->depth] = kept;
    c->dead[c->depth++] = false;
    return PGN_GO;
}

static void s_end_variation(void *ctx)
{
    s_ctx_t *c = ctx;
    if (c->depth > 0)
        record_free(&c->line[--c->depth]);
}

static void s_result(void *ctx, const char *text, const pgn_where_t *w)
{
    s_ctx_t *c = ctx;
    c->result_at = *w;
    c->result_seen = true;
    record_result_parse(text, &c->g.result_token);
}

static void s_error(void *ctx, const pgn_where_t *w, const char *message)
{
    s_ctx_t *c = ctx;
    pgn_game_error(&c->g, S_AT "%s", w->game, w->line, w->col, message);
}

/* The game ended by the rules: the result and the Termination tag must agree. */
static void s_check_ended(s_ctx_t *c, result_t t, const char *tag, bool known, termination_t term)
{
    const record_t *r = &c->g.rec;
    if (t != RESULT_NONE && r->result != t)
        pgn_game_error(&c->g, S_AT "result %s disagrees with the game: %s gives %s", c->g.number,
                       c->result_at.line, c->result_at.col, record_result_text(t), record_termination_name(r),
                       record_result_text(r->result));
    else if (known && term != r->termination)
        pgn_game_error(&c->g, S_AT "tag Termination: '%.40s' disagrees with the game: it ended by %s",
                       c->g.number, c->term_at.line, c->term_at.col, tag, record_termination_name(r));
}

/* Checks the movetext's result and the [Termination] tag against the rules;
 * where the rules did not end the game, the tag's termination (resignation,
 * agreement, time forfeit, a claim) ends it, or the result is taken as declared. */
static void s_settle_result(s_ctx_t *c)
{
    record_t *r = &c->g.rec;
    result_t t = c->g.result_token;
    const char *tag = pgn_game_tag(&c->g, "Termination");
    termination_t term = TERM_DECLARED;
    if (!c->g.has_record)
        return;
    const char *rtag = c->result_seen ? NULL : pgn_game_tag(&c->g, "Result");
    if (rtag != NULL) /* the movetext's marker is missing: the tag's result */
        record_result_parse(rtag, &t);
    bool known = tag != NULL && record_termination_parse(tag, record_pos_at(r, 0)->variant, &term) == 0;
    if (record_over(r)) {
        s_check_ended(c, t, tag, known, term);
    } else if (t == RESULT_NONE) {
        if (known)
            pgn_game_error(&c->g, S_AT "tag Termination: '%.40s', but the game has no result", c->g.number,
                           c->term_at.line, c->term_at.col, tag);
    } else if (record_end(r, term, t) != 0) {
        pgn_game_error(&c->g, S_AT "tag Termination: '%.40s' does not fit result %s after the last move",
                       c->g.number, c->term_at.line, c->term_at.col, tag, record_result_text(t));
        record_declare(r, t);
    }
}

static void s_end_game(void *ctx)
{
    s_ctx_t *c = ctx;
    while (c->depth > 0)
        s_end_variation(c);
    if (c->g.has_record)
        record_settle(&c->g.rec);
    s_settle_result(c);
    if (c->g.has_record)
        c->g.rec.play_on = false;
    if (c->o->on_game)
        c->o->on_game(c->o->ctx, &c->g);
    pgn_game_free(&c->g);
}

static const pgn_visitor_t s_visitor = {
    .begin_game = s_begin_game,
    .header = s_header,
    .end_headers = s_end_headers,
    .move = s_move,
    .comment = s_comment,
    .nag = s_nag,
    .begin_variation = s_begin_variation,
    .end_variation = s_end_variation,
    .result = s_result,
    .error = s_error,
    .end_game = s_end_game,
};

long pgn_replay(FILE *f, const pgn_replay_t *opts)
{
    s_ctx_t c = {.o = opts};
    return pgn_read(f, &s_visitor, &c);
}

long pgn_replay_text(const char *text, size_t len, const pgn_replay_t *opts)
{
    s_ctx_t c = {.o = opts};
    return pgn_read_text(text, len, &s_visitor, &c);
}
