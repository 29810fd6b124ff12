/* eval_chess_params.h: the weights of the chess evaluation (eval_chess.c), in
 * centipawns, as one list: name and value. tools/bench/texel_tune.c tunes them on
 * self-play positions and prints this list back (docs/engine-design.md, "Texel
 * tuning"). Names ending in _mg/_eg are middlegame/endgame halves. The
 * mobility values and the king-danger curve are the tables below, the
 * piece-square values eval_chess_pst.h's table. Internal. */
#pragma once

#define EVAL_CHESS_PARAMS(X) \
    X(pawn_mg, 79) X(pawn_eg, 93) X(knight_mg, 396) X(knight_eg, 253) X(bishop_mg, 414) \
    X(bishop_eg, 289) X(rook_mg, 527) X(rook_eg, 537) X(queen_mg, 1173) X(queen_eg, 973) \
    X(passed1_mg, 2) X(passed1_eg, 28) X(passed2_mg, -11) X(passed2_eg, 23) X(passed3_mg, -14) \
    X(passed3_eg, 28) X(passed4_mg, 7) X(passed4_eg, 34) X(passed5_mg, 39) X(passed5_eg, 73) \
    X(passed6_mg, 152) X(passed6_eg, 98) X(doubled_mg, -10) X(doubled_eg, -18) \
    X(isolated_mg, -14) X(isolated_eg, -8) X(bishop_pair_mg, 27) X(bishop_pair_eg, 57) \
    X(rook_open_mg, 54) X(rook_open_eg, -8) X(rook_semi_mg, 21) X(rook_semi_eg, 19) \
    X(rook_seventh_mg, 65) X(rook_seventh_eg, 1) X(shield_mg, 13) X(exposed_mg, -27) \
    X(tempo, 19) X(threat_pawn_mg, 54) X(threat_pawn_eg, 32) X(threat_minor_mg, 46) \
    X(threat_minor_eg, 20) X(threat_rook_mg, 53) X(threat_rook_eg, 7) X(hanging_mg, 22) \
    X(hanging_eg, 35) X(passer_king_eg, 11) X(passer_free_eg, 25) X(outpost_knight_mg, 41) \
    X(outpost_knight_eg, 8) X(outpost_bishop_mg, 43) X(outpost_bishop_eg, 8) \
    X(storm_near_mg, -28) X(storm_far_mg, -15) X(king_open_mg, -18)

/* Mobility: the value of a knight, bishop, rook or queen that attacks n squares
 * not held by its own side nor attacked by enemy pawns, [phase][piece - 1][min(n,
 * 27)]. It began linear in n (a weight per square above a typical count, the
 * same for all n); the tuner tunes every entry. Counts a piece cannot reach
 * (a knight's above 8, a bishop's above 13, a rook's above 14) are never read. */
enum { EVAL_CHESS_MOB_N = 28 };
#define EVAL_CHESS_MOBILITY { \
    { /* middlegame */ \
        { /* knight, 0..27 squares */ \
            -32, -24, -16,  -8,   0,   8,  16,  24,  32,   0,   0,   0,   0,   0, \
              0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0, \
        }, \
        { /* bishop, 0..27 squares */ \
            -42, -35, -28, -21, -14,  -7,   0,   7,  14,  21,  28,  35,  42,  49, \
              0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0, \
        }, \
        { /* rook, 0..27 squares */ \
            -42, -36, -30, -24, -18, -12,  -6,   0,   6,  12,  18,  24,  30,  36, \
             42,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0, \
        }, \
        { /* queen, 0..27 squares */ \
            -39, -36, -33, -30, -27, -24, -21, -18, -15, -12,  -9,  -6,  -3,   0, \
              3,   6,   9,  12,  15,  18,  21,  24,  27,  30,  33,  36,  39,  42, \
        }, \
    }, \
    { /* endgame */ \
        { /* knight, 0..27 squares */ \
             12,   9,   6,   3,   0,  -3,  -6,  -9, -12,   0,   0,   0,   0,   0, \
              0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0, \
        }, \
        { /* bishop, 0..27 squares */ \
            -12, -10,  -8,  -6,  -4,  -2,   0,   2,   4,   6,   8,  10,  12,  14, \
              0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0, \
        }, \
        { /* rook, 0..27 squares */ \
            -21, -18, -15, -12,  -9,  -6,  -3,   0,   3,   6,   9,  12,  15,  18, \
             21,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0, \
        }, \
        { /* queen, 0..27 squares */ \
             13,  12,  11,  10,   9,   8,   7,   6,   5,   4,   3,   2,   1,   0, \
             -1,  -2,  -3,  -4,  -5,  -6,  -7,  -8,  -9, -10, -11, -12, -13, -14, \
        }, \
    }, \
}

/* The king-danger curve: the middlegame penalty of a king whose ring the enemy
 * attacks with u attack units (S_KING_ATTACK per attacked ring square: minor 2,
 * rook 3, queen 5), [attacker has a queen][min(u, 63)]. It began as
 * min(u * u / 2, 400), a third of that without a queen; the tuner tunes it
 * (the evaluation is linear in each entry). */
enum { EVAL_CHESS_KD_N = 64 };
#define EVAL_CHESS_KING_DANGER { \
    { /* attacker without a queen, 0..63 attack units */ \
           0,   0,   0,   1,   2,   4,   6,   8,  10,  13,  16,  20,  24,  28,  32,  37, \
          42,  48,  54,  60,  66,  73,  80,  88,  96, 104, 112, 121, 130, 140, 150, 160, \
         170, 181, 192, 204, 216, 228, 240, 253, 266, 280, 294, 308, 322, 337, 352, 368, \
         384, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, \
    }, \
    { /* attacker with a queen, 0..63 attack units */ \
           0,   0,   2,   4,   8,  12,  18,  24,  32,  40,  50,  60,  72,  84,  98, 112, \
         128, 144, 162, 180, 200, 220, 242, 264, 288, 312, 338, 364, 392, 400, 400, 400, \
         400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, \
         400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, \
    }, \
}

#define EVAL_CHESS_INDEX(name, value) EP_##name,
enum { EVAL_CHESS_PARAMS(EVAL_CHESS_INDEX) EVAL_CHESS_NPARAMS };
#undef EVAL_CHESS_INDEX

/* The weights, indexed by EP_name, and the piece-square values
 * (eval_chess_pst.h), [phase][piece type][square from the piece's side].
 * Constant in the engine; the tuner builds eval_chess.c with
 * EVAL_CHESS_TUNABLE to change them between evaluations. */
#ifdef EVAL_CHESS_TUNABLE
extern int eval_chess_w[EVAL_CHESS_NPARAMS];
extern const char *const eval_chess_names[EVAL_CHESS_NPARAMS];
extern int eval_chess_pst[2][6][64];
extern int eval_chess_mob[2][4][EVAL_CHESS_MOB_N];
extern int eval_chess_kd[2][EVAL_CHESS_KD_N];
/* The table entries the last evaluation read (the tuner measures only those):
 * king danger [queen][units] as queen * EVAL_CHESS_KD_N + units, then
 * mobility [piece - 1][n] (both phases) as EVAL_CHESS_USED_MOB +
 * (piece - 1) * EVAL_CHESS_MOB_N + n. */
enum { EVAL_CHESS_USED_MOB = 2 * EVAL_CHESS_KD_N, EVAL_CHESS_USED_MAX = 40 };
extern int eval_chess_used[EVAL_CHESS_USED_MAX];
extern int eval_chess_nused;
#endif
