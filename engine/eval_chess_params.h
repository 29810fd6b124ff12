/* eval_chess_params.h: the weights of the chess evaluation (eval_chess.c), in
 * centipawns, as one list: name and value. bench/texel_tune.c tunes them on
 * self-play positions and prints this list back (docs/engine-design.md, "Texel
 * tuning"). Names ending in _mg/_eg are middlegame/endgame halves; the
 * constant offsets (_off) and the mobility baselines are not tuned (they only
 * shift a piece's value, which its material weight already does). Internal. */
#pragma once

#define EVAL_CHESS_PARAMS(X)                                                                          \
    X(pawn_mg, 85) X(pawn_eg, 110) X(knight_mg, 320) X(knight_eg, 300) X(bishop_mg, 335)             \
    X(bishop_eg, 315) X(rook_mg, 470) X(rook_eg, 530) X(queen_mg, 960) X(queen_eg, 1000)            \
    X(pawn_adv_mg, 3) X(pawn_centre_mg, 12) X(pawn_adv_eg, 8)                                        \
    X(knight_centre_mg, 10) X(knight_off_mg, -15) X(knight_centre_eg, 8) X(knight_off_eg, -12)       \
    X(bishop_centre_mg, 5) X(bishop_off_mg, -5) X(bishop_centre_eg, 5) X(bishop_off_eg, -7)          \
    X(rook_file_mg, 5) X(queen_centre_mg, 2) X(queen_off_mg, -3) X(queen_centre_eg, 6)               \
    X(queen_off_eg, -9) X(king_wing_mg, 20) X(king_rank_mg, -15) X(king_centre_eg, 14)               \
    X(king_off_eg, -20)                                                                              \
    X(mob_knight_mg, 4) X(mob_knight_eg, 4) X(mob_bishop_mg, 5) X(mob_bishop_eg, 5)                  \
    X(mob_rook_mg, 2) X(mob_rook_eg, 4) X(mob_queen_mg, 1) X(mob_queen_eg, 2)                        \
    X(passed1_mg, 5) X(passed1_eg, 10) X(passed2_mg, 8) X(passed2_eg, 15) X(passed3_mg, 15)          \
    X(passed3_eg, 35) X(passed4_mg, 30) X(passed4_eg, 60) X(passed5_mg, 55) X(passed5_eg, 105)       \
    X(passed6_mg, 90) X(passed6_eg, 160)                                                             \
    X(doubled_mg, -10) X(doubled_eg, -20) X(isolated_mg, -10) X(isolated_eg, -15)                    \
    X(bishop_pair_mg, 30) X(bishop_pair_eg, 50) X(rook_open_mg, 25) X(rook_open_eg, 10)              \
    X(rook_semi_mg, 12) X(rook_semi_eg, 6) X(rook_seventh_mg, 15) X(rook_seventh_eg, 25)             \
    X(shield_mg, 12) X(exposed_mg, -20) X(tempo, 12)                                                 \
    X(threat_pawn_mg, 55) X(threat_pawn_eg, 35) X(threat_minor_mg, 35) X(threat_minor_eg, 25)         \
    X(threat_rook_mg, 35) X(threat_rook_eg, 20) X(hanging_mg, 25) X(hanging_eg, 15)                  \
    X(passer_king_eg, 5) X(passer_free_eg, 12) X(outpost_knight_mg, 25) X(outpost_knight_eg, 15)     \
    X(outpost_bishop_mg, 12) X(outpost_bishop_eg, 6)

#define EVAL_CHESS_INDEX(name, value) EP_##name,
enum { EVAL_CHESS_PARAMS(EVAL_CHESS_INDEX) EVAL_CHESS_NPARAMS };
#undef EVAL_CHESS_INDEX

/* The weights, indexed by EP_name. Constant in the engine; the tuner builds
 * eval_chess.c with EVAL_CHESS_TUNABLE to change them between evaluations. */
#ifdef EVAL_CHESS_TUNABLE
extern int eval_chess_w[EVAL_CHESS_NPARAMS];
extern const char *const eval_chess_names[EVAL_CHESS_NPARAMS];
#endif
