/* eval_chess_params.h: the weights of the chess evaluation (eval_chess.c), in
 * centipawns, as one list: name and value. bench/texel_tune.c tunes them on
 * self-play positions and prints this list back (docs/engine-design.md, "Texel
 * tuning"). Names ending in _mg/_eg are middlegame/endgame halves; the
 * mobility baselines and the king-danger curve are not tuned. The
 * piece-square values are eval_chess_pst.h's table. Internal. */
#pragma once

#define EVAL_CHESS_PARAMS(X) \
    X(pawn_mg, 81) X(pawn_eg, 91) X(knight_mg, 377) X(knight_eg, 271) X(bishop_mg, 392) \
    X(bishop_eg, 310) X(rook_mg, 488) X(rook_eg, 572) X(queen_mg, 1050) X(queen_eg, 1081) \
    X(mob_knight_mg, 10) X(mob_knight_eg, -6) X(mob_bishop_mg, 6) X(mob_bishop_eg, 2) \
    X(mob_rook_mg, 6) X(mob_rook_eg, 4) X(mob_queen_mg, 3) X(mob_queen_eg, 1) X(passed1_mg, 2) \
    X(passed1_eg, 33) X(passed2_mg, -4) X(passed2_eg, 22) X(passed3_mg, -9) X(passed3_eg, 32) \
    X(passed4_mg, 3) X(passed4_eg, 50) X(passed5_mg, 39) X(passed5_eg, 109) X(passed6_mg, 159) \
    X(passed6_eg, 129) X(doubled_mg, -6) X(doubled_eg, -40) X(isolated_mg, -15) \
    X(isolated_eg, -8) X(bishop_pair_mg, 33) X(bishop_pair_eg, 77) X(rook_open_mg, 49) \
    X(rook_open_eg, 3) X(rook_semi_mg, 15) X(rook_semi_eg, 23) X(rook_seventh_mg, 50) \
    X(rook_seventh_eg, 12) X(shield_mg, 10) X(exposed_mg, -8) X(tempo, 15) X(threat_pawn_mg, 58) \
    X(threat_pawn_eg, 28) X(threat_minor_mg, 46) X(threat_minor_eg, 24) X(threat_rook_mg, 71) \
    X(threat_rook_eg, -61) X(hanging_mg, 23) X(hanging_eg, 32) X(passer_king_eg, 11) \
    X(passer_free_eg, 21) X(outpost_knight_mg, 44) X(outpost_knight_eg, 15) \
    X(outpost_bishop_mg, 34) X(outpost_bishop_eg, 10)

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
