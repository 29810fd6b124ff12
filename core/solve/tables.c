/* tables.c: the installed tablebase interface (tables.h) over store and probe. */
#include "tables.h"

#include <stdlib.h>

#include "index.h"
#include "probe.h"
#include "solve.h"

struct octad_tables {
    store_t *store;
};

octad_tables_t *octad_tables_open(const char *dir)
{
    octad_init();
    index_init();
    octad_tables_t *self = calloc(1, sizeof *self);
    if (self && !(self->store = store_new(dir))) {
        free(self);
        self = NULL;
    }
    return self;
}

void octad_tables_close(octad_tables_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    store_destroy(&(*self_p)->store);
    free(*self_p);
    *self_p = NULL;
}

int octad_tables_probe(octad_tables_t *self, const octad_pos_t *pos, octad_tb_value_t *out)
{
    probe_value_t v;
    if (probe_position(self->store, pos, &v) < 0)
        return -1;
    *out = (octad_tb_value_t){v.wdl, v.wdl0, v.dtz, v.dtm};
    return 0;
}

int octad_tables_moves(octad_tables_t *self, const octad_pos_t *pos, octad_move_t *moves, int *nbest)
{
    probe_move_t ranked[GAME_MOVES_MAX];
    int n = probe_moves(self->store, pos, ranked, nbest);
    for (int i = 0; i < n; i++)
        moves[i] = ranked[i].move;
    return n;
}

const char *octad_tables_error(octad_tables_t *self) { return store_error(self->store); }

const char *octad_tables_wdl_name(int wdl) { return rec_wdl_name(wdl); }

int octad_tables_generate(const char *dir, int max_pieces, int threads, char *err, size_t errlen)
{
    octad_init();
    solve_opts_t o = {.dir = dir, .max_pieces = max_pieces, .threads = threads > 0 ? threads : 1};
    gen_stats_t st = {0};
    if (solve_all(&o, &st, err, errlen) < 0)
        return -1;
    return solve_write_summary(dir, err, errlen);
}
