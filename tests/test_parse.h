/* test_parse.h: test helper: a position from a FEN or OFEN, failing the
 * running cmocka test (naming the text and the parser's message) when it
 * does not parse. Include after <cmocka.h> and "engine.h" or "game.h". */
#pragma once

static inline game_pos_t test_parse(variant_t v, const char *text)
{
    game_pos_t pos;
    char err[256] = "";
    if (game_parse(v, text, &pos, err, sizeof err) != 0)
        fail_msg("parse '%s': %s", text, err);
    return pos;
}
