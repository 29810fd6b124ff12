/* san.c: move text in (san.h): SAN, long algebraic and UOI/UCI, with typed errors. */
#include "san.h"

#include <stdio.h>
#include <string.h>

#include "err.h"
#include "san_fast.h"

static const char *const s_castles[] = {"", "O", "O-O", "O-O-O"};

const char *san_error_name(san_error_t e)
{
    static const char *const names[] = {"ok", "malformed", "illegal", "ambiguous"};
    return (unsigned)e <= SAN_AMBIGUOUS ? names[e] : "unknown";
}

static int s_piece_of(char c)
{
    switch (c) {
    case 'P': return 0;
    case 'N': return 1;
    case 'B': return 2;
    case 'R': return 3;
    case 'Q': return 4;
    case 'K': return 5;
    default: return -1;
    }
}

static int s_promo_of(char c)
{
    int p = s_piece_of(c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c);
    return p >= 1 && p <= 4 ? p : 0;
}

static int s_is_file(char c) { return c >= 'a' && c <= 'h'; }
static int s_is_rank(char c) { return c >= '1' && c <= '8'; }

/* Copies the move body (up to a space) without check marks, glyphs and "e.p.";
 * returns its length, or -1 if it is too long. */
static int s_body(const char *text, char *body, size_t cap)
{
    size_t n = 0;
    while (text[n] != '\0' && text[n] != ' ' && text[n] != '\t' && text[n] != '\n' && text[n] != '\r')
        n++;
    if (n >= cap)
        return -1;
    memcpy(body, text, n);
    body[n] = '\0';
    for (;;) {
        char last = n > 0 ? body[n - 1] : '\0';
        if (last == '+' || last == '#' || last == '!' || last == '?')
            body[--n] = '\0';
        else if (n >= 4 && strcmp(body + n - 4, "e.p.") == 0)
            body[n -= 4] = '\0';
        else
            return (int)n;
    }
}

/* The castle texts: O, O-O, O-O-O, with zeros or letter O; 0 if not a castle. */
static int s_castle_of(const char *body)
{
    char norm[8];
    size_t n = strlen(body);
    if (n == 0 || n > 5)
        return 0;
    for (size_t i = 0; i <= n; i++)
        norm[i] = body[i] == '0' ? 'O' : body[i];
    for (int k = 1; k <= 3; k++)
        if (strcmp(norm, s_castles[k]) == 0)
            return k;
    return 0;
}

/* Reads the promotion suffix ("=Q", "Q", "q") at the end of body[0..*n); shortens *n. */
static int s_take_promo(const char *body, int *n)
{
    int promo = *n >= 3 && s_is_rank(body[*n - 2]) ? s_promo_of(body[*n - 1]) : 0;
    if (promo == 0 && *n >= 4 && body[*n - 2] == '=')
        promo = s_promo_of(body[*n - 1]);
    if (promo != 0) {
        (*n)--;
        if (body[*n - 1] == '=')
            (*n)--;
    }
    return promo;
}

san_error_t san_parse(const char *text, san_t *out, char *err, size_t errlen)
{
    char body[24];
    int n = s_body(text, body, sizeof body), i = 0;
    *out = (san_t){.piece = -1, .from_file = -1, .from_rank = -1, .to_file = -1, .to_rank = -1};
    if (n < 0)
        return err_printf(err, errlen, "move '%.16s...': malformed (too long)", text), SAN_MALFORMED;
    if (n == 0)
        return err_printf(err, errlen, "move '%s': malformed (empty)", body), SAN_MALFORMED;
    if ((out->castle = (int8_t)s_castle_of(body)) != 0)
        return SAN_OK;
    if (s_piece_of(body[0]) >= 0)
        out->piece = (int8_t)s_piece_of(body[i++]);
    out->promo = (int8_t)s_take_promo(body, &n);
    if (out->promo == 0 && n >= 3 && (body[n - 2] == '=' || s_is_rank(body[n - 2])) && strchr("KkPp", body[n - 1]))
        return err_printf(err, errlen, "move '%s': malformed (a pawn promotes to Q, R, B or N, not %c)", body,
                          body[n - 1]), SAN_MALFORMED;
    if (n - i < 2 || !s_is_file(body[n - 2]) || !s_is_rank(body[n - 1]))
        return err_printf(err, errlen, "move '%s': malformed (expected a destination square such as e4 at the end)",
                          body), SAN_MALFORMED;
    out->to_file = (int8_t)(body[n - 2] - 'a');
    out->to_rank = (int8_t)(body[n - 1] - '1');
    n -= 2;
    if (n > i && strchr("x-:", body[n - 1]) != NULL)
        n--;
    if (n > i && s_is_file(body[i]))
        out->from_file = (int8_t)(body[i++] - 'a');
    if (n > i && s_is_rank(body[i]))
        out->from_rank = (int8_t)(body[i++] - '1');
    if (i != n)
        return err_printf(err, errlen, "move '%s': malformed (unexpected '%c')", body, body[i]), SAN_MALFORMED;
    if (out->piece < 0 && (out->from_file < 0 || out->from_rank < 0))
        out->piece = 0; /* no letter and no full origin: a pawn move */
    return SAN_OK;
}

/* Whether the castle m of pos is written `kind` (its SAN without +/#). */
static int s_castle_matches(const game_pos_t *pos, gmove_t m, int kind)
{
    char text[MOVE_TEXT_MAX];
    gmove_san(pos, m, text);
    text[strcspn(text, "+#")] = '\0';
    return strcmp(text, s_castles[kind]) == 0;
}

/* A castle named by king square and target (UOI's, or the rook's square: king takes rook). */
static int s_castle_by_squares(const game_pos_t *pos, gmove_t m, const gmove_info_t *i, const san_t *s)
{
    char uoi[MOVE_TEXT_MAX];
    if (s->piece > 0 && s->piece != 5)
        return 0;
    if (s->from_file != i->from_file || s->from_rank != i->from_rank)
        return 0;
    if (s->to_file == i->to_file && s->to_rank == i->to_rank)
        return 1;
    gmove_uoi(pos, m, uoi);
    return s->to_file == uoi[2] - 'a' && s->to_rank == uoi[3] - '1';
}

/* 1 if m matches, 0 if not; *promo_missing set when only the promotion piece was missing.
 * `to` is the text's destination square on this board (-1 for castles). */
static int s_matches(const game_pos_t *pos, gmove_t m, const san_t *s, int to, int *promo_missing)
{
    bool castle = gmove_is_castle(pos, m);
    if (!castle && gmove_to_sq(pos, m) != to)
        return 0; /* the usual case, decided without looking at the board */
    if (castle != (s->castle != 0) && (!castle || s->from_file < 0 || s->from_rank < 0))
        return 0;
    gmove_info_t i = gmove_info(pos, m);
    if (s->castle)
        return i.castle && s_castle_matches(pos, m, s->castle);
    if (i.castle)
        return s->from_file >= 0 && s->from_rank >= 0 && s_castle_by_squares(pos, m, &i, s);
    if (i.to_file != s->to_file || i.to_rank != s->to_rank || (s->piece >= 0 && i.piece != s->piece))
        return 0;
    if ((s->from_file >= 0 && s->from_file != i.from_file) || (s->from_rank >= 0 && s->from_rank != i.from_rank))
        return 0;
    if (s->piece == 0 && s->from_file < 0 && i.from_file != s->to_file)
        return 0; /* a pawn written without its file moves straight ahead */
    if (s->promo != i.promo) {
        *promo_missing |= s->promo == 0;
        return 0;
    }
    return 1;
}

static san_error_t s_illegal(const game_pos_t *pos, const san_t *s, const char *text, int promo_missing,
                             char *err, size_t errlen)
{
    int size = gmove_board_size(pos);
    if (!s->castle && (s->to_file >= size || s->to_rank >= size || s->from_file >= size || s->from_rank >= size)) {
        err_printf(err, errlen, "move '%.16s': malformed (a square off the %dx%d board)", text, size, size);
        return SAN_MALFORMED;
    }
    const char *why = promo_missing ? "it needs a promotion piece, such as =Q"
                      : s->castle   ? "that castle is not legal here"
                                    : "no such legal move in this position";
    err_printf(err, errlen, "move '%.16s': illegal (%s)", text, why);
    return SAN_ILLEGAL;
}

san_error_t san_resolve(const game_pos_t *pos, const gmove_t *moves, int n, const san_t *san,
                        const char *text, gmove_t *out, char *err, size_t errlen)
{
    int found = -1, other = -1, promo_missing = 0, size = gmove_board_size(pos);
    int to = san->castle || san->to_file >= size || san->to_rank >= size ? -1 : san->to_rank * size + san->to_file;
    for (int k = 0; k < n; k++) {
        if (!s_matches(pos, moves[k], san, to, &promo_missing))
            continue;
        if (found >= 0)
            other = k;
        else
            found = k;
    }
    if (found < 0)
        return s_illegal(pos, san, text, promo_missing, err, errlen);
    if (other >= 0) {
        char a[MOVE_TEXT_MAX], b[MOVE_TEXT_MAX];
        gmove_san(pos, moves[found], a);
        gmove_san(pos, moves[other], b);
        err_printf(err, errlen, "move '%.16s': ambiguous (it could be %s or %s)", text, a, b);
        return SAN_AMBIGUOUS;
    }
    *out = moves[found];
    return SAN_OK;
}

san_error_t san_move(const game_pos_t *pos, const char *text, gmove_t *out, char *err, size_t errlen)
{
    san_t san;
    gmove_t moves[GAME_MOVES_MAX];
    san_error_t e = san_parse(text, &san, err, errlen);
    if (e != SAN_OK)
        return e;
    if (pos->variant != VARIANT_OCTAD && san_chess_fast(&pos->u.chess, &san, out))
        return SAN_OK;
    return san_resolve(pos, moves, gmove_legal(pos, moves), &san, text, out, err, errlen);
}
