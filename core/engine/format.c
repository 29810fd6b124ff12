/* format.c: search output texts (format.h). */
#include "format.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int format_mate_moves(int score)
{
    if (score > ENGINE_MATE_BOUND)
        return (ENGINE_MATE - score + 1) / 2;
    if (score < -ENGINE_MATE_BOUND)
        return -(ENGINE_MATE + score) / 2;
    return 0;
}

void format_score(int score, char *buf, size_t len)
{
    int mate = format_mate_moves(score);
    if (mate != 0)
        snprintf(buf, len, "mate %d", mate);
    else
        snprintf(buf, len, "cp %d", score);
}

void format_pv(const game_pos_t *root, const engine_move_t *pv, int n, char *buf, size_t len)
{
    game_pos_t pos = *root;
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used + MOVE_TEXT_MAX + 1 < len; i++) {
        char m[MOVE_TEXT_MAX];
        engine_move_text(&pos, pv[i], m);
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", m);
        engine_make(&pos, pv[i], &pos);
    }
}

void format_info(const game_pos_t *root, const engine_info_t *info, char *buf, size_t len)
{
    char score[32], pv[ENGINE_MAX_PLY * MOVE_TEXT_MAX];
    format_score(info->line->score, score, sizeof score);
    format_pv(root, info->line->pv, info->line->pvlen, pv, sizeof pv);
    const char *bound = info->line->bound == ENGINE_BOUND_LOWER   ? " lowerbound"
                        : info->line->bound == ENGINE_BOUND_UPPER ? " upperbound"
                                                                  : "";
    uint64_t nps = info->time_ms > 0 ? info->nodes * 1000 / (uint64_t)info->time_ms : info->nodes * 1000;
    snprintf(buf, len,
             "info depth %d seldepth %d multipv %d score %s%s nodes %" PRIu64 " nps %" PRIu64
             " hashfull %d time %" PRId64 " pv %s",
             info->depth, info->seldepth, info->multipv, score, bound, info->nodes, nps, info->hashfull,
             info->time_ms, pv);
}

/* The long-algebraic text of move m of pos (or of reply m after best), "" for none. */
static void s_move_or_none(const game_pos_t *pos, engine_move_t best, engine_move_t m, bool reply, char *buf)
{
    buf[0] = '\0';
    if (m == ENGINE_MOVE_NONE)
        return;
    if (!reply) {
        engine_move_text(pos, m, buf);
        return;
    }
    game_pos_t child;
    engine_make(pos, best, &child);
    engine_move_text(&child, m, buf);
}

void format_print_json(FILE *out, const game_pos_t *pos, const engine_result_t *r)
{
    char fen[GAME_TEXT_MAX], best[MOVE_TEXT_MAX], ponder[MOVE_TEXT_MAX];
    static _Thread_local char pv[ENGINE_MAX_PLY * MOVE_TEXT_MAX];
    game_format(pos, fen, sizeof fen);
    s_move_or_none(pos, r->best, r->best, false, best);
    s_move_or_none(pos, r->best, r->ponder, true, ponder);
    fprintf(out, "{\"variant\":\"%s\",\"position\":\"%s\",\"depth\":%d,\"seldepth\":%d,\"nodes\":%" PRIu64
            ",\"time_ms\":%" PRId64 ",\"bestmove\":%s%s%s,\"ponder\":%s%s%s,\"lines\":[",
            game_variant_name(pos->variant), fen, r->depth, r->seldepth, r->nodes, r->time_ms,
            r->best ? "\"" : "", r->best ? best : "null", r->best ? "\"" : "",
            r->ponder ? "\"" : "", r->ponder ? ponder : "null", r->ponder ? "\"" : "");
    for (int i = 0; i < r->nlines; i++) {
        const engine_line_t *l = &r->lines[i];
        int mate = format_mate_moves(l->score);
        format_pv(pos, l->pv, l->pvlen, pv, sizeof pv);
        fprintf(out, "%s{\"multipv\":%d,\"score\":{\"%s\":%d},\"bound\":\"%s\",\"pv\":\"%s\"}", i ? "," : "",
                i + 1, mate ? "mate" : "cp", mate ? mate : l->score,
                l->bound == ENGINE_BOUND_EXACT ? "exact" : l->bound == ENGINE_BOUND_LOWER ? "lower" : "upper", pv);
    }
    fprintf(out, "]}\n");
}

void format_print_bestmove(FILE *out, const game_pos_t *pos, const engine_result_t *r)
{
    char best[MOVE_TEXT_MAX], ponder[MOVE_TEXT_MAX];
    if (r->best == ENGINE_MOVE_NONE) {
        fputs("bestmove (none)\n", out);
        return;
    }
    s_move_or_none(pos, r->best, r->best, false, best);
    s_move_or_none(pos, r->best, r->ponder, true, ponder);
    if (r->ponder)
        fprintf(out, "bestmove %s ponder %s\n", best, ponder);
    else
        fprintf(out, "bestmove %s\n", best);
}
