/* game.c: dispatch of the variant interface (game.h) to each variant's rules. */
#include "game.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct game_tt {
    variant_t variant;
    union {
        octad_tt_t *octad;
        chess_tt_t *chess;
    } u;
};

static const char *const s_names[VARIANT_NB] = {"octad", "chess", "chess960"};
static pthread_once_t s_once[VARIANT_NB] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT};

/* Builds the tables of one variant's rules, once; chess and Chess960 share them. */
static void s_init_variant(variant_t v)
{
    if (v == VARIANT_OCTAD)
        pthread_once(&s_once[VARIANT_OCTAD], octad_init);
    else
        pthread_once(&s_once[VARIANT_CHESS], chess_init);
}

void game_init(void)
{
    s_init_variant(VARIANT_OCTAD);
    s_init_variant(VARIANT_CHESS);
}

const char *game_variant_name(variant_t v)
{
    return (unsigned)v < VARIANT_NB ? s_names[v] : "unknown";
}

int game_variant_parse(const char *name, variant_t *out)
{
    for (int v = 0; v < VARIANT_NB; v++)
        if (name != NULL && strcmp(name, s_names[v]) == 0) {
            *out = (variant_t)v;
            return 0;
        }
    return -1;
}

const char *game_start_text(variant_t v)
{
    return v == VARIANT_OCTAD ? OCTAD_START_OFEN : CHESS_START_FEN;
}

int game_parse(variant_t v, const char *text, game_pos_t *out, char *err, size_t errlen)
{
    char dummy[1];
    if (err == NULL || errlen == 0) {
        err = dummy;
        errlen = sizeof dummy;
    }
    if (text == NULL) {
        snprintf(err, errlen, "position: missing");
        return -1;
    }
    memset(out, 0, sizeof *out);
    out->variant = v;
    if ((unsigned)v < VARIANT_NB)
        s_init_variant(v); /* every position starts here, so its tables are ready */
    switch (v) {
    case VARIANT_OCTAD:
        return octad_parse(text, &out->u.octad, err, errlen);
    case VARIANT_CHESS:
    case VARIANT_CHESS960:
        return chess_parse(v, text, &out->u.chess, err, errlen);
    default:
        snprintf(err, errlen, "variant: unknown");
        return -1;
    }
}

void game_format(const game_pos_t *pos, char *buf, size_t len)
{
    if (pos->variant == VARIANT_OCTAD)
        octad_format(&pos->u.octad, buf, len);
    else
        chess_format(&pos->u.chess, buf, len);
}

void game_format_key(const game_pos_t *pos, char *buf, size_t len)
{
    if (pos->variant == VARIANT_OCTAD)
        octad_format_key(&pos->u.octad, buf, len);
    else
        chess_format_key(&pos->u.chess, buf, len);
}

static int s_octad_children(const game_pos_t *pos, game_child_t *out)
{
    octad_move_t moves[GAME_MOVES_MAX];
    int n = octad_gen_legal(&pos->u.octad, moves);
    for (int i = 0; i < n; i++) {
        octad_move_uoi(&pos->u.octad, moves[i], out[i].uoi);
        octad_move_san(&pos->u.octad, moves[i], out[i].san);
        out[i].child.variant = pos->variant;
        octad_make(&pos->u.octad, moves[i], &out[i].child.u.octad);
    }
    return n;
}

static int s_chess_children(const game_pos_t *pos, game_child_t *out)
{
    chess_move_t moves[GAME_MOVES_MAX];
    int n = chess_gen_legal(&pos->u.chess, moves);
    for (int i = 0; i < n; i++) {
        chess_move_uci(&pos->u.chess, moves[i], out[i].uoi);
        chess_move_san(&pos->u.chess, moves[i], out[i].san);
        out[i].child.variant = pos->variant;
        chess_make(&pos->u.chess, moves[i], &out[i].child.u.chess);
    }
    return n;
}

int game_children(const game_pos_t *pos, game_child_t *out)
{
    return pos->variant == VARIANT_OCTAD ? s_octad_children(pos, out)
                                         : s_chess_children(pos, out);
}

int game_count_moves(const game_pos_t *pos)
{
    if (pos->variant == VARIANT_OCTAD) {
        octad_move_t moves[GAME_MOVES_MAX];
        return octad_gen_legal(&pos->u.octad, moves);
    }
    chess_move_t moves[GAME_MOVES_MAX];
    return chess_gen_legal(&pos->u.chess, moves);
}

int game_status(const game_pos_t *pos)
{
    return pos->variant == VARIANT_OCTAD ? octad_status(&pos->u.octad)
                                         : chess_status(&pos->u.chess);
}

bool game_insufficient_material(const game_pos_t *pos)
{
    return pos->variant == VARIANT_OCTAD ? octad_insufficient_material(&pos->u.octad)
                                         : chess_insufficient_material(&pos->u.chess);
}

void game_draw(const game_pos_t *pos, char *buf, size_t len)
{
    if (pos->variant == VARIANT_OCTAD)
        octad_draw(&pos->u.octad, buf, len);
    else
        chess_draw(&pos->u.chess, buf, len);
}

int game_play(const game_pos_t *pos, const char *uoi, game_pos_t *out, char *err, size_t errlen)
{
    game_child_t *children = malloc(sizeof *children * GAME_MOVES_MAX);
    int n, found = -1;
    if (children == NULL) {
        snprintf(err, errlen, "move: out of memory");
        return -1;
    }
    n = game_children(pos, children);
    for (int i = 0; i < n && found < 0; i++)
        if (strcmp(children[i].uoi, uoi) == 0)
            found = i;
    if (found >= 0)
        *out = children[found].child;
    else
        snprintf(err, errlen, "move '%.16s': not a legal move in this position", uoi);
    free(children);
    return found >= 0 ? 0 : -1;
}

count_t game_perft(const game_pos_t *pos, int depth, game_tt_t *tt)
{
    if (pos->variant == VARIANT_OCTAD)
        return octad_perft(&pos->u.octad, depth, tt ? tt->u.octad : NULL);
    return chess_perft(&pos->u.chess, depth, tt ? tt->u.chess : NULL);
}

void game_perft_stats(const game_pos_t *pos, int depth, perft_stats_t *out)
{
    if (pos->variant == VARIANT_OCTAD)
        octad_perft_stats(&pos->u.octad, depth, out);
    else
        chess_perft_stats(&pos->u.chess, depth, out);
}

game_tt_t *game_tt_new(variant_t v, size_t bytes)
{
    game_tt_t *self = calloc(1, sizeof *self);
    if (self == NULL)
        return NULL;
    self->variant = v;
    bool ok;
    if (v == VARIANT_OCTAD)
        ok = (self->u.octad = octad_tt_new(bytes)) != NULL;
    else
        ok = (self->u.chess = chess_tt_new(bytes)) != NULL;
    if (!ok) {
        free(self);
        return NULL;
    }
    return self;
}

bool game_tt_shareable(variant_t v)
{
    return v == VARIANT_OCTAD && octad_tt_shareable();
}

void game_tt_destroy(game_tt_t **self_p)
{
    if (self_p == NULL || *self_p == NULL)
        return;
    game_tt_t *self = *self_p;
    if (self->variant == VARIANT_OCTAD)
        octad_tt_destroy(&self->u.octad);
    else
        chess_tt_destroy(&self->u.chess);
    free(self);
    *self_p = NULL;
}
