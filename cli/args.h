/* args.h: small command-line helpers shared by the octad subcommands. */
#pragma once

#include <stddef.h>

#include "exit_codes.h"
#include "game.h"
#include "opt.h"

/* Prints "octad <cmd>: <message>" on stderr (one line). */
void args_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The position options shared by the commands that take a position. */
typedef struct {
    variant_t variant;
    const char *text;     /* --ofen/--fen or positional; NULL: the start */
    long start;           /* --start N (Chess960), -1 if not given */
    const char *moves;    /* --moves "m1 m2 ...": UOI/UCI moves played from the position, or NULL */
    char start_buf[GAME_TEXT_MAX];
} args_pos_t;

/* Parses the chosen position into *out; 0, or -1 after printing the exact error. */
int args_pos_resolve(const char *cmd, args_pos_t *pos, game_pos_t *out);

/* The position options as option rows (core/base/opt.h) over an args_pos_t, for a
 * command whose options are a table (opt_spec_t.shared). */
enum { ARGS_POS_ROW_NB = 4 };
extern const opt_t ARGS_POS_ROWS[ARGS_POS_ROW_NB];

/* In an opt_spec_t: the position rows, over the member `pos` of the options struct `type`. */
#define ARGS_POS_SHARED(type) .shared = ARGS_POS_ROWS, .shared_nb = ARGS_POS_ROW_NB, .shared_off = offsetof(type, pos)

/* A command's plain argument as its one position (opt_spec_t.plain): base is the
 * args_pos_t (the first member of the command's options). A second one is an error. */
int args_pos_plain(const char *arg, void *base, char *err, size_t errlen);
