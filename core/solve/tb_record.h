/* tb_record.h: the stored value of one position, 32 bits (docs/solver.md "Values").
 *
 * | bits  | field | meaning                                                    |
 * |-------|-------|------------------------------------------------------------|
 * | 0-2   | wdl   | REC_LOSS..REC_WIN below, for the side to move; 7 = invalid |
 * | 3-15  | dtz   | plies to the next zeroing move (pawn move, capture, change |
 * |       |       | of castling rights) or mate, in optimal play: under the    |
 * |       |       | 25-move rule for wins/losses, without it for cursed wins   |
 * |       |       | and blessed losses; 0 for draws and when mated              |
 * | 16-31 | dtm   | plies to mate in optimal play without the 25-move rule     |
 * |       |       | (0 when mated, 0 for draws)                                 |
 *
 * wdl is the value with the halfmove clock at 0: win / loss = won / lost
 * under the 25-move rule; cursed win / blessed loss = won / lost without the
 * rule but drawn with it. With clock h, a win or loss stands iff h + dtz <= 50. */
#pragma once

#include <stdint.h>

enum {
    REC_LOSS = 0,
    REC_BLESSED = 1, /* blessed loss */
    REC_DRAW = 2,
    REC_CURSED = 3,  /* cursed win */
    REC_WIN = 4,
    REC_INVALID = 7,
    REC_DTZ_MAX = 0x1FFF,
    REC_DTM_MAX = 0xFFFF,
    REC_RULE_PLIES = 50 /* the 25-move rule, in plies: the one place it is set */
};

typedef uint32_t rec_t;

static inline rec_t rec_make(int wdl, int dtz, int dtm)
{
    return (rec_t)wdl | ((rec_t)dtz << 3) | ((rec_t)dtm << 16);
}
static inline int rec_wdl(rec_t r) { return (int)(r & 7u); }
static inline int rec_dtz(rec_t r) { return (int)((r >> 3) & 0x1FFFu); }
static inline int rec_dtm(rec_t r) { return (int)(r >> 16); }

/* The value for the other side: win <-> loss, cursed <-> blessed. */
static inline int rec_wdl_negate(int wdl) { return wdl == REC_INVALID ? wdl : 4 - wdl; }

/* Name used in output and JSON: "win", "cursed-win", "draw", "blessed-loss", "loss". */
const char *rec_wdl_name(int wdl);

/* Sign of a value without the 25-move rule: +1 won, 0 drawn, -1 lost. */
static inline int rec_sign_inf(int wdl) { return wdl >= REC_CURSED ? 1 : wdl <= REC_BLESSED ? -1 : 0; }

/* Sign under the 25-move rule with halfmove clock h. */
static inline int rec_sign_rule(rec_t r, int h)
{
    int w = rec_wdl(r);
    if ((w == REC_WIN || w == REC_LOSS) && h + rec_dtz(r) <= REC_RULE_PLIES)
        return w == REC_WIN ? 1 : -1;
    return 0;
}
