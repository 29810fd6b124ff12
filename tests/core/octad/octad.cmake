# octad: the 4x4 rules engine (core/octad): OFEN, moves and notation, perft.
# test_octad_perft takes: start depth, suite depth, stats depth (the quick run
# takes ~0.3 s in Release and ~2.5 s in the Debug ASan/UBSan build).
octad_add_unit_test(test_octad_ofen LIBS octad_rules)
octad_add_unit_test(test_octad_moves LIBS octad_rules)
octad_add_unit_test(test_octad_perft LIBS octad_rules ARGS 8 5 7)
octad_add_unit_test(test_octad_perft_slow EXE test_octad_perft LIBS octad_rules ARGS 11 6 8
                    LABELS slow TIMEOUT 1800)
