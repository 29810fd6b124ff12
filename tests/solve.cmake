# solve: the octad tablebase generator (index, files, values), and the
# command's generation, crash-resume and refusal of bad tables.
if(TARGET octad_solve)
  octad_add_unit_test(test_solve LIBS octad_solve TIMEOUT 300)
  if(TARGET octad)
    add_test(NAME test_solve_cli COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_solve_cli.sh $<TARGET_FILE:octad>)
    set_tests_properties(test_solve_cli PROPERTIES LABELS cli TIMEOUT 300)
  endif()
endif()
if(TARGET octad_solve)
  octad_add_unit_test(test_answer LIBS octad_solve LABELS solve)
endif()
