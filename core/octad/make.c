/* make.c: the public copy-make entry point. */
#include "make.h"
#include "octad.h"

void octad_make(const octad_pos_t *pos, octad_move_t m, octad_pos_t *out)
{
    octad_pos_t tmp;
    make_move(pos, m, &tmp);
    *out = tmp;
}
