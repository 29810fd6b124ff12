/* answer.c: printing a position's value from the tables (see answer.h). */
#include "answer.h"

#include <string.h>

#include "tb_record.h"

/* The optimal line from p: best moves until mate, a draw or 400 plies. */
static void s_print_pv(FILE *out, store_t *store, const octad_pos_t *p)
{
    probe_move_t moves[GAME_MOVES_MAX];
    char san[MOVE_TEXT_MAX];
    octad_pos_t cur = *p;
    fprintf(out, "pv:");
    for (int ply = 0; ply < 400; ply++) {
        int nb, nm = probe_moves(store, &cur, moves, &nb);
        if (nm <= 0)
            break;
        octad_pos_t next;
        octad_move_san(&cur, moves[0].move, san);
        fprintf(out, " %s", san);
        octad_make(&cur, moves[0].move, &next);
        cur = next;
        probe_value_t cv;
        if (probe_position(store, &cur, &cv) < 0 || cv.wdl == REC_DRAW)
            break;
    }
    fprintf(out, "\n");
}

static void s_print_json(FILE *out, const octad_pos_t *p, const probe_value_t *v, const probe_move_t *moves, int n,
                         int nbest)
{
    char text[GAME_TEXT_MAX], uoi[MOVE_TEXT_MAX], san[MOVE_TEXT_MAX];
    octad_format(p, text, sizeof text);
    fprintf(out, "{\"position\":\"%s\",\"wdl\":\"%s\",\"wdl_clock0\":\"%s\",\"dtz\":%d,\"dtm\":%d,\"halfmove\":%d,"
                 "\"best\":[",
            text, rec_wdl_name(v->wdl), rec_wdl_name(v->wdl0), v->dtz, v->dtm, v->halfmove);
    for (int i = 0; i < nbest; i++) {
        octad_move_uoi(p, moves[i].move, uoi);
        fprintf(out, "%s\"%s\"", i ? "," : "", uoi);
    }
    fprintf(out, "],\"moves\":[");
    for (int i = 0; i < n; i++) {
        octad_move_uoi(p, moves[i].move, uoi);
        octad_move_san(p, moves[i].move, san);
        fprintf(out, "%s{\"uoi\":\"%s\",\"san\":\"%s\",\"wdl\":\"%s\",\"dtz\":%d,\"dtm\":%d}", i ? "," : "", uoi, san,
                rec_wdl_name(moves[i].wdl), moves[i].dtz, moves[i].dtm);
    }
    fprintf(out, "]}");
}

void answer_print(FILE *out, store_t *store, const octad_pos_t *p, const probe_value_t *v, bool json, bool pv)
{
    probe_move_t moves[GAME_MOVES_MAX];
    int nbest = 0, n = probe_moves(store, p, moves, &nbest);
    if (n < 0)
        n = nbest = 0;
    if (json) {
        s_print_json(out, p, v, moves, n, nbest);
        return;
    }
    char text[GAME_TEXT_MAX], uoi[MOVE_TEXT_MAX], san[MOVE_TEXT_MAX];
    octad_format(p, text, sizeof text);
    fprintf(out, "position %s\n%s for the side to move", text, rec_wdl_name(v->wdl));
    if (v->wdl != REC_DRAW)
        fprintf(out, ", dtz %d, dtm %d", v->dtz, v->dtm);
    if (v->wdl != v->wdl0)
        fprintf(out, " (with the clock at 0: %s)", rec_wdl_name(v->wdl0));
    fprintf(out, "\n");
    if (v->status & OCTAD_CHECKMATE)
        fprintf(out, "checkmate\n");
    else if (v->status & OCTAD_STALEMATE)
        fprintf(out, "stalemate\n");
    else if (octad_insufficient_material(p))
        fprintf(out, "drawn by insufficient material\n");
    for (int i = 0; i < n; i++) {
        octad_move_san(p, moves[i].move, san);
        octad_move_uoi(p, moves[i].move, uoi);
        fprintf(out, "  %-8s %-6s %-12s", san, uoi, rec_wdl_name(moves[i].wdl));
        if (moves[i].wdl != REC_DRAW)
            fprintf(out, " dtz %d dtm %d", moves[i].dtz, moves[i].dtm);
        fprintf(out, "%s\n", i < nbest ? "  best" : "");
    }
    if (pv)
        s_print_pv(out, store, p);
}

int answer_get(store_t *store, const char *text, answer_t *out, char *err, size_t errlen)
{
    probe_move_t moves[GAME_MOVES_MAX];
    memset(out, 0, sizeof *out);
    octad_init(); /* the move generator's tables (idempotent) */
    if (octad_parse(text, &out->pos, err, errlen) < 0)
        return -1;
    octad_format(&out->pos, out->text, sizeof out->text);
    if (probe_position(store, &out->pos, &out->v) < 0 || probe_moves(store, &out->pos, moves, &out->nbest) < 0) {
        snprintf(err, errlen, "%s", store_error(store));
        return -1;
    }
    for (int i = 0; i < out->nbest; i++)
        out->best[i] = moves[i].move;
    return 0;
}

void answer_print_starts(FILE *out, const answer_t *a, int n, bool json)
{
    char move[MOVE_TEXT_MAX];
    int tally[8] = {0};
    if (json)
        fprintf(out, "[");
    for (int k = 0; k < n; k++) {
        const probe_value_t *v = &a[k].v;
        tally[v->wdl]++;
        if (json) {
            fprintf(out, "%s{\"start\":%d,\"position\":\"%s\",\"wdl\":\"%s\",\"dtz\":%d,\"dtm\":%d,\"best\":[",
                    k ? "," : "", k, a[k].text, rec_wdl_name(v->wdl), v->dtz, v->dtm);
            for (int i = 0; i < a[k].nbest; i++) {
                octad_move_uoi(&a[k].pos, a[k].best[i], move);
                fprintf(out, "%s\"%s\"", i ? "," : "", move);
            }
            fprintf(out, "]}");
            continue;
        }
        fprintf(out, "%3d  %-28s %-12s", k, a[k].text, rec_wdl_name(v->wdl));
        if (v->wdl != REC_DRAW)
            fprintf(out, " dtz %3d dtm %3d", v->dtz, v->dtm);
        fprintf(out, "  best");
        for (int i = 0; i < a[k].nbest; i++) {
            octad_move_san(&a[k].pos, a[k].best[i], move);
            fprintf(out, " %s", move);
        }
        fprintf(out, "\n");
    }
    if (json)
        fprintf(out, "]");
    else
        fprintf(out, "%d starts: %d win, %d cursed-win, %d draw, %d blessed-loss, %d loss (for the side to move)\n", n,
                tally[REC_WIN], tally[REC_CURSED], tally[REC_DRAW], tally[REC_BLESSED], tally[REC_LOSS]);
}
