/* tables_probe.c: octad tables as the engine's oracle. */
#include "tables_probe.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

bool tables_engine_probe(void *ctx, const octad_pos_t *pos, engine_wdl_t *wdl, int *plies)
{
    octad_tb_value_t v;
    if (octad_tables_probe(ctx, pos, &v) != 0)
        return false;
    *wdl = v.wdl == OCTAD_TB_WIN ? ENGINE_WDL_WIN : v.wdl == OCTAD_TB_LOSS ? ENGINE_WDL_LOSS : ENGINE_WDL_DRAW;
    *plies = *wdl == ENGINE_WDL_DRAW ? 0 : v.dtm;
    return true;
}

static void *s_open(const char *dir, char *err, size_t errlen)
{
    struct stat st;
    if (stat(dir, &st) != 0) {
        snprintf(err, errlen, "%.200s: %s", dir, strerror(errno));
        return NULL;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%.200s: not a directory", dir);
        return NULL;
    }
    octad_tables_t *t = octad_tables_open(dir);
    if (t == NULL)
        snprintf(err, errlen, "%.200s: out of memory", dir);
    return t;
}

static void s_close(void *ctx)
{
    octad_tables_t *t = ctx;
    octad_tables_close(&t);
}

const uci_tables_t tables_uci = { .open = s_open, .close = s_close, .probe = tables_engine_probe };
