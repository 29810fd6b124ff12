/* record.c: the game record (record.h): plies, the draw rules and the outcome. */
#include "record.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "err.h"
#include "san.h"

static int s_side(const game_pos_t *p)
{
    return p->variant == VARIANT_OCTAD ? p->u.octad.side : p->u.chess.side;
}

static unsigned s_halfmove(const game_pos_t *p)
{
    return p->variant == VARIANT_OCTAD ? p->u.octad.halfmove : p->u.chess.halfmove;
}

static bool s_has_ep(const game_pos_t *p)
{
    return p->variant == VARIANT_OCTAD ? p->u.octad.ep != OCTAD_SQ_NONE : p->u.chess.ep != CHESS_SQ_NONE;
}

/* Whether placement, side, rights and (live) e.p. squares of two entries are equal. */
static bool s_same(const record_ply_t *a, const record_ply_t *b)
{
    if (a->ep_live != b->ep_live)
        return false;
    if (a->pos.variant == VARIANT_OCTAD) {
        const octad_pos_t *x = &a->pos.u.octad, *y = &b->pos.u.octad;
        return memcmp(x->color, y->color, sizeof x->color) == 0 && memcmp(x->type, y->type, sizeof x->type) == 0
               && x->castle == y->castle && x->side == y->side && (!a->ep_live || x->ep == y->ep);
    }
    const chess_pos_t *x = &a->pos.u.chess, *y = &b->pos.u.chess;
    return memcmp(x->pieces, y->pieces, sizeof x->pieces) == 0 && memcmp(x->colors, y->colors, sizeof x->colors) == 0
           && x->castle_rooks == y->castle_rooks && x->side == y->side && (!a->ep_live || x->ep == y->ep);
}

enum { S_STATUS_UNKNOWN = 0xFF }; /* lazy mode: not computed yet */

int record_status(const record_t *rec, int ply)
{
    record_ply_t *e = &rec->plies[ply]; /* the plies are the record's cache, filled on demand */
    if (e->status == S_STATUS_UNKNOWN)
        e->status = (uint8_t)game_status(&e->pos);
    return e->status;
}

/* Fills the rule facts of an entry whose pos is set (the status later in lazy mode). */
static void s_fill(record_ply_t *e, bool lazy)
{
    e->status = lazy ? S_STATUS_UNKNOWN : (uint8_t)game_status(&e->pos);
    e->ep_live = 0;
    if (s_has_ep(&e->pos)) {
        gmove_t moves[GAME_MOVES_MAX];
        int n = gmove_legal(&e->pos, moves);
        for (int i = 0; i < n && !e->ep_live; i++)
            e->ep_live = gmove_info(&e->pos, moves[i]).en_passant;
    }
}

int record_repetitions(const record_t *rec)
{
    const record_ply_t *now = &rec->plies[rec->ply_nb];
    int count = 1, oldest = rec->ply_nb - (int)s_halfmove(&now->pos);
    for (int k = rec->ply_nb - 2; k >= 0 && k >= oldest; k -= 2)
        count += s_same(&rec->plies[k], now);
    return count;
}

/* Sets result and termination from the rules, for the current position. */
static void s_outcome(record_t *rec)
{
    const record_ply_t *now = &rec->plies[rec->ply_nb];
    bool octad = now->pos.variant == VARIANT_OCTAD;
    int status = rec->lazy ? 0 : record_status(rec, rec->ply_nb);
    rec->result = RESULT_NONE;
    rec->termination = TERM_NONE;
    rec->end_ply = rec->ply_nb;
    if (status & GAME_CHECKMATE) {
        rec->result = s_side(&now->pos) == 0 ? RESULT_BLACK : RESULT_WHITE;
        rec->termination = TERM_CHECKMATE;
        return;
    }
    if (status & GAME_STALEMATE)
        rec->termination = TERM_STALEMATE;
    else if (game_insufficient_material(&now->pos))
        rec->termination = TERM_INSUFFICIENT_MATERIAL;
    else if (record_repetitions(rec) >= (octad ? 3 : 5))
        rec->termination = TERM_REPETITION;
    else if (s_halfmove(&now->pos) >= (octad ? 50u : 150u))
        rec->termination = TERM_MOVE_RULE;
    if (rec->termination != TERM_NONE)
        rec->result = RESULT_DRAW;
}

int record_init(record_t *rec, const game_pos_t *start)
{
    memset(rec, 0, sizeof *rec);
    rec->cap = 64;
    rec->plies = malloc(sizeof *rec->plies * (size_t)rec->cap);
    if (rec->plies == NULL)
        return -1;
    memset(&rec->plies[0], 0, sizeof rec->plies[0]);
    rec->plies[0].pos = *start;
    s_fill(&rec->plies[0], false);
    s_outcome(rec);
    return 0;
}

void record_free(record_t *rec)
{
    free(rec->plies);
    rec->plies = NULL;
    rec->ply_nb = rec->cap = 0;
}

int record_copy(record_t *dst, const record_t *src)
{
    record_ply_t *p = malloc(sizeof *p * (size_t)src->cap);
    if (p == NULL)
        return -1;
    memcpy(p, src->plies, sizeof *p * (size_t)(src->ply_nb + 1));
    free(dst->plies);
    *dst = *src;
    dst->plies = p;
    return 0;
}

const game_pos_t *record_pos(const record_t *rec) { return &rec->plies[rec->ply_nb].pos; }

const game_pos_t *record_pos_at(const record_t *rec, int ply) { return &rec->plies[ply].pos; }

bool record_over(const record_t *rec) { return rec->result != RESULT_NONE; }

int record_play(record_t *rec, gmove_t m)
{
    bool was_over = record_over(rec);
    if (was_over && !rec->play_on)
        return -1;
    if (rec->ply_nb + 1 >= rec->cap) {
        record_ply_t *p = realloc(rec->plies, sizeof *p * (size_t)rec->cap * 2);
        if (p == NULL)
            return -1;
        rec->plies = p;
        rec->cap *= 2;
    }
    record_ply_t *e = &rec->plies[rec->ply_nb + 1];
    memset(e, 0, sizeof *e);
    gmove_make(&rec->plies[rec->ply_nb].pos, m, &e->pos);
    e->move = m;
    s_fill(e, rec->lazy);
    rec->ply_nb++;
    if (!was_over)
        s_outcome(rec);
    return 0;
}

int record_play_text(record_t *rec, const char *text, char *err, size_t errlen)
{
    gmove_t m;
    if (record_over(rec))
        return err_printf(err, errlen, "move '%.16s': the game is over (%s)", text, record_termination_name(rec));
    if (san_move(record_pos(rec), text, &m, err, errlen) != SAN_OK)
        return -1;
    if (record_play(rec, m) != 0)
        return err_printf(err, errlen, "move '%.16s': out of memory", text);
    return 0;
}

void record_settle(record_t *rec)
{
    bool was_lazy = rec->lazy;
    rec->lazy = false;
    if (was_lazy && (!record_over(rec) || rec->end_ply == rec->ply_nb))
        s_outcome(rec); /* the last position decides, with mate and stalemate first */
}

int record_undo(record_t *rec)
{
    if (rec->ply_nb == 0)
        return -1;
    rec->ply_nb--;
    s_outcome(rec);
    return 0;
}

/* Whether result r fits termination t ended from outside the moves, now. */
static bool s_end_fits(const record_t *rec, termination_t t, result_t r)
{
    switch (t) {
    case TERM_RESIGNATION:
        return r == RESULT_WHITE || r == RESULT_BLACK;
    case TERM_AGREEMENT:
        return r == RESULT_DRAW;
    case TERM_CLAIM_THREEFOLD:
        return r == RESULT_DRAW && (record_claimable(rec) & CLAIM_THREEFOLD);
    case TERM_CLAIM_FIFTY:
        return r == RESULT_DRAW && (record_claimable(rec) & CLAIM_FIFTY);
    case TERM_TIME_FORFEIT:
    case TERM_DECLARED:
        return r != RESULT_NONE;
    default:
        return false;
    }
}

int record_end(record_t *rec, termination_t t, result_t r)
{
    if (record_over(rec) || !s_end_fits(rec, t, r))
        return -1;
    rec->result = r;
    rec->termination = t;
    rec->loser = (int8_t)(r == RESULT_WHITE ? 1 : r == RESULT_BLACK ? 0 : -1);
    return 0;
}

int record_resign(record_t *rec, int side)
{
    return record_end(rec, TERM_RESIGNATION, side == 0 ? RESULT_BLACK : RESULT_WHITE);
}

int record_agree_draw(record_t *rec)
{
    return record_end(rec, TERM_AGREEMENT, RESULT_DRAW);
}

int record_claimable(const record_t *rec)
{
    const game_pos_t *p = record_pos(rec);
    if (p->variant == VARIANT_OCTAD || record_over(rec))
        return 0;
    return (record_repetitions(rec) >= 3 ? CLAIM_THREEFOLD : 0) | (s_halfmove(p) >= 100 ? CLAIM_FIFTY : 0);
}

int record_claim_draw(record_t *rec)
{
    int claims = record_claimable(rec);
    if (claims == 0)
        return -1;
    return record_end(rec, (claims & CLAIM_THREEFOLD) ? TERM_CLAIM_THREEFOLD : TERM_CLAIM_FIFTY, RESULT_DRAW);
}

int record_declare(record_t *rec, result_t result)
{
    return record_end(rec, TERM_DECLARED, result);
}

const char *record_result_text(result_t r)
{
    static const char *const texts[] = {"*", "1-0", "0-1", "1/2-1/2"};
    return (unsigned)r <= RESULT_DRAW ? texts[r] : "*";
}

int record_result_parse(const char *text, result_t *out)
{
    for (int r = RESULT_NONE; r <= RESULT_DRAW; r++)
        if (strcmp(text, record_result_text((result_t)r)) == 0) {
            *out = (result_t)r;
            return 0;
        }
    return -1;
}

const char *record_termination_text(termination_t t, variant_t v)
{
    static const char *const names[TERM_NB] = {
        "none", "checkmate", "stalemate", "insufficient material", "repetition", "move rule",
        "threefold repetition (claimed)", "50-move rule (claimed)", "resignation", "agreement", "time forfeit",
        "declared",
    };
    bool octad = v == VARIANT_OCTAD;
    if (t == TERM_REPETITION)
        return octad ? "threefold repetition" : "fivefold repetition";
    if (t == TERM_MOVE_RULE)
        return octad ? "25-move rule" : "75-move rule";
    return (unsigned)t < TERM_NB ? names[t] : "unknown";
}

const char *record_termination_name(const record_t *rec)
{
    return record_termination_text(rec->termination, rec->plies[0].pos.variant);
}

int record_termination_parse(const char *text, variant_t v, termination_t *out)
{
    for (int t = TERM_NONE + 1; t < TERM_DECLARED; t++) {
        const char *name = record_termination_text((termination_t)t, v);
        if ((text[0] | 32) == name[0] && strcasecmp(text, name) == 0) { /* (the letter first: a PGN reads this per game) */
            *out = (termination_t)t;
            return 0;
        }
    }
    return -1;
}
