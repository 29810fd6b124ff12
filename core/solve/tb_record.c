/* tb_record.c: names of stored values. */
#include "tb_record.h"

const char *rec_wdl_name(int wdl)
{
    static const char *const NAMES[8] = {"loss", "blessed-loss", "draw", "cursed-win", "win", "?", "?", "invalid"};
    return NAMES[wdl & 7];
}
