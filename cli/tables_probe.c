/* tables_probe.c: octad tables as the engine's oracle. */
#include "tables_probe.h"

bool tables_engine_probe(void *ctx, const octad_pos_t *pos, engine_wdl_t *wdl, int *plies)
{
    octad_tb_value_t v;
    if (octad_tables_probe(ctx, pos, &v) != 0)
        return false;
    *wdl = v.wdl == OCTAD_TB_WIN ? ENGINE_WDL_WIN : v.wdl == OCTAD_TB_LOSS ? ENGINE_WDL_LOSS : ENGINE_WDL_DRAW;
    *plies = *wdl == ENGINE_WDL_DRAW ? 0 : v.dtm;
    return true;
}
