/* perft5.c: a program of a liboctad user (docs/library.md), built by tests/test_install.sh
 * against the installed headers and library: prints octad's start perft(5). */
#include <stdio.h>
#include <octad/count.h>
#include <octad/game.h>

int main(void)
{
    game_pos_t pos;
    char err[128], n[COUNT_TEXT_MAX];
    if (game_parse(VARIANT_OCTAD, game_start_text(VARIANT_OCTAD), &pos, err, sizeof err) != 0)
        return 1;
    printf("perft(5) = %s\n", count_format(game_perft(&pos, 5, NULL), n));
    return 0;
}
