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
