/* ajob_report.c: the analyse job's final result, as `octad search --split` prints it (see ajob.h). */
#include "ajob.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "split_move.h"

/* The engine's line of a result. */
static void s_line(const ajob_result_t *r, engine_line_t *l)
{
    memset(l, 0, sizeof *l);
    l->score = r->score;
    l->bound = r->bound == MSG_BOUND_LOWER ? ENGINE_BOUND_LOWER
               : r->bound == MSG_BOUND_UPPER ? ENGINE_BOUND_UPPER : ENGINE_BOUND_EXACT;
    l->pvlen = r->n_pv < ENGINE_MAX_PLY ? r->n_pv : ENGINE_MAX_PLY;
    memcpy(l->pv, r->pv, sizeof l->pv[0] * (size_t)l->pvlen);
}

/* The engine's result of the job and the lines it is collected from (on the heap: about 100 KB). */
typedef struct {
    engine_result_t r;
    engine_line_t lines[GAME_MOVES_MAX];
} s_report_t;

void ajob_print(const ajob_t *self, const ajob_result_t *const *results, bool all, bool json, double seconds,
                FILE *out)
{
    char text[FORMAT_INFO_MAX];
    s_report_t *rep = calloc(1, sizeof *rep);
    if (rep == NULL) {
        fprintf(stderr, "analyse: out of memory for the final report\n");
        return;
    }
    engine_result_t *r = &rep->r;
    for (size_t i = 0; i < self->task_nb; i++) {
        s_line(results[i], &rep->lines[i]);
        r->nodes += results[i]->nodes;
        if (results[i]->seldepth > r->seldepth)
            r->seldepth = results[i]->seldepth;
    }
    engine_split_collect(r, rep->lines, (int)self->task_nb);
    r->depth = self->depth;
    r->time_ms = (int64_t)(seconds * 1000.0);
    if (!all)
        r->nlines = 1;
    if (json) {
        format_print_json(out, &self->game.pos, r);
    } else {
        for (int k = 0; k < r->nlines; k++) {
            engine_info_t info = {.depth = r->depth, .seldepth = r->seldepth, .multipv = k + 1, .line = &r->lines[k],
                                  .nodes = r->nodes, .time_ms = r->time_ms};
            format_info(&self->game.pos, &info, text, sizeof text);
            fprintf(out, "%s\n", text);
        }
        format_print_bestmove(out, &self->game.pos, r);
    }
    free(rep);
}
