/* oracle_answer.c: a position's answer: its value and every move's, as JSON
 * (oracle_position), and the values with coverage the other answers share. */
#include <stdlib.h>
#include <string.h>

#include "octad/make.h"
#include "octad/octad.h"
#include "oracle_priv.h"
#include "tb_record.h"

oracle_status_t oracle_value(oracle_t *self, const octad_pos_t *p, oracle_value_t *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->v.halfmove = (int)p->halfmove;
    out->v.status = octad_status(p);
    if (!oracle_covers(self, p))
        return ORACLE_OK;
    if (probe_position(self->store, p, &out->v) < 0) {
        snprintf(err, errlen, "%s", store_error(self->store));
        return ORACLE_UNAVAILABLE;
    }
    out->known = true;
    return ORACLE_OK;
}

/* Best first: known before unknown, then probe_move_score, then generation order. */
static int s_cmp(const void *a, const void *b)
{
    const oracle_move_t *x = a, *y = b;
    if (x->known != y->known)
        return x->known ? -1 : 1;
    long sx = x->known ? probe_move_score(&x->m) : 0, sy = y->known ? probe_move_score(&y->m) : 0;
    if (sx != sy)
        return sx > sy ? -1 : 1;
    return x->m.move < y->m.move ? -1 : x->m.move > y->m.move;
}

oracle_status_t oracle_moves(oracle_t *self, const octad_pos_t *p, oracle_move_t *moves, int *n, char *err,
                             size_t errlen)
{
    octad_move_t list[GAME_MOVES_MAX];
    *n = octad_gen_legal(p, list);
    for (int i = 0; i < *n; i++) {
        octad_pos_t c;
        oracle_move_t *m = &moves[i];
        memset(m, 0, sizeof *m);
        make_move(p, list[i], &c);
        m->m.move = list[i];
        m->m.after.halfmove = (int)c.halfmove;
        m->m.after.status = octad_status(&c);
        if (!oracle_covers(self, &c))
            continue;
        if (probe_move(self->store, p, list[i], &m->m) < 0) {
            snprintf(err, errlen, "%s", store_error(self->store));
            return ORACLE_UNAVAILABLE;
        }
        m->known = true;
    }
    qsort(moves, (size_t)*n, sizeof *moves, s_cmp);
    return ORACLE_OK;
}

json_t *oracle_move_json(const octad_pos_t *p, const oracle_move_t *m)
{
    char uoi[MOVE_TEXT_MAX], san[MOVE_TEXT_MAX], text[GAME_TEXT_MAX];
    octad_pos_t c;
    make_move(p, m->m.move, &c);
    octad_move_uoi(p, m->m.move, uoi);
    octad_move_san(p, m->m.move, san);
    octad_format(&c, text, sizeof text);
    oracle_value_t after = {m->known, m->m.after};
    json_t *o = json_object();
    if (!o || oracle_set(o, "uoi", json_string_nocheck(uoi)) < 0 || oracle_set(o, "san", json_string_nocheck(san)) < 0 ||
        oracle_set(o, "ofen", json_string_nocheck(text)) < 0 || oracle_value_json(o, &after) < 0) {
        json_decref(o);
        return NULL;
    }
    return o;
}

const char *oracle_category(const oracle_value_t *v) { return v->known ? rec_wdl_name(v->v.wdl) : "unknown"; }

/* A distance signed for the side to move: + when it wins, - when it loses,
 * 0 for a draw; null when unknown. */
static json_t *s_distance(const oracle_value_t *v, int plies)
{
    if (!v->known)
        return json_null();
    int sign = rec_sign_inf(v->v.wdl);
    return json_integer(v->v.wdl == REC_DRAW ? 0 : sign * plies);
}

int oracle_value_json(json_t *obj, const oracle_value_t *v)
{
    if (oracle_set(obj, "category", json_string_nocheck(oracle_category(v))) < 0 ||
        oracle_set(obj, "dtz", s_distance(v, v->v.dtz)) < 0 ||
        oracle_set(obj, "precise_dtz", s_distance(v, v->v.dtz)) < 0 ||
        oracle_set(obj, "dtm", s_distance(v, v->v.dtm)) < 0)
        return -1;
    return 0;
}

/* The rules' verdicts on a position, which need no table. */
static int s_flags_json(json_t *obj, const octad_pos_t *p, int status)
{
    if (oracle_set(obj, "checkmate", json_boolean(status & OCTAD_CHECKMATE)) < 0 ||
        oracle_set(obj, "stalemate", json_boolean(status & OCTAD_STALEMATE)) < 0 ||
        oracle_set(obj, "insufficient_material", json_boolean(octad_insufficient_material(p))) < 0)
        return -1;
    return 0;
}

/* One move's object in a position's answer: oracle_move_json, whether it
 * zeroes the clock, and the rules' verdicts on the position after it. */
static json_t *s_move_json(const octad_pos_t *p, const oracle_move_t *m)
{
    octad_pos_t c;
    make_move(p, m->m.move, &c);
    json_t *o = oracle_move_json(p, m);
    if (!o || oracle_set(o, "zeroing", json_boolean(c.halfmove == 0)) < 0 ||
        s_flags_json(o, &c, m->m.after.status) < 0) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* The answer's object for a parsed position. */
static oracle_status_t s_answer(oracle_t *self, const octad_pos_t *p, json_t **out, char *err, size_t errlen)
{
    oracle_value_t v;
    oracle_move_t moves[GAME_MOVES_MAX];
    int n;
    oracle_status_t rc = oracle_value(self, p, &v, err, errlen);
    if (rc == ORACLE_OK)
        rc = oracle_moves(self, p, moves, &n, err, errlen);
    if (rc != ORACLE_OK)
        return rc;
    char text[GAME_TEXT_MAX];
    octad_format(p, text, sizeof text);
    json_t *o = json_object(), *list = json_array();
    bool ok = o && list && oracle_set(o, "ofen", json_string_nocheck(text)) == 0 && oracle_value_json(o, &v) == 0 &&
              oracle_set(o, "halfmove", json_integer(p->halfmove)) == 0 && s_flags_json(o, p, v.v.status) == 0;
    for (int i = 0; ok && i < n; i++)
        ok = json_array_append_new(list, s_move_json(p, &moves[i])) == 0;
    if (ok) {
        ok = oracle_set(o, "moves", list) == 0; /* takes list, even when it fails */
        list = NULL;
    }
    if (ok) {
        *out = o;
        return ORACLE_OK;
    }
    json_decref(list);
    json_decref(o);
    snprintf(err, errlen, "out of memory");
    return ORACLE_NO_MEMORY;
}

oracle_status_t oracle_position(oracle_t *self, const char *ofen, json_t **out, char *err, size_t errlen)
{
    octad_pos_t p;
    *out = NULL;
    oracle_status_t rc = oracle_parse(ofen, &p, err, errlen);
    return rc != ORACLE_OK ? rc : s_answer(self, &p, out, err, errlen);
}
