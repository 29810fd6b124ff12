/* pgn.h: a streaming PGN reader that reports what it reads to a visitor.
 *
 * One parser serves every use (python-chess's design): the visitor decides
 * whether to replay moves, look only at headers, or skip games and variations.
 * The reader handles tags with \" and \\ escapes, {} comments over several
 * lines, ; comments, nested ( ) variations, NAGs ($1) and !? glyphs (reported
 * as NAGs 1-6), % escape lines, a UTF-8 BOM, move numbers (1. 1... 12.e4),
 * and the four results. A syntax error is reported with its game number, line
 * and column; the reader skips the rest of that game and goes on with the next.
 * A { comment left open ends (as an error placed at its '{') at a line that
 * starts with "[Event ", read as the next game's first tag. A NAG past 255 is
 * reported and dropped without skipping the game. Games end at their result,
 * or at the next game's tags, or at the end of input. */
#pragma once

#include <stdio.h>

/* Where something was read: game number (from 1), line and column (from 1). */
typedef struct {
    long game, line, col;
} pgn_where_t;

/* A visitor's answer where it may skip. */
typedef enum { PGN_GO = 0, PGN_SKIP = 1 } pgn_action_t;

/* Callbacks; any may be NULL. Texts are borrowed for the call only; `where`
 * is where the token starts (a tag's '[', a variation's '('). */
typedef struct {
    void (*begin_game)(void *ctx, const pgn_where_t *where);
    void (*header)(void *ctx, const char *name, const char *value, const pgn_where_t *where);
    pgn_action_t (*end_headers)(void *ctx); /* PGN_SKIP: skip this game's moves */
    pgn_action_t (*move)(void *ctx, const char *san, const pgn_where_t *where); /* PGN_SKIP: skip the rest of the game */
    void (*comment)(void *ctx, const char *text); /* whitespace runs become one space, ends trimmed */
    void (*nag)(void *ctx, int nag);
    pgn_action_t (*begin_variation)(void *ctx, const pgn_where_t *where); /* PGN_SKIP: skip this variation */
    void (*end_variation)(void *ctx);
    void (*result)(void *ctx, const char *text, const pgn_where_t *where);
    void (*error)(void *ctx, const pgn_where_t *where, const char *message);
    void (*end_game)(void *ctx);
} pgn_visitor_t;

/* Reads every game of f, calling v's callbacks with ctx. Returns the number of
 * games seen (broken ones included), or -1 on a read error of the stream (with
 * errno as the failed read set it). */
long pgn_read(FILE *f, const pgn_visitor_t *v, void *ctx);

/* The same over a string of len bytes. */
long pgn_read_text(const char *text, size_t len, const pgn_visitor_t *v, void *ctx);
