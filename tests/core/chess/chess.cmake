# tests/chess.cmake: the chess and Chess960 rules (core/chess).
# Quick runs use perft depth 5 (chess) and 4 (Chess960); `slow` 6 and 5.
# Under the sanitizers the quick suites drop to 4 and 3 so CI stays quick.
if(OCTAD_SANITIZE)
  set(CHESS_QUICK_DEPTHS 4 3)
else()
  set(CHESS_QUICK_DEPTHS 5 4)
endif()
octad_add_unit_test(test_chess_perft LIBS chess_rules ARGS ${CHESS_QUICK_DEPTHS})
octad_add_unit_test(test_chess_perft_magic EXE test_chess_perft LIBS chess_rules ARGS 4 3 magic)
octad_add_unit_test(test_chess_perft_slow EXE test_chess_perft LIBS chess_rules ARGS 6 5
                    LABELS slow TIMEOUT 3600)
octad_add_unit_test(test_chess_fen LIBS chess_rules)
octad_add_unit_test(test_chess_moves LIBS chess_rules)
octad_add_unit_test(test_chess_960 LIBS chess_rules)
octad_add_unit_test(test_chess_hash LIBS chess_rules)
