/* movegen.c: the legal move list (generator in gen.h: checkers and pins
 * computed once, never make-and-test except for en passant) and the status. */
#include "gen.h"
#include "octad.h"

/* A move list being filled. */
typedef struct {
    octad_move_t *moves;
    int n;
} movegen_list_t;

static inline void s_emit_list(void *ctx, const octad_pos_t *p, int us, int from, int to, int kind,
                               int piece)
{
    movegen_list_t *l = ctx;
    (void)p;
    (void)us;
    l->moves[l->n++] = octad_move_new(from, to, kind, piece);
}

/* The list of p, `us` to move. */
BB_INLINE int s_gen_list_as(const octad_pos_t *p, octad_move_t *moves, int us)
{
    legal_info_t li;
    movegen_list_t l = { moves, 0 };
    legal_info_compute_as(p, &li, us);
    gen_legal_as(p, &li, us, s_emit_list, &l);
    return l.n;
}

int octad_gen_legal(const octad_pos_t *pos, octad_move_t *moves)
{
    return pos->side == OCTAD_WHITE ? s_gen_list_as(pos, moves, OCTAD_WHITE)
                                    : s_gen_list_as(pos, moves, OCTAD_BLACK);
}

int octad_status(const octad_pos_t *pos)
{
    octad_move_t moves[GAME_MOVES_MAX];
    legal_info_t li;
    legal_info_compute(pos, &li);
    int n = octad_gen_legal(pos, moves);
    int flags = li.checkers ? OCTAD_IN_CHECK : 0;
    if (n == 0)
        flags |= li.checkers ? OCTAD_CHECKMATE : OCTAD_STALEMATE;
    return flags;
}
