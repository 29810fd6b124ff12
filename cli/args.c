/* args.c: small command-line helpers shared by the octad subcommands. */
#include "args.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "opt.h"
#include "variant_opt.h"

#define P(field) OPT_AT(args_pos_t, field)
const opt_t ARGS_POS_ROWS[ARGS_POS_ROW_NB] = {
    {"--variant", 0, OPT_CUSTOM, "V", P(variant), "octad (default), chess or chess960", .parse = variant_opt_parse},
    {"--ofen", 0, OPT_STRING, "TEXT", P(text), "the position (OFEN for octad, FEN for chess)", .alias = "--fen"},
    {"--start", 0, OPT_INT, "N", P(start), "chess960 only: start position N (0-959, 518 = classical)", .lo = 0,
     .hi = 959},
    {"--moves", 0, OPT_STRING, "\"M...\"", P(moves),
     "then play these moves (UOI, UCI for chess; castles as king + partner square)"},
};
#undef P

int args_pos_plain(const char *arg, void *base, char *err, size_t errlen)
{
    args_pos_t *pos = base;
    if (pos->text != NULL)
        return err_printf(err, errlen, "one position only (quote the OFEN/FEN: it contains spaces)");
    pos->text = arg;
    return 0;
}

void args_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "octad %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* Plays the space-separated moves of `list` on *pos, one after another. */
static int s_play_moves(const char *cmd, const char *list, game_pos_t *pos)
{
    char move[MOVE_TEXT_MAX], err[256];
    int ply = 0;
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, " \t");
        if (n == 0) {
            p++;
            continue;
        }
        ply++;
        if (n >= sizeof move) {
            args_error(cmd, "--moves: move %d '%.20s...' is too long", ply, p);
            return -1;
        }
        memcpy(move, p, n);
        move[n] = '\0';
        game_pos_t next;
        if (game_play(pos, move, &next, err, sizeof err) != 0) {
            args_error(cmd, "--moves: move %d: %s", ply, err);
            return -1;
        }
        *pos = next;
        p += n;
    }
    return 0;
}

int args_pos_resolve(const char *cmd, args_pos_t *pos, game_pos_t *out)
{
    char err[256];
    const char *text = pos->text;
    if (pos->start >= 0) {
        if (pos->variant != VARIANT_CHESS960) {
            args_error(cmd, "--start: only for --variant chess960");
            return -1;
        }
        if (text != NULL) {
            args_error(cmd, "--start and --fen: give one position, not both");
            return -1;
        }
        chess960_start_fen((int)pos->start, pos->start_buf, sizeof pos->start_buf);
        text = pos->start_buf;
    }
    if (text == NULL && pos->variant == VARIANT_CHESS960) {
        args_error(cmd, "chess960 needs a position: --fen FEN or --start N (518 = classical)");
        return -1;
    }
    if (text == NULL)
        text = game_start_text(pos->variant);
    if (game_parse(pos->variant, text, out, err, sizeof err) != 0) {
        const char *kind = pos->variant == VARIANT_OCTAD ? "OFEN" : "FEN";
        size_t n = strlen(kind);
        bool named = strncmp(err, kind, n) == 0 && err[n] == ':'; /* the parser said it already */
        args_error(cmd, "%s%s%s", named ? "" : kind, named ? "" : ": ", err);
        return -1;
    }
    return pos->moves ? s_play_moves(cmd, pos->moves, out) : 0;
}
