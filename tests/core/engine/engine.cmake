# tests/engine.cmake: the engine (engine/): search outcomes, UCI transcripts, real UCI clients.
octad_add_unit_test(test_engine_octad LIBS octad_engine TIMEOUT 120)
octad_add_unit_test(test_engine_chess LIBS octad_engine TIMEOUT 120)
octad_add_unit_test(test_engine_see LIBS octad_engine LABELS engine)
octad_add_unit_test(test_engine_eval LIBS octad_engine LABELS engine)
octad_add_unit_test(test_engine_timeman LIBS octad_engine LABELS engine)
octad_add_unit_test(test_engine_evcache LIBS octad_engine LABELS engine)
octad_add_unit_test(test_engine_bigmem LIBS octad_engine LABELS engine)
octad_add_unit_test(test_engine_order LIBS octad_engine LABELS engine)
find_package(Python3 COMPONENTS Interpreter)
# Under the sanitizers the engine is several times slower: the mates case skips mates in 4.
set(_engine_uci_extra "")
if(OCTAD_SANITIZE)
  set(_engine_uci_extra --max-mate 3)
endif()
if(TARGET octad AND Python3_FOUND)
  foreach(case transcript garbage perft variants mates polyglot tables smp)
    add_test(NAME test_engine_uci_${case}
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/test_engine_uci.py ${case}
                     --octad $<TARGET_FILE:octad> --data ${OCTAD_TEST_DATA} ${_engine_uci_extra})
    set_tests_properties(test_engine_uci_${case} PROPERTIES LABELS engine TIMEOUT 300)
  endforeach()
  add_test(NAME test_engine_uci_mates_threads2
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/test_engine_uci.py mates --threads 2
                   --octad $<TARGET_FILE:octad> --data ${OCTAD_TEST_DATA} ${_engine_uci_extra})
  set_tests_properties(test_engine_uci_mates_threads2 PROPERTIES LABELS engine TIMEOUT 300)
endif()
if(TARGET octad)
  add_test(NAME test_engine_cli COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_engine_cli.sh $<TARGET_FILE:octad>)
  set_tests_properties(test_engine_cli PROPERTIES LABELS "engine;cli")
endif()
# 100 Chess960 self-play games, every move checked by chessops (about 25 s; several
# times that under the sanitizers, where it is a slow test).
if(TARGET octad)
  add_test(NAME test_chess960_selfplay COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_chess960_selfplay.sh
           $<TARGET_FILE:octad> ${CMAKE_SOURCE_DIR}/tools/chess960_oracle.mjs)
  if(OCTAD_SANITIZE)
    set_tests_properties(test_chess960_selfplay PROPERTIES LABELS "engine;slow" SKIP_RETURN_CODE 77 TIMEOUT 600)
  else()
    set_tests_properties(test_chess960_selfplay PROPERTIES LABELS engine SKIP_RETURN_CODE 77 TIMEOUT 600)
  endif()
endif()
# The Texel tuner prints back exactly the weights it was built with (a few seconds).
if(TARGET bench_texel_tune AND TARGET bench_texel_games)
  add_test(NAME test_texel_tune COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_texel_tune.sh
           $<TARGET_FILE:bench_texel_games> $<TARGET_FILE:bench_texel_tune> ${CMAKE_SOURCE_DIR}/engine)
  set_tests_properties(test_texel_tune PROPERTIES LABELS engine TIMEOUT 120)
endif()
# Stockfish's labels for Texel positions (bench/sf_label.py): signs, mates, resume, shards, bad input.
add_test(NAME test_sf_label COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_sf_label.sh ${CMAKE_SOURCE_DIR}/bench/sf_label.py)
set_tests_properties(test_sf_label PROPERTIES LABELS engine SKIP_RETURN_CODE 77 TIMEOUT 120)
# The match journal's summary (bench/match_report.mjs): a hand-made journal, bad input.
add_test(NAME test_match_report COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_match_report.sh
         ${CMAKE_SOURCE_DIR}/bench/match_report.mjs)
set_tests_properties(test_match_report PROPERTIES LABELS engine SKIP_RETURN_CODE 77 TIMEOUT 60)
