/* eval_chess_params.h: the weights of the chess evaluation (eval_chess.c), in
 * centipawns, as one list: name and value. bench/texel_tune.c tunes them on
 * self-play positions and prints this list back (docs/engine-design.md, "Texel
 * tuning"). Names ending in _mg/_eg are middlegame/endgame halves; the
 * mobility baselines and the king-danger curve are not tuned. The
 * piece-square values are eval_chess_pst.h's table. Internal. */
#pragma once

#define EVAL_CHESS_PARAMS(X) \
    X(pawn_mg, 79) X(pawn_eg, 93) X(knight_mg, 396) X(knight_eg, 253) X(bishop_mg, 414) \
    X(bishop_eg, 289) X(rook_mg, 527) X(rook_eg, 537) X(queen_mg, 1173) X(queen_eg, 973) \
    X(mob_knight_mg, 8) X(mob_knight_eg, -3) X(mob_bishop_mg, 7) X(mob_bishop_eg, 2) \
    X(mob_rook_mg, 6) X(mob_rook_eg, 3) X(mob_queen_mg, 3) X(mob_queen_eg, -1) X(passed1_mg, 2) \
    X(passed1_eg, 28) X(passed2_mg, -11) X(passed2_eg, 23) X(passed3_mg, -14) X(passed3_eg, 28) \
    X(passed4_mg, 7) X(passed4_eg, 34) X(passed5_mg, 39) X(passed5_eg, 73) X(passed6_mg, 152) \
    X(passed6_eg, 98) X(doubled_mg, -10) X(doubled_eg, -18) X(isolated_mg, -14) \
    X(isolated_eg, -8) X(bishop_pair_mg, 27) X(bishop_pair_eg, 57) X(rook_open_mg, 54) \
    X(rook_open_eg, -8) X(rook_semi_mg, 21) X(rook_semi_eg, 19) X(rook_seventh_mg, 65) \
    X(rook_seventh_eg, 1) X(shield_mg, 13) X(exposed_mg, -27) X(tempo, 19) X(threat_pawn_mg, 54) \
    X(threat_pawn_eg, 32) X(threat_minor_mg, 46) X(threat_minor_eg, 20) X(threat_rook_mg, 53) \
    X(threat_rook_eg, 7) X(hanging_mg, 22) X(hanging_eg, 35) X(passer_king_eg, 11) \
    X(passer_free_eg, 25) X(outpost_knight_mg, 41) X(outpost_knight_eg, 8) \
    X(outpost_bishop_mg, 43) X(outpost_bishop_eg, 8)

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
#endif
