/* oracle_line.c: the mainline: best moves from a position until the rules
 * end the game (mate, or a draw by the 25-move rule, repetition, stalemate,
 * insufficient material), as moves and as PGN (core/record's writer). */
#include <string.h>

#include "octad/make.h"
#include "octad/octad.h"
#include "oracle_priv.h"
#include "pgn_game.h"
#include "record.h"
#include "tb_record.h"

/* Plays best moves into rec and their entries into line while the game goes
 * on (the caller starts only from a position won or lost at its clock). */
static oracle_status_t s_play(oracle_t *self, record_t *rec, json_t *line, char *err, size_t errlen)
{
    oracle_move_t moves[GAME_MOVES_MAX];
    while (!record_over(rec) && rec->ply_nb < ORACLE_LINE_MAX) {
        const octad_pos_t *cur = &record_pos(rec)->u.octad;
        int n;
        oracle_status_t rc = oracle_moves(self, cur, moves, &n, err, errlen);
        if (rc != ORACLE_OK)
            return rc;
        if (n == 0 || !moves[0].known)
            break; /* (a best move that draws by the clock is played: the rule ends the game) */
        if (json_array_append_new(line, oracle_move_json(cur, &moves[0])) < 0 || record_play(rec, moves[0].m.move) < 0) {
            snprintf(err, errlen, "out of memory");
            return ORACLE_NO_MEMORY;
        }
    }
    return ORACLE_OK;
}

/* How the line ended, in words: the rules' termination, or why it stopped. */
static const char *s_end(const record_t *rec, const oracle_value_t *v)
{
    if (record_over(rec))
        return record_termination_name(rec);
    if (!v->known)
        return "unknown";
    return v->v.wdl == REC_DRAW ? "drawn with best play" : "line too long";
}

/* result, winner, termination and pgn of the finished line. */
static int s_outcome(json_t *o, record_t *rec, const oracle_value_t *v)
{
    const char *end = s_end(rec, v);
    if (!record_over(rec) && v->known && v->v.wdl == REC_DRAW)
        record_declare(rec, RESULT_DRAW);
    result_t r = rec->result;
    pgn_game_t g;
    pgn_game_init(&g);
    char *pgn = NULL;
    if (pgn_game_from_record(&g, rec) == 0 && pgn_game_set_tag(&g, "Annotator", "octad serve mainline") == 0)
        pgn = pgn_write_string(&g);
    pgn_game_free(&g);
    json_t *winner = r == RESULT_WHITE ? json_string_nocheck("w") : r == RESULT_BLACK ? json_string_nocheck("b") : json_null();
    int rc = pgn && oracle_set(o, "result", json_string_nocheck(record_result_text(r))) == 0 &&
                     oracle_set(o, "winner", winner) == 0 && oracle_set(o, "termination", json_string_nocheck(end)) == 0 &&
                     oracle_set(o, "pgn", json_string_nocheck(pgn)) == 0
                 ? 0
                 : -1;
    free(pgn);
    return rc;
}

oracle_status_t oracle_mainline(oracle_t *self, const char *ofen, json_t **out, char *err, size_t errlen)
{
    game_pos_t start = {.variant = VARIANT_OCTAD};
    oracle_value_t v;
    *out = NULL;
    oracle_status_t rc = oracle_parse(ofen, &start.u.octad, err, errlen);
    if (rc == ORACLE_OK)
        rc = oracle_value(self, &start.u.octad, &v, err, errlen);
    if (rc != ORACLE_OK)
        return rc;
    record_t rec;
    if (record_init(&rec, &start) < 0) {
        snprintf(err, errlen, "out of memory");
        return ORACLE_NO_MEMORY;
    }
    char text[GAME_TEXT_MAX];
    octad_format(&start.u.octad, text, sizeof text);
    json_t *o = json_object(), *line = json_array();
    bool ok = o && line && oracle_set(o, "ofen", json_string_nocheck(text)) == 0 && oracle_value_json(o, &v) == 0;
    if (ok && v.known && v.v.wdl != REC_DRAW)
        rc = s_play(self, &rec, line, err, errlen);
    if (ok && rc == ORACLE_OK) {
        ok = oracle_set(o, "mainline", line) == 0 && s_outcome(o, &rec, &v) == 0;
        line = NULL;
    }
    record_free(&rec);
    json_decref(line);
    if (ok && rc == ORACLE_OK) {
        *out = o;
        return ORACLE_OK;
    }
    json_decref(o);
    if (rc == ORACLE_OK) {
        snprintf(err, errlen, "out of memory");
        rc = ORACLE_NO_MEMORY;
    }
    return rc;
}
