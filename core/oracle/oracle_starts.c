/* oracle_starts.c: the 144 deployed starts (core/game/start.h) with their
 * values and best moves. */
#include "octad/octad.h"
#include "oracle_priv.h"
#include "start.h"

/* The best moves (those that share the first move's rank) as UOI and SAN. */
static json_t *s_best(const octad_pos_t *p, const oracle_move_t *moves, int n)
{
    json_t *best = json_array();
    for (int i = 0; best && i < n && moves[i].known; i++) {
        if (probe_move_score(&moves[i].m) != probe_move_score(&moves[0].m))
            break;
        char uoi[MOVE_TEXT_MAX], san[MOVE_TEXT_MAX];
        octad_move_uoi(p, moves[i].m.move, uoi);
        octad_move_san(p, moves[i].m.move, san);
        json_t *m = json_object();
        if (json_array_append_new(best, m) < 0 || oracle_set(m, "uoi", json_string_nocheck(uoi)) < 0 ||
            oracle_set(m, "san", json_string_nocheck(san)) < 0) {
            json_decref(best);
            return NULL;
        }
    }
    return best;
}

/* Start n's object, appended to list. */
static oracle_status_t s_start(oracle_t *self, int n, json_t *list, char *err, size_t errlen)
{
    char ofen[GAME_TEXT_MAX];
    octad_pos_t p;
    oracle_value_t v;
    oracle_move_t moves[GAME_MOVES_MAX];
    int nm;
    oracle_status_t rc = start_deployed_ofen(n, ofen, sizeof ofen) == 0 ? oracle_parse(ofen, &p, err, errlen)
                                                                        : ORACLE_BAD_INPUT;
    if (rc == ORACLE_OK)
        rc = oracle_value(self, &p, &v, err, errlen);
    if (rc == ORACLE_OK)
        rc = oracle_moves(self, &p, moves, &nm, err, errlen);
    if (rc != ORACLE_OK)
        return rc;
    octad_format(&p, ofen, sizeof ofen); /* canonical rights letters */
    json_t *o = json_object();
    if (json_array_append_new(list, o) < 0 || oracle_set(o, "start", json_integer(n)) < 0 ||
        oracle_set(o, "ofen", json_string_nocheck(ofen)) < 0 || oracle_value_json(o, &v) < 0 ||
        oracle_set(o, "best", s_best(&p, moves, v.known ? nm : 0)) < 0) {
        snprintf(err, errlen, "out of memory");
        return ORACLE_NO_MEMORY;
    }
    return ORACLE_OK;
}

oracle_status_t oracle_deployed(oracle_t *self, json_t **out, char *err, size_t errlen)
{
    json_t *list = json_array();
    oracle_status_t rc = list ? ORACLE_OK : ORACLE_NO_MEMORY;
    for (int n = 0; rc == ORACLE_OK && n < START_DEPLOYED_NB; n++)
        rc = s_start(self, n, list, err, errlen);
    if (rc == ORACLE_OK) {
        *out = list;
        return ORACLE_OK;
    }
    json_decref(list);
    *out = NULL;
    if (rc == ORACLE_NO_MEMORY)
        snprintf(err, errlen, "out of memory");
    return rc;
}
