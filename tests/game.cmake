# game: the game layer (record/, play/): SAN in, records and draw rules, PGN, players, the commands.
octad_add_unit_test(test_san LIBS octad_record)
octad_add_unit_test(test_record LIBS octad_record)
octad_add_unit_test(test_pgn LIBS octad_record)
if(TARGET octad)
  add_test(NAME test_game_cli COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_game_cli.sh $<TARGET_FILE:octad> ${OCTAD_TEST_DATA})
  set_tests_properties(test_game_cli PROPERTIES LABELS cli TIMEOUT 120)
endif()
if(TARGET octad)
  add_test(NAME test_pgn_realworld COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_pgn_realworld.sh $<TARGET_FILE:octad>
           ${CMAKE_SOURCE_DIR}/tools/pgn_oracle.mjs)
  set_tests_properties(test_pgn_realworld PROPERTIES LABELS cli SKIP_RETURN_CODE 77 TIMEOUT 120)
endif()
