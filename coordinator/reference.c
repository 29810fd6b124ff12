/* reference.c: the table of published perft totals (see reference.h). */
#include "reference.h"

#include <string.h>

#include "count.h"

typedef struct {
    variant_t variant;
    const char *text;          /* NULL: the variant's start position */
    int depth_nb;
    const char *nodes[12];     /* depth 1.. */
} s_ref_t;

static const s_ref_t s_refs[] = {
    {VARIANT_OCTAD, NULL, 11,
     {"10", "84", "642", "4375", "29309", "183931", "1153190", "6924175", "41899653", "246876713",
      "1465308554"}},
    {VARIANT_CHESS, NULL, 9,
     {"20", "400", "8902", "197281", "4865609", "119060324", "3195901860", "84998978956",
      "2439530234167"}},
    {VARIANT_CHESS960, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 9,
     {"20", "400", "8902", "197281", "4865609", "119060324", "3195901860", "84998978956",
      "2439530234167"}},
    {VARIANT_CHESS, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 6,
     {"48", "2039", "97862", "4085603", "193690690", "8031647685"}},
};

bool reference_lookup(const game_pos_t *pos, int depth, count_t *out)
{
    char want[GAME_TEXT_MAX], have[GAME_TEXT_MAX];
    game_format_key(pos, have, sizeof have);
    for (size_t i = 0; i < sizeof s_refs / sizeof s_refs[0]; i++) {
        const s_ref_t *r = &s_refs[i];
        game_pos_t ref;
        if (r->variant != pos->variant || depth < 1 || depth > r->depth_nb)
            continue;
        const char *text = r->text ? r->text : game_start_text(r->variant);
        if (game_parse(r->variant, text, &ref, NULL, 0) != 0)
            continue;
        game_format_key(&ref, want, sizeof want);
        if (strcmp(want, have) == 0)
            return count_parse(r->nodes[depth - 1], out) == 0;
    }
    return false;
}
