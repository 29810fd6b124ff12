# core: the generic layer (counts, suites, split, multi-threaded perft) and the octad command.
octad_add_unit_test(test_count LIBS core_base)
octad_add_unit_test(test_perft_run)
octad_add_unit_test(test_perft_run_slow EXE test_perft_run ARGS slow LABELS slow TIMEOUT 1800)
if(TARGET octad)
  add_test(NAME test_cli COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_cli.sh $<TARGET_FILE:octad>)
  set_tests_properties(test_cli PROPERTIES LABELS cli)
endif()
