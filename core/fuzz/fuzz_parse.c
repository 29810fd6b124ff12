/* fuzz_parse.c: libFuzzer target for the position parsers (OFEN, FEN, X-FEN,
 * Shredder-FEN). The first byte picks the variant, the rest is the text. A
 * rejected text must come with a message; an accepted one must format to a
 * canonical text that parses back to the same position, and every legal move
 * must lead to a position that formats and parses back too. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void s_round_trip(const game_pos_t *pos)
{
    char text[GAME_TEXT_MAX], again_text[GAME_TEXT_MAX], err[256] = "";
    game_pos_t again;
    game_format(pos, text, sizeof text);
    if (game_parse(pos->variant, text, &again, err, sizeof err) != 0)
        abort(); /* what we write, we read */
    game_format(&again, again_text, sizeof again_text);
    if (strcmp(text, again_text) != 0)
        abort(); /* canonical: formatting is a fixed point */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static game_child_t kids[GAME_MOVES_MAX];
    char text[512], err[256] = "";
    game_pos_t pos;
    if (size < 1 || size > sizeof text)
        return 0;
    game_init();
    variant_t v = (variant_t)(data[0] % VARIANT_NB);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    if (game_parse(v, text, &pos, err, sizeof err) != 0) {
        if (err[0] == '\0')
            abort(); /* a rejection must say why */
        return 0;
    }
    s_round_trip(&pos);
    int n = game_children(&pos, kids);
    if (n < 0 || n > GAME_MOVES_MAX || (n == 0) != ((game_status(&pos) & (GAME_CHECKMATE | GAME_STALEMATE)) != 0))
        abort(); /* no moves exactly when mated or stalemated */
    for (int i = 0; i < n; i++)
        s_round_trip(&kids[i].child);
    return 0;
}
