/* pgn_read.c: the streaming PGN reader (pgn.h): a character source, a tokenizer
 * and the game/variation/skip state, calling the visitor as it goes. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pgn.h"

enum { S_BUF = 1 << 16 };

typedef struct {
    FILE *f;
    const unsigned char *text;
    size_t len, pos;
    unsigned char *buf;
    long line, col; /* of the next character */
    int read_error, read_errno; /* the stream failed, and errno then */
    int peeked; /* the next character, read but not consumed; -2: none */
} s_src_t;

typedef struct {
    s_src_t src;
    const pgn_visitor_t *v;
    void *ctx;
    long games;
    int in_game, headers_done, seen_moves, skip, depth, skip_depth;
    pgn_where_t at;      /* where the current token starts */
    pgn_where_t open_at; /* where the outermost open variation's '(' is */
    char *tok;
    size_t tok_len, tok_cap;
} s_reader_t;

/* Notes a read error of the stream (once, with its errno). */
static void s_read_failed(s_src_t *s)
{
    if (ferror(s->f) && !s->read_error) {
        s->read_error = 1;
        s->read_errno = errno;
    }
}

static int s_raw(s_src_t *s)
{
    if (s->f == NULL)
        return s->pos < s->len ? s->text[s->pos++] : EOF;
    if (s->pos == s->len) {
        s->len = fread(s->buf, 1, S_BUF, s->f);
        s->pos = 0;
        if (s->len == 0) {
            s_read_failed(s);
            return EOF;
        }
    }
    return s->buf[s->pos++];
}

static int s_peek(s_src_t *s)
{
    if (s->peeked == -2)
        s->peeked = s_raw(s);
    return s->peeked;
}

/* The character i places after the next one (0 < i < 64), not consumed. The
 * bytes are looked at where they are; when a FILE's buffer ends too soon, its
 * tail moves to the front and more is read after it. */
static int s_peek_at(s_src_t *s, int i)
{
    if (s_peek(s) == EOF)
        return EOF;
    size_t at = s->pos + (size_t)i - 1;
    if (s->f == NULL)
        return at < s->len ? s->text[at] : EOF;
    if (at >= s->len) {
        memmove(s->buf, s->buf + s->pos, s->len - s->pos);
        s->len -= s->pos;
        s->pos = 0;
        s->len += fread(s->buf + s->len, 1, S_BUF - s->len, s->f);
        s_read_failed(s);
        at = (size_t)i - 1;
    }
    return at < s->len ? s->buf[at] : EOF;
}

static int s_next(s_src_t *s)
{
    int c = s_peek(s);
    s->peeked = -2;
    if (c == '\n') {
        s->line++;
        s->col = 1;
    } else if (c != EOF) {
        s->col++;
    }
    return c;
}

/* Token text buffer: clear, append one character. */
static void s_tok_put(s_reader_t *r, int c);

static void s_tok_clear(s_reader_t *r)
{
    r->tok_len = 0;
    if (r->tok_cap == 0)
        s_tok_put(r, 'x');
    r->tok_len = 0;
    if (r->tok != NULL)
        r->tok[0] = '\0';
}

static void s_tok_put(s_reader_t *r, int c)
{
    if (r->tok_len + 2 > r->tok_cap) {
        size_t cap = r->tok_cap ? r->tok_cap * 2 : 256;
        char *t = realloc(r->tok, cap);
        if (t == NULL)
            return; /* out of memory: the text is cut short */
        r->tok = t;
        r->tok_cap = cap;
    }
    r->tok[r->tok_len++] = (char)c;
    r->tok[r->tok_len] = '\0';
}

/* Character classes without the C locale's tables (this loop runs for every byte). */
static inline int s_space(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static inline int s_digit(int c) { return c >= '0' && c <= '9'; }

static int s_active(const s_reader_t *r) { return !r->skip && r->skip_depth == 0; }

/* Reports a syntax error at the current token; the rest of the game is skipped. */
static void s_error(s_reader_t *r, const char *msg)
{
    if (!r->skip && r->v->error)
        r->v->error(r->ctx, &r->at, msg);
    r->skip = 1;
}

static void s_begin_game(s_reader_t *r)
{
    r->games++;
    r->in_game = 1;
    r->headers_done = r->seen_moves = r->skip = r->depth = r->skip_depth = 0;
    r->at.game = r->games;
    if (r->v->begin_game)
        r->v->begin_game(r->ctx, &r->at);
}

/* The headers are over (movetext or the end of the game follows). */
static void s_headers_done(s_reader_t *r)
{
    if (!r->in_game)
        s_begin_game(r);
    if (r->headers_done)
        return;
    r->headers_done = 1;
    if (!r->skip && r->v->end_headers && r->v->end_headers(r->ctx) == PGN_SKIP)
        r->skip = 2; /* 2: skipped by the visitor, not by an error */
}

static void s_end_game(s_reader_t *r)
{
    if (!r->in_game)
        return;
    if (!r->headers_done && !r->skip)
        s_headers_done(r); /* a game of tags only still has its start */
    if (r->depth > 0 && !r->skip) {
        r->at = r->open_at;
        s_error(r, "variation not closed: ')' missing");
    }
    if (r->v->end_game)
        r->v->end_game(r->ctx);
    r->in_game = 0;
}

/* Skips spaces; returns the next character without reading it, having dropped % lines. */
static int s_skip_space(s_reader_t *r)
{
    for (;;) {
        int c = s_peek(&r->src);
        if (c == '%' && r->src.col == 1) {
            while ((c = s_next(&r->src)) != EOF && c != '\n')
                ;
            continue;
        }
        if (c == EOF || !s_space(c))
            return c;
        s_next(&r->src);
    }
}

/* Reads `[Name "value"]` after the '['; 0 or -1 after reporting the problem. */
static int s_tag(s_reader_t *r)
{
    char name[64];
    size_t n = 0;
    int c;
    s_skip_space(r);
    while ((c = s_peek(&r->src)) != EOF && (isalnum(c) || c == '_') && n + 1 < sizeof name)
        name[n++] = (char)s_next(&r->src);
    name[n] = '\0';
    if (n == 0)
        return s_error(r, "tag: name missing after '['"), -1;
    if (s_skip_space(r) != '"')
        return s_error(r, "tag: value must be a quoted string"), -1;
    s_next(&r->src);
    s_tok_clear(r);
    for (;;) {
        c = s_next(&r->src);
        if (c == '"') { /* the value ends at a quote followed by ']': an inner unescaped quote is kept */
            int spaces = 0;
            while (s_peek(&r->src) == ' ' && spaces < 64)
                s_next(&r->src), spaces++;
            if (s_peek(&r->src) == ']' || s_peek(&r->src) == '\n' || s_peek(&r->src) == EOF)
                break;
            s_tok_put(r, '"');
            while (spaces-- > 0)
                s_tok_put(r, ' ');
            continue;
        }
        if (c == '\\' && (s_peek(&r->src) == '"' || s_peek(&r->src) == '\\'))
            c = s_next(&r->src);
        else if (c == EOF || c == '\n')
            return s_error(r, "tag: value not closed by '\"' on its line"), -1;
        s_tok_put(r, c);
    }
    if (s_skip_space(r) != ']')
        return s_error(r, "tag: ']' missing after the value"), -1;
    s_next(&r->src);
    if (!r->skip && r->v->header)
        r->v->header(r->ctx, name, r->tok, &r->at);
    return 0;
}

/* Whether the next characters start a line "[Event " (where a comment left
 * open is taken to end: the next game's first tag). */
static int s_at_event_tag(s_src_t *s)
{
    static const char tag[] = "[Event ";
    if (s->col != 1 || s_peek(s) != '[')
        return 0;
    for (int i = 1; tag[i]; i++)
        if (s_peek_at(s, i) != tag[i])
            return 0;
    return 1;
}

/* Reads a {} comment (open = '{') or a ; comment to the end of the line. A {
 * comment not closed by the end of the input or by a line starting "[Event "
 * is an error reported where it opened; the reader goes on at that tag. */
static void s_comment(s_reader_t *r, int open)
{
    int c, space = 0;
    s_tok_clear(r);
    for (;;) {
        c = s_next(&r->src);
        if (open == '{' && (c == EOF || (c == '\n' && s_at_event_tag(&r->src)))) {
            if (!r->in_game)
                s_begin_game(r); /* between games: reported as a game of its own, not lost */
            s_error(r, c == EOF ? "comment: '{' not closed by '}' before the end of the input"
                                : "comment: '{' not closed by '}' before the next game's [Event tag");
            r->seen_moves = 1; /* the tag that follows starts a new game */
            return;
        }
        if (c == EOF || (open == '{' && c == '}') || (open == ';' && c == '\n'))
            break;
        if (s_space(c)) {
            space = r->tok_len > 0;
            continue;
        }
        if (space)
            s_tok_put(r, ' ');
        space = 0;
        s_tok_put(r, c);
    }
    if (s_active(r) && r->in_game && r->v->comment)
        r->v->comment(r->ctx, r->tok);
}

/* A NAG; one past 255 is reported (where it is) and dropped, and the game read on. */
static void s_nag(s_reader_t *r, int nag)
{
    if (!s_active(r))
        return;
    if (nag > 255) {
        char msg[64];
        snprintf(msg, sizeof msg, "NAG: $%d is out of range (0-255)", nag);
        if (r->v->error)
            r->v->error(r->ctx, &r->at, msg);
    } else if (r->v->nag) {
        r->v->nag(r->ctx, nag);
    }
}

/* The NAG of a !? glyph (1 !, 2 ?, 3 !!, 4 ??, 5 !?, 6 ?!), or 0. */
static int s_glyph_nag(const char *g)
{
    static const char *const glyphs[] = {"", "!", "?", "!!", "??", "!?", "?!"};
    for (int i = 1; i <= 6; i++)
        if (strcmp(g, glyphs[i]) == 0)
            return i;
    return 0;
}

static void s_result(s_reader_t *r, const char *text)
{
    s_headers_done(r);
    if (r->depth > 0)
        s_error(r, "result inside a variation: ')' missing");
    if (s_active(r) && r->v->result)
        r->v->result(r->ctx, text, &r->at);
    s_end_game(r);
}

/* A move text (maybe with glyphs attached) found in the movetext. */
static void s_move(s_reader_t *r, char *t)
{
    size_t n = strlen(t), g = n;
    while (g > 0 && (t[g - 1] == '!' || t[g - 1] == '?'))
        g--;
    int nag = g < n ? s_glyph_nag(t + g) : 0;
    if (g < n && nag == 0) {
        s_error(r, "glyph: unknown annotation after the move");
        return;
    }
    t[g] = '\0';
    if (s_active(r) && r->v->move && r->v->move(r->ctx, t, &r->at) == PGN_SKIP)
        r->skip = 2;
    if (nag)
        s_nag(r, nag);
}

static int s_is_token_char(int c)
{
    switch (c) {
    case '+': case '#': case '=': case ':': case '-': case '/': case '.': case '!': case '?':
        return 1;
    default:
        return (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z');
    }
}

/* A symbol token: a result, a move number, a move, or a glyph. */
static void s_symbol(s_reader_t *r)
{
    int c;
    s_tok_clear(r);
    while (s_is_token_char(c = s_peek(&r->src)))
        s_tok_put(r, s_next(&r->src));
    char *t = r->tok;
    if (strcmp(t, "1-0") == 0 || strcmp(t, "0-1") == 0 || strcmp(t, "1/2-1/2") == 0) {
        s_result(r, t);
        return;
    }
    s_headers_done(r);
    r->seen_moves = 1;
    if (strcmp(t, "e.p.") == 0)
        return; /* "exd6 e.p.": the en-passant remark after a move, written apart */
    if (t[0] == '!' || t[0] == '?') {
        int nag = s_glyph_nag(t);
        if (nag)
            s_nag(r, nag);
        else
            s_error(r, "glyph: unknown annotation");
        return;
    }
    if (s_digit((unsigned char)t[0])) {
        size_t d = strspn(t, "0123456789");
        if (t[d] == '\0')
            return; /* a move number without its dot */
        if (t[d] == '.') {
            size_t skip = d + strspn(t + d, ".");
            t += skip;
            r->at.col += (long)skip; /* "12.e4": the move's own column */
            if (*t == '\0')
                return;
        }
    }
    s_move(r, t);
}

static void s_variation(s_reader_t *r, int c)
{
    s_headers_done(r);
    r->seen_moves = 1;
    if (c == '(') {
        if (r->depth++ == 0)
            r->open_at = r->at;
        if (s_active(r) && r->v->begin_variation && r->v->begin_variation(r->ctx, &r->at) == PGN_SKIP)
            r->skip_depth = r->depth;
        return;
    }
    if (r->depth == 0) {
        s_error(r, "variation: ')' without '('");
        return;
    }
    if (r->skip_depth == r->depth)
        r->skip_depth = 0;
    else if (s_active(r) && r->v->end_variation)
        r->v->end_variation(r->ctx);
    r->depth--;
}

/* Reads one token at the current character c (not yet consumed). */
static void s_token(s_reader_t *r, int c)
{
    if (c == '[') {
        s_next(&r->src);
        if (r->in_game && r->seen_moves)
            s_end_game(r);
        if (!r->in_game)
            s_begin_game(r);
        if (s_tag(r) != 0)
            while ((c = s_peek(&r->src)) != EOF && c != '\n')
                s_next(&r->src);
    } else if (c == '{' || c == ';') {
        s_next(&r->src);
        if (r->in_game)
            s_headers_done(r); /* a comment before the first move belongs to the moves */
        s_comment(r, c);
    } else if (c == '(' || c == ')') {
        s_next(&r->src);
        s_variation(r, c);
    } else if (c == '$') {
        s_next(&r->src);
        int nag = 0, digits = 0;
        while (s_digit(s_peek(&r->src)) && digits++ < 3)
            nag = nag * 10 + s_next(&r->src) - '0';
        s_headers_done(r);
        if (digits)
            s_nag(r, nag);
        else
            s_error(r, "NAG: '$' without a number");
    } else if (c == '*') {
        s_next(&r->src);
        s_result(r, "*");
    } else if (s_is_token_char(c)) {
        s_symbol(r);
    } else {
        s_next(&r->src);
        s_headers_done(r);
        char msg[64];
        snprintf(msg, sizeof msg, isprint(c) ? "unexpected character '%c'" : "unexpected byte 0x%02x", c);
        s_error(r, msg);
    }
}

static long s_run(s_reader_t *r)
{
    r->src.line = r->src.col = 1;
    r->src.peeked = -2;
    if (s_peek(&r->src) == 0xEF) { /* a UTF-8 byte-order mark */
        s_next(&r->src);
        if (s_peek(&r->src) == 0xBB)
            s_next(&r->src);
        if (s_peek(&r->src) == 0xBF)
            s_next(&r->src);
        r->src.col = 1;
    }
    for (;;) {
        int c = s_skip_space(r);
        if (c == EOF)
            break;
        r->at = (pgn_where_t){r->in_game ? r->games : r->games + 1, r->src.line, r->src.col};
        s_token(r, c);
    }
    r->at = (pgn_where_t){r->games, r->src.line, r->src.col};
    s_end_game(r);
    free(r->tok);
    if (r->src.read_error) {
        errno = r->src.read_errno;
        return -1;
    }
    return r->games;
}

long pgn_read(FILE *f, const pgn_visitor_t *v, void *ctx)
{
    s_reader_t r = {.src = {.f = f}, .v = v, .ctx = ctx};
    r.src.buf = malloc(S_BUF);
    if (r.src.buf == NULL)
        return -1;
    long n = s_run(&r);
    free(r.src.buf);
    return n;
}

long pgn_read_text(const char *text, size_t len, const pgn_visitor_t *v, void *ctx)
{
    s_reader_t r = {.src = {.text = (const unsigned char *)text, .len = len}, .v = v, .ctx = ctx};
    return s_run(&r);
}
