# game: the game layer (record/, play/): SAN in, records and draw rules, PGN, players, the commands.
octad_add_unit_test(test_san LIBS octad_record)
octad_add_unit_test(test_record LIBS octad_record)
octad_add_unit_test(test_pgn LIBS octad_record)
